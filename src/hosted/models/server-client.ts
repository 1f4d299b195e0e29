// A model client on the server's own keys and base URLs (its secrets and vars), for the person and the rubric's
// judge: neither a key nor a base URL ever comes in a request, so the admin token cannot point the server's key
// at a host of someone's choosing. Answers are cached in R2 when asked, so a rerun costs nothing.
import type { Env } from "../../env";
import { ModelClient, parseModelName, pickModelEnv, resolveEndpoint } from "../../core/models/index";
import type { HostModel } from "../../core/pipeline/work";
import { R2ModelCache } from "./r2-cache";

/** A model on the server's keys, or why the server cannot run it (the pipeline's HostModel). */
export type ServerModel = HostModel;

export function serverModel(env: Env, modelText: string, opts: { cache: boolean; fetcher?: typeof fetch }): ServerModel {
  const parsed = parseModelName(modelText);
  if (!parsed.ok) return { ok: false, message: parsed.message };
  const endpoint = resolveEndpoint(parsed.value.provider, pickModelEnv(env as unknown as Record<string, string | undefined>));
  if (!endpoint.ok)
    return { ok: false, message: `the server cannot run ${modelText}: ${endpoint.message} (set it as a secret: wrangler secret put ${parsed.value.provider === "openai" ? "OPENAI_API_KEY" : "ANTHROPIC_API_KEY"})` };
  const client = new ModelClient({ endpoints: { [parsed.value.provider]: endpoint.endpoint }, ...(opts.fetcher ? { fetch: opts.fetcher } : {}), cache: opts.cache ? new R2ModelCache(env.ARTIFACTS) : null });
  return { ok: true, client, model: parsed.value };
}
