// The result contract's decision: one status (and its exit code) from what the episodes showed. The order
// below is the precedence: a reason that makes the verdicts untrustworthy outranks the verdicts themselves.
import type { UnsupportedCall } from "./input";
import { signalExitCode } from "./signals";
import type { Status } from "./types";

export const EXIT_CODES: Record<Exclude<Status, "interrupted">, number> = {
  passed: 0,
  policy_failed: 1,
  configuration_incomplete: 2,
  setup_failed: 3,
  inconclusive: 4,
};

export interface Tally {
  count: number;
  /** The first message seen (episodes in run then file order), quoted in the reason. */
  first: string | null;
}

export interface DecisionFacts {
  interrupted: { signal: string } | null;
  setup_failure: { status: "configuration_incomplete" | "setup_failed"; reason: string; next_action: string } | null;
  /** Episodes recorded, and how many the run called for (tasks x runs, or runs in shift mode). */
  episodes: number;
  episodes_expected: number;
  agent_start_failures: Tally;
  world_create_failures: Tally;
  grade_failures: Tally;
  server_failures: Tally;
  /** Episodes whose agent process actually ran. */
  agent_ran: number;
  /** Of those, how many reported traffic counts, and how many saw at least one billing request. */
  traffic_reported: number;
  billing_traffic: number;
  unsupported: UnsupportedCall[];
  /** Lines saying what failed by the agent's own doing (task verdicts worst first, then exits and checks). */
  policy_problems: string[];
  runs: number;
  flawless_runs: number;
  keyed_tasks: number;
  runs_requested: number;
  /** Suggested commands, already shell-quoted. */
  doctor: string;
  replay: string | null;
  worst: string | null;
}

export interface Decision {
  status: Status;
  reason: string;
  next_action: string;
  exit_code: number;
}

export function decide(f: DecisionFacts): Decision {
  if (f.interrupted) {
    return {
      status: "interrupted",
      reason: `stopped by ${f.interrupted.signal} after ${f.episodes} of ${f.episodes_expected} episodes; the figures cover only those`,
      next_action: "run the same command again and let it finish",
      exit_code: signalExitCode(f.interrupted.signal),
    };
  }
  if (f.setup_failure) {
    const { status, reason, next_action } = f.setup_failure;
    return { status, reason, next_action, exit_code: EXIT_CODES[status] };
  }
  if (f.episodes === 0) {
    return contract("inconclusive", "no episode was recorded, so nothing was graded", `check the server and the agent: ${f.doctor}`);
  }
  if (f.agent_start_failures.count === f.episodes) {
    return contract(
      "configuration_incomplete",
      `the agent command could not be started (${f.agent_start_failures.first})`,
      `fix the command after --, then check it with ${f.doctor}`,
    );
  }
  if (f.world_create_failures.count === f.episodes) {
    return contract("setup_failed", `no world could be created (${f.world_create_failures.first})`, `check the server: ${f.doctor}`);
  }
  if (f.unsupported.length > 0) {
    const u = f.unsupported[0];
    const what = u.kind === "route" ? "a route the twin does not implement" : "a parameter the twin refuses";
    const more = f.unsupported.length > 1 ? ` (and ${f.unsupported.length - 1} more)` : "";
    return contract(
      "inconclusive",
      `the agent called ${what}: ${u.method} ${u.path}${u.message ? ` (${u.message})` : ""}${more}; verdicts in those worlds say more about the twin than the agent`,
      "change the agent's call to one the twin serves, or report the gap quoting the request above",
    );
  }
  if (f.agent_ran > 0 && f.traffic_reported === f.agent_ran && f.billing_traffic === 0) {
    return contract(
      "inconclusive",
      `no world received a single billing request: the agent never reached the twin (it ran in ${f.agent_ran} world${plural(f.agent_ran)})`,
      `see what the agent is missing: ${f.doctor}`,
    );
  }
  const graded = f.episodes - f.world_create_failures.count - f.agent_start_failures.count - f.server_failures.count;
  if (graded > 0 && f.grade_failures.count === graded) {
    return contract("inconclusive", `the server could not grade any world (${f.grade_failures.first})`, `check the server: ${f.doctor}`);
  }
  const infra =
    f.agent_start_failures.count + f.world_create_failures.count + f.grade_failures.count + f.server_failures.count;
  if (f.policy_problems.length > 0) {
    const first = f.policy_problems.slice(0, 3).join("; ");
    const rest = f.policy_problems.length > 3 ? ` (+${f.policy_problems.length - 3} more)` : "";
    const infraNote = infra > 0 ? `; ${infra} episode${plural(infra)} also hit infrastructure errors` : "";
    return contract(
      "policy_failed",
      `${f.flawless_runs} of ${f.runs} run${plural(f.runs)} flawless: ${first}${rest}${infraNote}`,
      f.replay ? `replay the worst task (${f.worst}): ${f.replay}` : "read the failed checks in the report and fix what they name",
    );
  }
  if (infra > 0) {
    const first = f.world_create_failures.first ?? f.grade_failures.first ?? f.agent_start_failures.first ?? f.server_failures.first;
    return contract(
      "inconclusive",
      `${infra} of ${f.episodes} episodes hit infrastructure errors (${first}); the rest passed, but those trials count as not passed`,
      `run again; if the errors persist, check the server: ${f.doctor}`,
    );
  }
  if (f.runs < f.runs_requested) {
    return contract(
      "inconclusive",
      `only ${f.runs} of ${f.runs_requested} runs were recorded`,
      "run the same command again and let it finish",
    );
  }
  return contract(
    "passed",
    `${f.flawless_runs} of ${f.runs} run${plural(f.runs)} flawless: every keyed task passed in every run and every check held`,
    f.runs_requested < 5
      ? `nothing to fix; for tighter intervals raise --runs (now ${f.runs_requested})`
      : "nothing to fix; keep this command as the CI gate",
  );
}

function contract(status: Exclude<Status, "interrupted">, reason: string, next_action: string): Decision {
  return { status, reason, next_action, exit_code: EXIT_CODES[status] };
}

function plural(n: number): string {
  return n === 1 ? "" : "s";
}
