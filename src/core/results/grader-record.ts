// The one record every grader returns (DESIGN.md, Graders): the account grader (the diff against the key), the
// policy judge today, and the rubric grader and end-state checks later. Reports and statistics read this shape,
// so a new grader needs no new reporting code.
import type { TaskGrade } from "../kinds/account/grader/types";

export interface GraderRecord {
  /** Which grader decided: "account" (the key), "policy_judge"... */
  grader: string;
  /** The grader's own word for the outcome (the account grader's verdicts; the judge's passed/failed), or null. */
  verdict: string | null;
  /** Whether the trial passed by this grader, or null when it has no opinion (no key, an error). */
  passed: boolean | null;
  /** 0..1; 1 or 0 for graders that only pass or fail; null with no opinion. */
  reward: number | null;
  /** Why, one line each, in the order the grader decided. */
  reasons: string[];
  /** Money put wrong, in cents; null when the grader does not measure money. */
  dollars_wrong_cents: number | null;
}

/** The account grader's task grade in the shared shape. */
export function accountGraderRecord(t: TaskGrade): GraderRecord {
  const passed = t.graded ? t.verdict === "passed" : null;
  return {
    grader: "account",
    verdict: t.graded ? t.verdict : null,
    passed,
    reward: passed === null ? null : passed ? 1 : 0,
    reasons: [t.reason, ...t.evidence.notes],
    dollars_wrong_cents: t.graded ? t.dollars_wrong : null,
  };
}
