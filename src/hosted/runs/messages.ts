// Queue messages carry ids only (a few dozen bytes): the consumer reads everything else from D1 and R2, so a
// message never goes stale and never nears the 128 KB limit.
import { z } from "zod";
import type { Env } from "../../env";

export const episodeMessage = z.strictObject({
  run: z.string().min(1).max(64),
  episode: z.string().min(1).max(200),
  /** How many times the message was put back because the run had no free slot (does not count as a retry). */
  deferrals: z.number().int().nonnegative().default(0),
});
export type EpisodeMessage = z.infer<typeof episodeMessage>;

/** sendBatch takes at most 100 messages. */
const SEND_BATCH = 100;

export async function sendEpisodes(env: Env, messages: readonly EpisodeMessage[], delaySeconds = 0): Promise<void> {
  for (let i = 0; i < messages.length; i += SEND_BATCH)
    await env.EPISODES.sendBatch(messages.slice(i, i + SEND_BATCH).map((body) => ({ body, contentType: "json" as const, ...(delaySeconds > 0 ? { delaySeconds } : {}) })));
}
