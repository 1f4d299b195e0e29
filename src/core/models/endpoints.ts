// Where a provider's requests go and with which key. Keys come only from the environment the caller hands in
// (process.env in the CLI, the Worker's secrets when hosted): never from a flag, a file or a request body, so a
// key cannot end up in shell history, a tasks file or a run request. Base URLs may come from a flag.
import type { Provider } from "./names";

export const DEFAULT_BASE_URLS: Record<Provider, string> = {
  openai: "https://api.openai.com/v1",
  anthropic: "https://api.anthropic.com",
};

export const KEY_VARIABLES = { openai: "OPENAI_API_KEY", anthropic: "ANTHROPIC_API_KEY" } as const satisfies Record<Provider, string>;
export const BASE_URL_VARIABLES = { openai: "OPENAI_BASE_URL", anthropic: "ANTHROPIC_BASE_URL" } as const satisfies Record<Provider, string>;

export interface Endpoint {
  provider: Provider;
  /** No trailing slash. */
  baseUrl: string;
  /** Null: send no credentials (a local server such as `worlds model serve` or Ollama needs none). */
  key: string | null;
}

export type EndpointChoice = { ok: true; endpoint: Endpoint } | { ok: false; message: string; nextAction: string };

/** Only these names are read: the environment may hold other secrets, and the client never looks at them. */
export type ModelEnv = Partial<Record<"OPENAI_API_KEY" | "ANTHROPIC_API_KEY" | "OPENAI_BASE_URL" | "ANTHROPIC_BASE_URL", string>>;

export function pickModelEnv(env: Record<string, string | undefined>): ModelEnv {
  const out: ModelEnv = {};
  for (const k of ["OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_BASE_URL"] as const) {
    const v = env[k];
    if (typeof v === "string" && v.trim() !== "") out[k] = v.trim();
  }
  return out;
}

export function resolveEndpoint(provider: Provider, env: ModelEnv, baseUrlFlag?: string): EndpointChoice {
  const raw = baseUrlFlag ?? env[BASE_URL_VARIABLES[provider]] ?? DEFAULT_BASE_URLS[provider];
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, message: `the ${provider} base URL '${raw}' is not a URL`, nextAction: `set ${BASE_URL_VARIABLES[provider]} to an http(s) URL, e.g. http://127.0.0.1:8787${provider === "openai" ? "/v1" : ""}` };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return { ok: false, message: `the ${provider} base URL '${raw}' is not http(s)`, nextAction: `set ${BASE_URL_VARIABLES[provider]} to an http(s) URL` };
  if (url.username || url.password || url.search || url.hash)
    return { ok: false, message: `the ${provider} base URL must be a plain http(s) URL with no credentials, query or fragment`, nextAction: `put the key in ${KEY_VARIABLES[provider]}, not in the URL` };
  const baseUrl = url.href.replace(/\/+$/, "");
  const key = env[KEY_VARIABLES[provider]] ?? null;
  const isDefault = baseUrl === DEFAULT_BASE_URLS[provider];
  if (!key && isDefault)
    return {
      ok: false,
      message: `no ${KEY_VARIABLES[provider]} in the environment for ${provider}`,
      nextAction: `set ${KEY_VARIABLES[provider]}, or dry-run without a key: worlds model serve --script FILE, then ${BASE_URL_VARIABLES[provider]}=<the URL it prints> (docs/models.md)`,
    };
  return { ok: true, endpoint: { provider, baseUrl, key } };
}
