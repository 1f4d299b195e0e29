// A hosted evals run's `evals` field (POST /admin/runs) and what the server keeps of it in R2: the portable task
// file as text (the server reads no files), the models that play each task's person and judge its rubric (the
// server's own keys and base URLs), and the person's turn limit. The plan keeps the text itself and is read
// again with the same reader on the way back in, so every episode works from tasks checked like the CLI's.
import { z } from "zod";
import { modelNameString } from "../../../models/names";
import { DEFAULT_PERSON_MODEL } from "../person/setup";
import { DEFAULT_JUDGE_MODEL } from "../../../policy-judge/settings";
import { DEFAULT_PERSON_TURN_LIMIT, MAX_PERSON_TURN_LIMIT } from "../person/schema";

const modelText = modelNameString;

export const DEFAULT_EVALS_FILE = "tasks.jsonl";

export const hostedEvalsRequest = z.strictObject({
  /** The portable task file's text (JSON Lines, a JSON array or YAML; docs/replay.md, "The task file"). */
  file: z.string().min(1, "the task file is empty").max(16 * 1024 * 1024),
  /** The file as the user names it (problems, results, replay lines); default tasks.jsonl. */
  file_name: z.string().min(1).max(500).optional(),
  /** The model that plays each task's person. */
  person: modelText.default(DEFAULT_PERSON_MODEL),
  /** The judge of rubric criteria. */
  judge: modelText.default(DEFAULT_JUDGE_MODEL),
  person_turn_limit: z.number().int().min(1).max(MAX_PERSON_TURN_LIMIT).default(DEFAULT_PERSON_TURN_LIMIT),
});
export type HostedEvalsRequest = z.infer<typeof hostedEvalsRequest>;

export const EVALS_PLAN_VERSION = 1;

export const evalsRunPlan = z.strictObject({
  kind: z.literal("evals"),
  version: z.literal(EVALS_PLAN_VERSION),
  file_name: z.string().min(1),
  text: z.string().min(1),
  person: z.string(),
  judge: z.string(),
  person_turn_limit: z.number().int().min(1).max(MAX_PERSON_TURN_LIMIT),
  /** The tasks the run holds, by slug, in episode order (ticket n = slugs[n-1]). */
  slugs: z.array(z.string().min(1)).min(1),
});
export type EvalsRunPlan = z.infer<typeof evalsRunPlan>;
