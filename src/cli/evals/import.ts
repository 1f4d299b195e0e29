// `worlds evals import FILE`: a task file checked field by field and copied into the project, every task as the
// file held it (fields worlds does not read included: a user's own environment or grader code may read them).
import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { BENCHMARK_FORMAT, isEndStateGrader, isReplayEnvironment, isRubricGrader, type LoadedTask } from "../../core/kinds/replay/task-format/index";
import { prettyCanonicalJson } from "../../core/util/canonical";

/** `duplicate-charge-refund  failure  held_out  replay (4 tools, 3 recorded)  rubric (3 criteria, 2 checks)  1 reference run` */
export function taskLine(t: LoadedTask): string {
  const { task } = t;
  const env = task.environment;
  const envText = isReplayEnvironment(env) ? `replay (${env.tools.length} tools, ${env.observations.length} recorded${env.person ? ", a person" : ""})` : `${env.kind} (your own code)`;
  const g = task.grader;
  const graderText = isRubricGrader(g)
    ? `rubric (${g.criteria.length} criteria${g.checks.length ? `, ${g.checks.length} checks` : ""})`
    : isEndStateGrader(g)
      ? `end_state (${g.checks.length} checks)`
      : `${g.kind} (your own code)`;
  const refs = `${task.reference.length} reference run${task.reference.length === 1 ? "" : "s"}`;
  return `${task.slug}  ${task.origin}  ${task.split}  ${envText}  ${graderText}  ${refs}`;
}

/**
 * The effects worlds inferred for the task's tools (the file did not state them), so an author can see each and
 * correct one with `effect:`; null when every tool's effect was stated.
 */
export function inferredEffectsLine(t: LoadedTask): string | null {
  const env = t.task.environment;
  if (!isReplayEnvironment(env)) return null;
  const inferred = env.tools.filter((x) => x.effect_source === "inferred");
  if (!inferred.length) return null;
  return `  ${t.task.slug}: effects inferred: ${inferred.map((x) => `${x.name} ${x.effect}`).join(", ")} (state one with "effect": "read" | "write" to change it)`;
}

export function summaryLine(tasks: LoadedTask[]): string {
  const count = (f: (t: LoadedTask) => boolean) => tasks.filter(f).length;
  return `${tasks.length} task${tasks.length === 1 ? "" : "s"}: ${count((t) => t.task.origin === "failure")} failure, ${count((t) => t.task.origin === "success")} success; ${count((t) => t.task.split === "train")} train, ${count((t) => t.task.split === "held_out")} held out.`;
}

export async function writeBenchmark(path: string, tasks: LoadedTask[]): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, prettyCanonicalJson({ format: BENCHMARK_FORMAT, tasks: tasks.map((t) => t.raw) }));
}
