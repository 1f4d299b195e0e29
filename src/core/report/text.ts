// The text a passk run prints when it ends: the per-task table, the crash-test summary, and the two contract
// lines last (`status:` then `next:`), so a log's tail always says what happened and what to do.
import { formatMoney } from "../results/money";
import { stderrFromNotes } from "../results/stderr";
import type { Results, RunResult } from "../results/types";
import { intervalText, passHatAtK, pct, trialWord, VERDICT_MEANINGS } from "./format";
import { verdictLines } from "./verdicts";
import { judgeLines, judgeTrialWord } from "./judge-text";

const MAX_PROBLEM_LINES = 12;
const MAX_REASON_CHARS = 160;

/** What a run's tasks are graded on: money and keys (account worlds), calls and end states (tools), criteria and rewards (evals). */
export type GradedKind = "account" | "tools" | "evals";

/** The words a run's output uses for its tasks, and whether it has money to speak of. */
function kindWords(kind: GradedKind, n: number): { tasks: string; money: boolean } {
  const s = n === 1 ? "" : "s";
  if (kind === "tools") return { tasks: `task${s} graded on ${n === 1 ? "its" : "their"} calls and end states`, money: false };
  if (kind === "evals") return { tasks: `task${s} graded on ${n === 1 ? "its" : "their"} criteria and rewards`, money: false };
  return { tasks: `keyed task${s}`, money: true };
}

export function renderText(r: Results, kind: GradedKind = "account"): string {
  const lines: string[] = [];
  const ct = r.crash_test;
  const money = (c: number) => formatMoney(c, r.currency);
  // Money columns only where money is graded: a tools or evals run never has a dollar wrong to report.
  const graded = kindWords(kind, ct.suite.tasks);
  if (ct.tasks.length > 0 && r.runs.length > 0) lines.push(...taskTable(r, graded.money), ...legend(r), "");

  lines.push(
    `crash test: ${ct.flawless_runs} of ${ct.runs} run${ct.runs === 1 ? "" : "s"} flawless` +
      (graded.money
        ? ` · ${money(ct.dollars_wrong_total_cents)} wrong` + (ct.runs > 1 ? ` (${ct.dollars_wrong_per_run.map((c, i) => `run ${r.runs[i].index} ${money(c)}`).join(", ")})` : "")
        : ""),
  );
  if (ct.suite.pass_hat_k.length > 0) {
    lines.push(`pass^k over ${ct.suite.tasks} ${graded.tasks}: ${ct.suite.pass_hat_k.map((p) => `k=${p.k} ${pct(p.value)} [${intervalText(p)}]`).join("  ")}`);
  }
  if (ct.trials.infra_errors > 0 || ct.infra_errors.count > 0) {
    const stages = Object.entries(ct.infra_errors.by_stage).map(([s, n]) => `${s} ${n}`).join(", ");
    lines.push(`infrastructure errors: ${ct.infra_errors.count} episode${ct.infra_errors.count === 1 ? "" : "s"} (${stages}), counted as trials not passed`);
  }
  lines.push(...verdictLines(r));
  lines.push(...judgeLines(r));
  const problems = r.runs.flatMap((run) => run.problems.map((p) => problemLines(run, p)));
  if (problems.length > 0) {
    // An agent that fails the same way in every world prints the same stderr: show it once.
    const shownStderr = new Set<string>();
    lines.push("problems:");
    for (const p of problems.slice(0, MAX_PROBLEM_LINES)) {
      lines.push(p.line);
      if (p.stderr.length === 0) continue;
      const key = p.stderr.join("\n");
      if (shownStderr.has(key)) lines.push("      | (the same stderr as above)");
      else lines.push(...p.stderr.map((l) => `      | ${oneLine(l)}`));
      shownStderr.add(key);
    }
    if (problems.length > MAX_PROBLEM_LINES) lines.push(`  … ${problems.length - MAX_PROBLEM_LINES} more in the JSON or the report`);
  }
  if (ct.worst_task) {
    const w = ct.worst_task;
    lines.push(`worst task: ${w.id} "${oneLine(w.subject)}" · ${pct(w.accuracy)}${graded.money ? ` · ${money(w.dollars_wrong_cents)} wrong` : ""}`, `  replay: ${w.replay}`);
  }
  lines.push(...contractLines(r));
  return lines.join("\n") + "\n";
}

/** The two lines every passk output ends with, full results or an early stop alike. */
export function contractLines(r: Pick<Results, "status" | "exit_code" | "reason" | "next_action">): [string, string] {
  return [`status: ${r.status} (exit ${r.exit_code}) — ${oneLine(r.reason)}`, `next: ${oneLine(r.next_action)}`];
}

function taskTable(r: Results, money: boolean): string[] {
  const ct = r.crash_test;
  const at = passHatAtK(r);
  const header = ["task", ...r.runs.map((run) => `run ${run.index}`), "passed", "accuracy", "95% interval", at ? `pass^${at.k}` : "pass^k", ...(money ? ["wrong"] : []), ""];
  const rows = ct.tasks.map((t) => [
    oneLine(t.id),
    ...r.runs.map((run) => {
      const w = run.worlds.find((x) => x.position === t.position);
      return judgeTrialWord(w, t.keyed) ?? trialWord(w, t.keyed);
    }),
    t.keyed ? `${t.passed}/${t.trials}` : "—",
    pct(t.accuracy),
    intervalText(t.interval),
    t.pass_hat_k && at && t.pass_hat_k[at.k - 1] ? pct(t.pass_hat_k[at.k - 1].value) : "—",
    ...(money ? [formatMoney(t.dollars_wrong_cents, r.currency)] : []),
    t.flaky ? "flaky" : "",
  ]);
  const widths = header.map((h, i) => Math.max(width(h), ...rows.map((row) => width(row[i]))));
  const fmt = (row: string[]) => row.map((c, i) => c + " ".repeat(widths[i] - width(c))).join("  ").trimEnd();
  const out = [fmt(header), ...rows.map(fmt)];
  return out;
}

/** One line per failing verdict the table shows, saying what it means: the words are the grader's, not the user's. */
function legend(r: Results): string[] {
  const shown = new Set<string>(r.runs.flatMap((run) => run.worlds.flatMap((w) => (w.verdict && w.verdict !== "passed" ? [w.verdict] : []))));
  const words = Object.keys(VERDICT_MEANINGS).filter((v) => shown.has(v));
  return words.length > 0 ? ["verdicts:", ...words.map((v) => `  ${v}: ${VERDICT_MEANINGS[v]}`)] : [];
}

/**
 * A run's problem line, with what explains it: a task's verdict gets the grader's reason, an agent that did not
 * finish cleanly gets the lines of its stderr that say why (the first error, then the last lines).
 */
function problemLines(run: RunResult, problem: string): { line: string; stderr: string[] } {
  const line = `  run ${run.index}: ${oneLine(problem)}`;
  const owner = run.worlds.find((w) => problem.startsWith(`${w.task}: `) && w.verdict !== null && w.verdict !== "infra_error");
  if (owner) {
    const reason = owner.evidence.notes[0] ? oneLine(owner.evidence.notes[0]) : "";
    return { line: reason ? `${line} — ${reason.length > MAX_REASON_CHARS ? `${reason.slice(0, MAX_REASON_CHARS)}…` : reason}` : line, stderr: [] };
  }
  const agent = run.worlds.find((w) => problem.startsWith(`${w.task}'s world: the agent `)) ?? (problem.startsWith("the world: the agent ") ? run.worlds[0] : undefined);
  return { line, stderr: agent ? stderrFromNotes(agent.evidence.notes) : [] };
}

/** Terminal columns, counting code points (good enough for ids and verdict words). */
function width(s: string): number {
  return Array.from(s).length;
}

/** One printable line: whitespace runs and control characters (a subject could carry terminal escapes) become one space. */
function oneLine(s: string): string {
  return s.replace(/[\s\u0000-\u001f\u007f-\u009f]+/g, " ").trim();
}
