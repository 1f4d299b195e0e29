// A hosted evals run, before anything is stored: the portable task file read with the same reader as
// `worlds evals run`, every task checked to be one the server can run (a replay environment, a rubric or
// end-state grader, a replay world that builds), the models checked against the server's keys, and the `task`
// filter applied. Every refusal names the field, and a task's the file, line and task.
import type { Env } from "../../../env";
import { evalsRubric } from "../../../core/kinds/replay/task-format/episode";
import { DEFAULT_EVALS_FILE, EVALS_PLAN_VERSION, type EvalsRunPlan, type HostedEvalsRequest } from "../../../core/kinds/replay/task-format/hosted";
import { isEndStateGrader, isReplayEnvironment, isRubricGrader, loadTasks, type EvalTask, type LoadedTask, type ReplayEnvironment } from "../../../core/kinds/replay/task-format/index";
import { replaySeed } from "../../../core/kinds/replay/recorded/index";
import type { RubricDocument } from "../../../core/rubric/schema";
import { parseSeed } from "../../../core/world/seed/parse";
import { formatProblem } from "../../../core/kinds/account/tasks/problems";
import { canonicalJson, sha256Hex } from "../../../core/util/canonical";
import { serverModel } from "../../models/server-client";

export interface PreparedEvalsRun {
  file: string;
  plan: EvalsRunPlan;
  rubric: RubricDocument;
  hashes: { file: string; seed: string; rubric: string };
  summary: string;
}

export type PrepareEvalsOutcome = { ok: true; value: PreparedEvalsRun } | { ok: false; status: 400; code: string; message: string; issues?: unknown };

const refuse = (code: string, message: string, issues?: unknown): PrepareEvalsOutcome => ({ ok: false, status: 400, code, message, ...(issues ? { issues } : {}) });

export async function prepareEvalsRun(env: Env, req: HostedEvalsRequest, only: readonly string[]): Promise<PrepareEvalsOutcome> {
  const file = req.file_name ?? DEFAULT_EVALS_FILE;
  const loaded = loadTasks(req.file, file);
  if (!loaded.ok) {
    const shown = loaded.problems.slice(0, 5).map(formatProblem).join("; ");
    return refuse("invalid_task_file", `evals.file: ${loaded.problems.length} problem(s): ${shown}`, loaded.problems);
  }
  const picked = pick(loaded.tasks, only);
  if (!picked.ok) return refuse("unknown_task", `no task ${picked.unknown.join(", ")} in ${file} (its tasks: ${loaded.tasks.map((t) => t.task.slug).join(", ")})`);
  for (const { task, line } of picked.tasks) {
    const at = `evals.file (${file}:${line}): task ${task.slug}`;
    if (!isReplayEnvironment(task.environment)) return refuse("unsupported_environment", `${at}: environment kind '${task.environment.kind}' is your own code; the server builds replay environments only (run it on your side: worlds evals run --environment CMD).`);
    if (!isRubricGrader(task.grader) && !isEndStateGrader(task.grader)) return refuse("unsupported_grader", `${at}: grader kind '${task.grader.kind}' is your own code; the server grades rubric and end_state tasks only (worlds evals run --grader CMD).`);
    const seed = parseSeed(replaySeed(task as EvalTask & { environment: ReplayEnvironment }));
    if (!seed.ok) return refuse("invalid_task", `${at}: its replay world could not be built: ${seed.issues.slice(0, 3).map((i) => `${i.path}: ${i.message}`).join("; ")}`);
  }
  const tasks = picked.tasks.map((t) => t.task);
  // A model the server cannot run would fail every episode that needs it: refuse the run before it starts.
  if (tasks.some((t) => isRubricGrader(t.grader))) {
    const judge = serverModel(env, req.judge, { cache: false });
    if (!judge.ok) return refuse("judge_unavailable", `evals.judge: ${judge.message}`);
  }
  if (tasks.some((t) => isReplayEnvironment(t.environment) && t.environment.person)) {
    const person = serverModel(env, req.person, { cache: false });
    if (!person.ok) return refuse("person_unavailable", `evals.person: ${person.message}`);
  }
  const plan: EvalsRunPlan = { kind: "evals", version: EVALS_PLAN_VERSION, file_name: file, text: req.file, person: req.person, judge: req.judge, person_turn_limit: req.person_turn_limit, slugs: tasks.map((t) => t.slug) };
  const fileHash = await sha256Hex(req.file);
  const rubric = evalsRubric({ name: file, hash: await sha256Hex(canonicalJson(tasks.map((t) => t.environment))) }, tasks);
  const hashes = { file: fileHash, seed: await sha256Hex(canonicalJson(plan)), rubric: await sha256Hex(canonicalJson(rubric)) };
  return { ok: true, value: { file, plan, rubric, hashes, summary: `${file}: ${tasks.length} task(s) (${picked.tasks.map((t) => t.task.slug).join(", ")})` } };
}

/** The tasks named by slug or 1-based position, in file order; every task when none is named. */
function pick(tasks: LoadedTask[], only: readonly string[]): { ok: true; tasks: LoadedTask[] } | { ok: false; unknown: string[] } {
  if (only.length === 0) return { ok: true, tasks };
  const named = (t: LoadedTask, i: number, o: string) => t.task.slug === o || String(i + 1) === o;
  const unknown = only.filter((o) => !tasks.some((t, i) => named(t, i, o)));
  if (unknown.length) return { ok: false, unknown };
  return { ok: true, tasks: tasks.filter((t, i) => only.some((o) => named(t, i, o))) };
}
