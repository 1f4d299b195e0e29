// `passk --baseline FILE`: the comparison of this run against an earlier one (the main branch's, in CI), kept in
// the results as a summary, because it can decide the run's status: a significant regression fails a run that
// would otherwise pass. The full comparison is printed with the run and is one `worlds compare` away.
import type { Correction } from "../stats/adjust";
import type { Comparison } from "./types";

export interface BaselineBlock {
  /** The baseline file as given. */
  source: string;
  status: Comparison["status"];
  reason: string;
  next_action: string;
  alpha: number;
  correction: Correction;
  /** Significant regressions: task ids, and "suite". */
  regressions: string[];
  worse: string[];
  better: string[];
  became_flaky: string[];
}

export function baselineBlock(c: Comparison): BaselineBlock {
  return {
    source: c.base.source,
    status: c.status,
    reason: c.reason,
    next_action: c.next_action,
    alpha: c.level.alpha,
    correction: c.level.correction,
    regressions: [...c.regressions],
    worse: [...c.worse],
    better: [...c.better],
    became_flaky: [...c.became_flaky],
  };
}
