// runTask(task, agent, person, judge, server): one task as one RL episode through the server's episode API
// (docs/replay.md, "The episode API"). Create the episode, hand the agent the conversation and the world's
// toolbox, send each of its messages to the person until the person is done, then grade and answer the reward
// record. Fetch only, so it runs in Node, Deno, Bun, a browser or a Worker. The person and the judge are model
// names the server runs on its own keys; the agent is the caller's code. An agent that throws ends the episode at
// reward 0 with its error recorded; a server that refuses the episode throws EpisodeClientError with its reason.
import { converse } from "../agents/converse";
import { handleTurns } from "../agents/handle-turns";
import { jsonPersonSurface } from "../agents/person-surface";
import { jsonOrUndefined } from "../util/json-or-undefined";
import type { EpisodeAgent, EpisodeFetch, EpisodeGrade, EpisodeSurfaces, RunTaskOptions, RunTaskResult } from "./shapes";
import { EpisodeClientError, openToolbox } from "./toolbox";

export async function runTask(task: Record<string, unknown>, agent: EpisodeAgent, person: string, judge: string, server: RunTaskOptions): Promise<RunTaskResult> {
  const fetcher: EpisodeFetch = server.fetch ?? ((i, n) => fetch(i, n));
  const base = server.url.replace(/\/+$/, "");
  const admin = { authorization: `Bearer ${server.token}`, "content-type": "application/json", accept: "application/json" };
  const post = async <T>(path: string, body: unknown, expect: number): Promise<T> => {
    const res = await fetcher(`${base}${path}`, { method: "POST", headers: admin, body: JSON.stringify(body) });
    const text = await res.text();
    const json = jsonOrUndefined(text) as { error?: { code?: string; message?: string } } | undefined;
    if (res.status !== expect || json === undefined) throw new EpisodeClientError(res.status, json?.error?.code ?? "unexpected_answer", `POST ${path}: HTTP ${res.status}: ${json?.error?.message ?? text.slice(0, 200)}`);
    return json as T;
  };

  const ep = await post<EpisodeSurfaces>("/admin/episodes", { task, person, judge, purpose: server.purpose ?? "train", ...(server.person_turn_limit ? { person_turn_limit: server.person_turn_limit } : {}) }, 201);
  const grade = (body: { output: string | null } | { error: string }) => post<EpisodeGrade>(`/admin/episodes/${ep.id}/grade`, body, 200);
  let talk;
  try {
    const toolbox = await openToolbox(ep.world.tools_url, ep.world.key, fetcher);
    talk = await converse({
      person: ep.world.person_url ? jsonPersonSurface(ep.world.person_url, ep.world.key, fetcher) : null,
      next: handleTurns(agent, ep.messages, toolbox),
    });
  } catch (e) {
    // The world's own surfaces failed: end the episode (so no world is left open), then say so.
    await grade({ error: `the episode could not run: ${(e as Error).message}` }).catch(() => undefined);
    throw e;
  }
  // A last message the person heard is already in the transcript; one it did not is the output beside it.
  return grade(talk.error ? { error: talk.error } : { output: talk.delivered || !talk.output ? null : talk.output });
}
