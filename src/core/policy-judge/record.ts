// What the policy judge records for one task of one episode, in the grader record's shape (graders/record.ts)
// plus what only a model grader has: its findings, its cost, whether the answer came from the cache, and the
// error it ran into. Parsed with zod: hosted runs read these back from D1 and R2.
import { z } from "zod";
import { MODEL_ERROR_KINDS } from "../models/types";

export const JUDGE_GRADER = "policy_judge" as const;
export const JUDGE_OUTCOMES = ["judged", "error", "skipped_for_budget"] as const;
export type JudgeOutcome = (typeof JUDGE_OUTCOMES)[number];

export const judgeFinding = z.strictObject({
  /** The rule as the judge quoted it. */
  rule: z.string(),
  /** What in the ticket, the reply or the changes the rule was read against. */
  evidence: z.string(),
  /** One sentence. */
  why: z.string(),
  followed: z.boolean(),
  /** Whether the quote is found in the policy text (whitespace, case and quote marks aside): a judge that invents rules shows here. */
  in_policy: z.boolean(),
});
export type JudgeFinding = z.infer<typeof judgeFinding>;

export const judgeRecord = z.strictObject({
  grader: z.literal(JUDGE_GRADER),
  /** provider:model. */
  model: z.string(),
  outcome: z.enum(JUDGE_OUTCOMES),
  verdict: z.enum(["passed", "failed"]).nullable(),
  passed: z.boolean().nullable(),
  reward: z.number().min(0).max(1).nullable(),
  reasons: z.array(z.string()),
  /** The judge reads words, not money. */
  dollars_wrong_cents: z.null(),
  findings: z.array(judgeFinding),
  cost: z.strictObject({
    /** What this judgement cost; 0 when cached or never sent; null when the model has no price. */
    dollars: z.number().nonnegative().nullable(),
    input_tokens: z.number().int().nonnegative(),
    output_tokens: z.number().int().nonnegative(),
    /** Requests sent (retries included); 0 when cached or skipped. */
    attempts: z.number().int().nonnegative(),
    /** Wall time of the judgement, waits for the client's concurrency and retries included. */
    duration_ms: z.number().nonnegative().default(0),
  }),
  cached: z.boolean(),
  error: z.strictObject({ kind: z.enum(MODEL_ERROR_KINDS), message: z.string(), raw: z.string().nullable() }).nullable(),
});
export type JudgeRecord = z.infer<typeof judgeRecord>;

/** A task the judge could not be asked about (its setup failed): an error on the task, never a missing record. */
export function judgeErrorRecord(model: string, message: string): JudgeRecord {
  return {
    grader: JUDGE_GRADER,
    model,
    outcome: "error",
    verdict: null,
    passed: null,
    reward: null,
    reasons: [`the judge could not judge this task: ${message}`],
    dollars_wrong_cents: null,
    findings: [],
    cost: { dollars: 0, input_tokens: 0, output_tokens: 0, attempts: 0, duration_ms: 0 },
    cached: false,
    error: { kind: "config", message, raw: null },
  };
}
