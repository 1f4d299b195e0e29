// The verify grader: an episode passes when every check holds on the world's end. Its record is the shared
// grader record (src/core/results/grader-record.ts): reward 1 or 0, a reason per failed check, no money measured.
import type { GraderRecord } from "../results/grader-record";
import type { CheckResult } from "./verify/evaluate";

export interface VerifyGrade extends GraderRecord {
  verdict: "passed" | "wrong_state";
  results: CheckResult[];
}

export function verifyGrade(results: CheckResult[]): VerifyGrade {
  const failed = results.filter((r) => !r.held);
  const passed = failed.length === 0;
  return {
    grader: "verify",
    verdict: passed ? "passed" : "wrong_state",
    passed,
    reward: passed ? 1 : 0,
    reasons: passed ? [`every verify check held (${results.length})`] : failed.map((r) => `verify ${r.check} failed: ${r.detail}`),
    dollars_wrong_cents: null,
    results,
  };
}
