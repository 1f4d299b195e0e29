// What a run row keeps beside its columns (runs.plan_json): what the results and the replay lines need.
import { z } from "zod";
import { storedJudge } from "../../core/policy-judge/hosted";

export const runPlanJson = z.strictObject({
  /** What the run's worlds are: account (the default, for runs stored before tools runs existed), tools or evals. */
  kind: z.enum(["account", "tools", "evals"]).default("account"),
  file: z.string(),
  hashes: z.strictObject({ file: z.string(), seed: z.string(), rubric: z.string() }),
  /** The `task` filter the run was posted with (ids or positions); empty = every task. */
  only: z.array(z.string()).default([]),
  scenario: z.union([z.string(), z.record(z.string(), z.unknown()), z.null()]).default(null),
  replay_flags: z.array(z.string()).default([]),
  /** The webhook delivery that started the run, if one did. */
  trigger: z.strictObject({ hook: z.string(), provider: z.string(), event: z.string() }).nullable().default(null),
  /** The run's policy judge; null: none. */
  judge: storedJudge.nullable().optional(),
});
export type RunPlanJson = z.infer<typeof runPlanJson>;
