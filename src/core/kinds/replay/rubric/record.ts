// What the rubric grader and the end-state checks record for one run: the shared grader record (record.ts) plus
// every criterion with its reason, and for a judged run the model, its cost and any error. Parsed with zod: the
// episode API and hosted runs read these back.
import { z } from "zod";
import { MODEL_ERROR_KINDS } from "../../../models/types";

export const RUBRIC_GRADER = "rubric" as const;
export const END_STATE_GRADER = "end_state" as const;
export const RUBRIC_OUTCOMES = ["graded", "error", "skipped_for_budget"] as const;

/**
 * The verdicts of a run graded by criteria (rubric, end_state, or a grader of your own) in the results contract:
 * every criterion met, or not. A run the grader could not grade has no verdict: it is an infrastructure error.
 */
export const RUBRIC_VERDICTS = ["criteria_unmet", "passed"] as const;
export type RubricVerdict = (typeof RUBRIC_VERDICTS)[number];

export const criterionResult = z.strictObject({
  id: z.string(),
  claim: z.string(),
  met: z.boolean().nullable(),
  reason: z.string(),
  by: z.enum(["judge", "check"]),
});

export const rubricRecord = z.strictObject({
  grader: z.enum([RUBRIC_GRADER, END_STATE_GRADER]),
  outcome: z.enum(RUBRIC_OUTCOMES),
  verdict: z.enum(["passed", "failed"]).nullable(),
  passed: z.boolean().nullable(),
  /** The share of criteria and checks met; null when any could not be graded. */
  reward: z.number().min(0).max(1).nullable(),
  reasons: z.array(z.string()),
  dollars_wrong_cents: z.null(),
  criteria: z.array(criterionResult),
  /** provider:model of the judge; null for checks alone. */
  model: z.string().nullable(),
  cost: z
    .strictObject({
      dollars: z.number().nonnegative().nullable(),
      input_tokens: z.number().int().nonnegative(),
      output_tokens: z.number().int().nonnegative(),
      attempts: z.number().int().nonnegative(),
      duration_ms: z.number().nonnegative(),
    })
    .nullable(),
  cached: z.boolean(),
  error: z.strictObject({ kind: z.enum(MODEL_ERROR_KINDS), message: z.string(), raw: z.string().nullable() }).nullable(),
});
export type RubricRecord = z.infer<typeof rubricRecord>;
