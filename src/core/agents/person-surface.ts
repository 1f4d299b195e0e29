// The person as an agent reaches it: POST <person_url>/respond {said} -> {reply, done}, the world key as Bearer,
// exactly what a process agent gets at WORLDS_PERSON_URL. Fetch only, so the built-in model agent and the runTask
// client share it in Node, a browser or a Worker. Answers are read through zod: a proxy's page is not a reply.
import { z } from "zod";
import { jsonOrUndefined } from "../util/json-or-undefined";
import type { EpisodeFetch } from "../episode-api/shapes";

const replyAnswer = z.object({ reply: z.string(), done: z.boolean() });
const errorAnswer = z.object({ error: z.object({ code: z.string().min(1), message: z.string() }) });

export type PersonAnswer = { ok: true; reply: string; done: boolean } | { ok: false; status: number | null; code: string; message: string };

export interface PersonSurface {
  respond(said: string, signal?: AbortSignal): Promise<PersonAnswer>;
}

export function jsonPersonSurface(personUrl: string, key: string, fetcher: EpisodeFetch = (i, n) => fetch(i, n)): PersonSurface {
  const url = `${personUrl.replace(/\/+$/, "")}/respond`;
  return {
    async respond(said, signal) {
      let res: Response;
      try {
        res = await fetcher(url, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "application/json" }, body: JSON.stringify({ said }), ...(signal ? { signal } : {}) });
      } catch (e) {
        return { ok: false, status: null, code: "unavailable", message: `could not reach the person at ${url}: ${(e as Error).message}` };
      }
      const json = jsonOrUndefined(await res.text().catch(() => ""));
      const ok = replyAnswer.safeParse(json);
      if (res.ok && ok.success) return { ok: true, reply: ok.data.reply, done: ok.data.done };
      const err = errorAnswer.safeParse(json);
      if (err.success) return { ok: false, status: res.status, code: err.data.error.code, message: err.data.error.message };
      return { ok: false, status: res.status, code: "unavailable", message: `the person answered HTTP ${res.status} with no reply` };
    },
  };
}
