// `worlds evals check FILE`: every task's reference runs graded by the task's own grader, no agent run. A
// failure's production run must not pass and a success's must; a grade that disagrees means the grader is wrong.
import { expectOf, isEndStateGrader, isRubricGrader, type LoadedTask, type ReferenceRun } from "../../core/kinds/replay/task-format/index";
import type { GraderRecord } from "../../core/results/grader-record";
import { gradeTask, type RubricJudge } from "../../core/kinds/replay/rubric/index";
import { gradeWithProcess } from "./own-process";

export type CheckStatus = "OK" | "DISAGREE" | "ERROR" | "SKIPPED";

export interface CheckRow {
  status: CheckStatus;
  slug: string;
  label: string;
  expect: "pass" | "fail";
  record: GraderRecord | null;
  /** Why a run was skipped or could not be graded. */
  why: string | null;
}

export interface CheckOptions {
  judge: RubricJudge | null;
  /** Your own grader command, for tasks whose grader kind worlds does not build. */
  grader: string | null;
}

/** Which tasks need the judge: those with a rubric and reference runs to grade. */
export const needsJudge = (tasks: readonly LoadedTask[]) => tasks.some((t) => isRubricGrader(t.task.grader) && t.task.reference.length > 0);

async function gradeOne(t: LoadedTask, run: ReferenceRun, o: CheckOptions): Promise<{ record: GraderRecord } | { skip: string } | { error: string }> {
  const { task } = t;
  const episode = { transcript: run.transcript, tool_calls: run.tool_calls };
  const g = task.grader;
  if (isRubricGrader(g) || isEndStateGrader(g)) {
    if (isRubricGrader(g) && !o.judge) return { skip: "a rubric grader needs --judge" };
    const r = await gradeTask(o.judge, task, episode);
    if (!r) return { error: "no grade" };
    if (r.passed === null) return { error: r.error?.message ?? r.reasons.find((x) => x.startsWith("not graded")) ?? "not graded" };
    return { record: r };
  }
  if (!o.grader) return { skip: `grader kind '${g.kind}' is your own code, and none was given (--grader CMD)` };
  const r = await gradeWithProcess(o.grader, g.kind, { task: t.raw, episode: { transcript: run.transcript, tool_calls: run.tool_calls, output: null, state: null } });
  return r.ok ? { record: r.record } : { error: r.message };
}

export async function checkReferences(tasks: readonly LoadedTask[], o: CheckOptions): Promise<CheckRow[]> {
  const rows: CheckRow[] = [];
  for (const t of tasks) {
    // Each task's runs at once; tasks in file order, so the output reads like the file.
    const graded = await Promise.all(t.task.reference.map(async (run) => ({ run, out: await gradeOne(t, run, o) })));
    for (const { run, out } of graded) {
      const expect = expectOf(t.task, run);
      const base = { slug: t.task.slug, label: run.label, expect };
      if ("skip" in out) rows.push({ ...base, status: "SKIPPED", record: null, why: out.skip });
      else if ("error" in out) rows.push({ ...base, status: "ERROR", record: null, why: out.error });
      else rows.push({ ...base, status: (out.record.passed === true) === (expect === "pass") ? "OK" : "DISAGREE", record: out.record, why: null });
    }
  }
  return rows;
}

export function checkLine(r: CheckRow): string {
  const head = `${r.status.padEnd(10)}${r.slug}  ${r.label}  `;
  if (!r.record) return `${head}expect ${r.expect}, ${r.status === "SKIPPED" ? "skipped" : "not graded"}: ${r.why}`;
  const got = r.record.passed ? "pass" : "fail";
  const reward = r.record.reward === null ? "" : ` (reward ${Number(r.record.reward.toFixed(3))})`;
  return `${head}expect ${r.expect}, got ${got}${reward}`;
}

export function checkSummary(rows: readonly CheckRow[]): string {
  const n = (s: CheckStatus) => rows.filter((r) => r.status === s).length;
  const checked = n("OK") + n("DISAGREE");
  const extra = [n("ERROR") ? `${n("ERROR")} could not be graded` : "", n("SKIPPED") ? `${n("SKIPPED")} skipped` : ""].filter(Boolean);
  return `${checked} reference run${checked === 1 ? "" : "s"} checked, ${n("DISAGREE")} disagree with expect.${extra.length ? ` ${extra.join("; ")}.` : ""}`;
}

/** 1 when any grade disagrees (the grader is wrong), 4 when some could not be graded, else 0. */
export function checkExitCode(rows: readonly CheckRow[]): number {
  if (rows.some((r) => r.status === "DISAGREE")) return 1;
  if (rows.some((r) => r.status === "ERROR")) return 4;
  return 0;
}
