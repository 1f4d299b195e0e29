// What the gates and the baseline do to a run's status. Without them a run passes only when every run was
// flawless. With --gate the bar is the gates instead: met on their intervals' bounds, the run passes even if some
// trial failed; missed or undecided, it fails. A failed run check (the tasks file's budget) still fails the run:
// it is a limit the user wrote down, not a rate. With --baseline, a significant regression fails a run that would
// otherwise pass. Statuses that say the verdicts cannot be trusted (inconclusive, setup, interrupted) stand as
// they are: a gate cannot rescue them.
import type { BaselineBlock } from "../compare/baseline";
import { EXIT_CODES } from "../results/decide";
import type { Results } from "../results/types";
import type { GateResult } from "./evaluate";

export interface Verdicts {
  gates?: GateResult[];
  baseline?: BaselineBlock;
  /** The command that reruns the whole crash test with `runs` runs (and the same gates), for an undecided gate. */
  rerun?: (runs: number) => string;
}

export function applyVerdicts(results: Results, v: Verdicts): Results {
  let { status, reason, next_action } = results;
  const decidable = status === "passed" || status === "policy_failed";
  if (v.gates && v.gates.length > 0 && decidable) {
    const unmet = v.gates.filter((g) => g.outcome !== "passed");
    const runChecks = results.runs.flatMap((r) => r.checks.filter((c) => !c.held).map((c) => `run ${r.index}: check ${c.name} failed`));
    if (unmet.length > 0) {
      status = "policy_failed";
      reason = `gate${unmet.length === 1 ? "" : "s"} not met: ${unmet.map((g) => `${g.gate} ${g.outcome} (${g.reason})`).join("; ")}`;
      const runs = Math.max(0, ...unmet.map((g) => g.runs_needed ?? 0));
      const undecided = unmet.every((g) => g.outcome === "undecided");
      next_action =
        undecided && runs > 0
          ? v.rerun
            ? `run enough to decide: ${v.rerun(runs)}`
            : `run it again with --runs ${runs} to decide`
          : undecided
            ? "more runs alone will not decide: add tasks, or look at the tasks that differ most"
            : results.status === "policy_failed"
              ? results.next_action
              : "look at the tasks that failed in the report";
    } else if (runChecks.length > 0) {
      status = "policy_failed";
      reason = `every gate met, but ${runChecks.join("; ")}`;
    } else {
      status = "passed";
      reason = `every gate met on its interval's bound: ${v.gates.map((g) => `${g.gate} (${g.reason})`).join("; ")}`;
      next_action = results.status === "policy_failed" ? `nothing has to change; the worst task is still worth a look: ${results.next_action}` : "nothing to do";
    }
  }
  if (v.baseline && v.baseline.status === "regressed" && status === "passed") {
    status = "policy_failed";
    reason = `a significant regression against the baseline ${v.baseline.source}: ${v.baseline.reason}`;
    next_action = v.baseline.next_action;
  }
  const exit_code = status === results.status ? results.exit_code : EXIT_CODES[status as "passed" | "policy_failed"];
  return {
    ...results,
    status,
    reason,
    next_action,
    exit_code,
    ...(v.gates && v.gates.length > 0 ? { gates: v.gates } : {}),
    ...(v.baseline ? { baseline: v.baseline } : {}),
  };
}
