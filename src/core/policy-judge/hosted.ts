// The judge of a hosted run, as POST /admin/runs and POST /admin/hooks take it. The policy travels as text: the
// server reads no files. The model's key is the server's secret (OPENAI_API_KEY / ANTHROPIC_API_KEY) and its
// base URL the server's variable; neither comes in a request, so nobody with the admin token can point the
// server's key at a host of their choosing.
import { z } from "zod";
import { modelNameString } from "../models/names";
import { DEFAULT_JUDGE_MODEL, MAX_POLICY_CHARS } from "./settings";

export const hostedJudgeRequest = z.strictObject({
  /** provider:model; default the documented default judge. */
  model: modelNameString.default(DEFAULT_JUDGE_MODEL),
  /** The policy's text (a tasks file's policy: names a file the server cannot read). */
  policy: z.string().trim().min(1, "the judge needs the policy's text").max(MAX_POLICY_CHARS, `a policy may be at most ${MAX_POLICY_CHARS} characters`),
  /** The most the run's judgements may cost, in dollars. */
  budget_usd: z.number().positive().max(100_000).optional(),
  /** Reuse answers to identical judgements (default true). */
  cache: z.boolean().default(true),
});
export type HostedJudgeRequest = z.infer<typeof hostedJudgeRequest>;

/** What a run keeps of its judge (runs.plan_json): the policy itself lives in R2 under its hash. */
export const storedJudge = z.strictObject({
  model: z.string(),
  policy_key: z.string(),
  policy_sha256: z.string(),
  policy_chars: z.number().int().nonnegative(),
  budget_usd: z.number().positive().nullable(),
  cache: z.boolean(),
});
export type StoredJudge = z.infer<typeof storedJudge>;
