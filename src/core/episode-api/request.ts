// The RL episode API's shapes (docs/replay.md, "The episode API"): what POST /admin/episodes takes and answers,
// and what POST /admin/episodes/:id/grade takes and answers. The answers' shapes are plain types in ./shapes, so
// the runTask client (and the package's declarations) need no zod.
import { z } from "zod";
import { modelNameString } from "../models/names";
import { DEFAULT_PERSON_MODEL } from "../kinds/replay/person/setup";
import { DEFAULT_JUDGE_MODEL } from "../policy-judge/settings";
import { DEFAULT_PERSON_TURN_LIMIT, MAX_PERSON_TURN_LIMIT } from "../kinds/replay/person/schema";

const modelText = modelNameString;

export const episodeRequest = z.strictObject({
  /** One task of the portable format (docs/replay.md, "The task file"). */
  task: z.record(z.string(), z.unknown()),
  /** The model that plays the task's person; the server's keys. */
  person: modelText.default(DEFAULT_PERSON_MODEL),
  /** The judge of a rubric grader; the server's keys. */
  judge: modelText.default(DEFAULT_JUDGE_MODEL),
  /** What the episode is for: training warns on a held-out task. */
  purpose: z.enum(["train", "eval"]).default("train"),
  person_turn_limit: z.number().int().min(1).max(MAX_PERSON_TURN_LIMIT).default(DEFAULT_PERSON_TURN_LIMIT),
});
export type EpisodeRequest = z.infer<typeof episodeRequest>;

export const gradeRequest = z.strictObject({
  /** The policy's final text to the person, when it has one beside the conversation. */
  output: z.string().max(256 * 1024).nullable().optional(),
  /** The policy failed: the episode ends with reward 0 and this recorded. */
  error: z.string().min(1).max(8_000).nullable().optional(),
});
export type GradeRequest = z.infer<typeof gradeRequest>;

/** Episode ids name their world: ep_ + the world id's 16 characters. */
export const EPISODE_ID = /^ep_[A-Za-z0-9]{16}$/;
export const episodeIdOf = (worldId: string) => `ep_${worldId.slice(2)}`;
export const worldIdOf = (episodeId: string) => `w_${episodeId.slice(3)}`;

export const HELD_OUT_WARNING = "This task is held out (split held_out): train only on the train split; once held-out tasks shape a policy their scores stop meaning anything.";

export type { EpisodeSurfaces, EpisodeGrade } from "./shapes";
