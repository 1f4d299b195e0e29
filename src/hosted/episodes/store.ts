// An RL episode's own record, one R2 object beside its world: the task it runs, the judge that grades it, and once
// graded its result, so a repeated grade request answers the same result rather than a second grading.
import type { Env } from "../../env";
import type { EpisodeGrade } from "../../core/episode-api/request";

export interface StoredEpisode {
  id: string;
  world_id: string;
  /** The task as it was sent (read again with the task reader when grading). */
  task: Record<string, unknown>;
  judge: string;
  purpose: "train" | "eval";
  warnings: string[];
  result: EpisodeGrade | null;
}

const keyOf = (id: string) => `episodes/${id}.json`;

export async function putEpisode(env: Env, e: StoredEpisode): Promise<void> {
  await env.ARTIFACTS.put(keyOf(e.id), JSON.stringify(e), { httpMetadata: { contentType: "application/json" } });
}

export async function getEpisode(env: Env, id: string): Promise<StoredEpisode | null> {
  const obj = await env.ARTIFACTS.get(keyOf(id));
  return obj ? (JSON.parse(await obj.text()) as StoredEpisode) : null;
}
