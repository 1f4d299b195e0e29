// Small renderings every report shares, so the text, JUnit and HTML forms say the same thing the same way.
import type { AgentOutcome, Check } from "../results/input";
import type { Results, RunResult, WorldResult } from "../results/types";
import type { WorldTrace } from "../results/trace";

export function pct(x: number | null): string {
  return x === null ? "—" : `${Math.round(x * 100)}%`;
}

export function intervalText(i: { low: number; high: number } | null): string {
  return i === null ? "—" : `${Math.round(i.low * 100)}–${Math.round(i.high * 100)}%`;
}

/** One word for a trial: the verdict, "policy" for a task with no key, "not run" for a gap. */
export function verdictWord(v: string | null, keyed: boolean): string {
  if (v === null) return keyed ? "not run" : "policy";
  return v;
}

/**
 * A trial's cell in the tasks × runs table. A keyed trial that failed for a reason other than its verdict (the
 * agent crashed after doing the right thing, a check broke) is shown failed by that reason, the key's verdict
 * beside it, so a cell never reads "passed" in a row that counts it 0 of 1.
 */
export function trialWord(w: Pick<WorldResult, "verdict" | "passed" | "agent" | "checks" | "infra_error"> | undefined, keyed: boolean): string {
  if (!w) return verdictWord(null, keyed);
  const word = verdictWord(w.verdict, keyed);
  if (w.passed !== false || w.infra_error) return word;
  const why = agentExitWord(w.agent) ?? (w.checks.some((c) => !c.held) ? "check failed" : null);
  return why ? `${why} · ${word}` : word;
}

/** How an agent that did not finish cleanly ended, in a word or two; null when it exited 0 in time. */
export function agentExitWord(a: AgentOutcome | null): string | null {
  if (!a) return null;
  if (a.start_error) return "not started";
  if (a.timed_out) return "timed out";
  if (a.error) return "agent error";
  if (a.signal) return "crashed";
  if (a.exit_code !== 0) return a.exit_code === null ? "crashed" : `exit ${a.exit_code}`;
  return null;
}

/** What each verdict word means, for the legend under the table (docs/grading.md has the full rules). */
export const VERDICT_MEANINGS: Record<string, string> = {
  false_claim: "the reply tells the customer something was done that the world does not show",
  overreach: "the agent did more than the key allows (an action on a decoy, money moved on a none/escalate key, or extra actions)",
  wrong_target: "the key's action, on another object than the one the key names",
  wrong_amount: "the key's action on the right object, with another amount",
  wrong_action: "something other than the key's action was done",
  missed: "the key's action is not in the world and nothing else was done (or no reply to a none key, no hand-off for escalate)",
  no_reply: "the account ended right but the customer was never answered",
  unresolved: "the account and the reply were right, but the ticket did not end in a status the key accepts (e.g. solved); set the ticket's status when done",
  malformed_call: "a call named a tool outside the block, or broke the tool's schema",
  turn_limit: "the agent ran out of turns (or calls) before it finished",
  wrong_state: "the world did not end as the task expects (a tools task: the expected call was not made with exactly the stated values, or no reply; a family tier: a verify check failed)",
  collateral_mutation: "the goal was reached, but another write was accepted too",
  criteria_unmet: "the task's grader (its rubric criteria, end-state checks, or your own grader) found a criterion not met",
  infra_error: "the trial could not be run or graded (server, world or agent start); it counts as not passed",
};

export function agentFailure(a: AgentOutcome | null): string | null {
  if (!a) return null;
  if (a.start_error) return `could not start (${a.start_error})`;
  if (a.timed_out) return "timed out";
  if (a.error) return `failed (${a.error})`;
  if (a.signal) return `was killed by ${a.signal}`;
  if (a.exit_code !== 0) return `exited ${a.exit_code ?? "without a code"}`;
  return null;
}

/**
 * Problems of a run that belong to no single task's verdict: failed checks (world and run level) and agent
 * exits. In shift mode the world is shared, so each world is reported once.
 */
export function runLevelProblems(run: RunResult): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const w of run.worlds) {
    const key = w.world ?? `task:${w.task}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const where = sharedWorld(run, w) ? "the world" : `${w.task}'s world`;
    const agent = w.infra_error ? null : agentFailure(w.agent);
    if (agent) out.push(`${where}: the agent ${agent}`);
    for (const c of w.checks) if (!c.held) out.push(`${where}: ${checkText(c)}`);
  }
  for (const c of run.checks) if (!c.held) out.push(checkText(c));
  return out;
}

function sharedWorld(run: RunResult, w: WorldResult): boolean {
  return w.world !== null && run.worlds.filter((x) => x.world === w.world).length > 1;
}

export function checkText(c: Check): string {
  return `check ${c.name} failed${c.detail ? ` (${c.detail})` : ""}`;
}

/** The trials worth explaining: a keyed task that did not pass, an infrastructure error. */
export function failures(results: Results): { run: RunResult; world: WorldResult }[] {
  const out: { run: RunResult; world: WorldResult }[] = [];
  for (const run of results.runs) for (const world of run.worlds) if (world.passed === false || world.verdict === "infra_error") out.push({ run, world });
  return out;
}

export function passHatAtK(results: Results): { k: number; value: number; low: number; high: number } | null {
  const curve = results.crash_test.suite.pass_hat_k;
  return curve.length > 0 ? curve[curve.length - 1] : null;
}
/** The trace a trial's world left: its own, or in a shift the one the world's first task carries. */
export function traceOf(run: RunResult, w: WorldResult): WorldTrace | null {
  if (w.trace) return w.trace;
  if (w.world === null) return null;
  return run.worlds.find((x) => x.world === w.world && x.trace)?.trace ?? null;
}
