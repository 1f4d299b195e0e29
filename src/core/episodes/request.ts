// The RL episode API's shapes (docs/replay.md, "The episode API"): what POST /admin/episodes takes and answers,
// and what POST /admin/episodes/:id/grade takes and answers. Shared by the Worker and the runTask client.
import { z } from "zod";
import { parseModelName } from "../models/names";
import { DEFAULT_PERSON_MODEL } from "../person/setup";
import { DEFAULT_JUDGE_MODEL } from "../judge/settings";
import { DEFAULT_PERSON_TURN_LIMIT, MAX_PERSON_TURN_LIMIT } from "../person/schema";

const modelText = z.string().refine((s) => parseModelName(s).ok, { message: "must be provider:model, e.g. openai:gpt-4.1-mini" });

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

export interface EpisodeSurfaces {
  id: string;
  slug: string;
  split: string;
  /** The first message of the conversation (the person's, the task's prompt), as a user message. */
  messages: Array<{ role: "user"; content: string }>;
  world: { id: string; key: string; mcp_url: string; tools_url: string; person_url: string | null };
  warnings: string[];
}

export interface EpisodeGrade {
  id: string;
  slug: string;
  reward: number;
  passed: boolean;
  criteria: Array<{ id: string; claim: string; met: boolean | null; reason: string; by: string }>;
  /** The conversation: the person as user, the policy as assistant. */
  transcript: Array<{ role: "user" | "assistant"; content: string }>;
  tool_calls: Array<{ tool: string; arguments: Record<string, unknown>; result?: unknown }>;
  /** The policy's error (reward 0), or the grader's (reward 0, the grader record says why). */
  error: string | null;
  grader: unknown;
  warnings: string[];
}
