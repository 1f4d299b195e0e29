// What a world keeps of its person: the spec, the model that plays it, the opening message (the task's prompt,
// which the person sent) and the turn limit. Chosen when the world is created and fixed for its life.
import { z } from "zod";
import { modelNameString } from "../../../models/names";
import { DEFAULT_PERSON_TURN_LIMIT, MAX_PERSON_TURN_LIMIT, MAX_SAID_CHARS, personSpec } from "./schema";

export const DEFAULT_PERSON_MODEL = "openai:gpt-4.1-mini";

/** As POST /admin/worlds and POST /admin/episodes take it. */
export const personRequest = z.strictObject({
  spec: personSpec,
  /** provider:model; default DEFAULT_PERSON_MODEL. The key and base URL are the server's, never the request's. */
  model: modelNameString.default(DEFAULT_PERSON_MODEL),
  /** The person's first message (a task's prompt), or null when the agent speaks first. */
  opening: z.string().trim().min(1).max(MAX_SAID_CHARS).nullable().default(null),
  turn_limit: z.number().int().min(1).max(MAX_PERSON_TURN_LIMIT).default(DEFAULT_PERSON_TURN_LIMIT),
  /** Reuse the answers to identical person requests (default true): a rerun with the same agent costs nothing. */
  cache: z.boolean().default(true),
});
export type PersonSetup = z.infer<typeof personRequest>;
