// Model names as users write them: `provider:model`, optionally `@effort`. The provider picks the wire format
// (OpenAI Chat Completions, OpenAI Responses with `openai-responses`, or Anthropic Messages); the model is
// passed through untouched, so any server that speaks the format (vLLM, Ollama, LiteLLM, a gateway) works with
// its own model names. The effort is a request setting, never part of the id sent.
import { z } from "zod";

export const PROVIDERS = ["openai", "anthropic"] as const;
export type Provider = (typeof PROVIDERS)[number];

/** What a name may start with: a provider, or `openai-responses` for OpenAI's Responses API. */
export const NAME_PREFIXES = ["openai", "openai-responses", "anthropic"] as const;

/** Reasoning effort, OpenAI's scale; Anthropic's extended-thinking budget is derived from it (wire/anthropic.ts). */
export const EFFORTS = ["none", "minimal", "low", "medium", "high", "xhigh"] as const;
export type Effort = (typeof EFFORTS)[number];

/** The API a name's requests go to. */
export type ModelWireApi = "chat" | "responses" | "messages";

export interface ModelName {
  provider: Provider;
  /** The provider's own model id, e.g. gpt-4.1-mini or claude-sonnet-4-5. */
  model: string;
  /** OpenAI only: send Responses requests (POST /responses) instead of Chat Completions. */
  api?: "responses";
  effort?: Effort;
}

/** A model id: no whitespace or control characters, a sane length (it ends up in URLs, logs and cache keys). */
const MODEL_ID = /^[^\s\u0000-\u001f\u007f]{1,200}$/;

export type ModelNameParse = { ok: true; value: ModelName } | { ok: false; message: string };

export function parseModelName(text: string): ModelNameParse {
  const i = text.indexOf(":");
  if (i <= 0) return { ok: false, message: `'${text}' is not provider:model (for example openai:gpt-4.1-mini, openai-responses:o4-mini@high or anthropic:claude-sonnet-4-5)` };
  const prefix = text.slice(0, i);
  let model = text.slice(i + 1);
  if (!(NAME_PREFIXES as readonly string[]).includes(prefix)) return { ok: false, message: `unknown model provider '${prefix}' in '${text}': use ${NAME_PREFIXES.join(", ")}` };
  let effort: Effort | undefined;
  // `@word` at the end is an effort. Ids that hold an @ of their own (Vertex's claude-...@20250514) keep it:
  // only a suffix of letters is read as an effort, and one that is not an effort is a mistake, not an id.
  const at = /@([a-z]+)$/.exec(model);
  if (at) {
    if (!(EFFORTS as readonly string[]).includes(at[1])) return { ok: false, message: `unknown reasoning effort '${at[1]}' in '${text}': use one of ${EFFORTS.join(", ")}` };
    effort = at[1] as Effort;
    model = model.slice(0, at.index);
  }
  if (!MODEL_ID.test(model)) return { ok: false, message: `'${text}' has no usable model id after '${prefix}:'` };
  const provider: Provider = prefix === "anthropic" ? "anthropic" : "openai";
  return { ok: true, value: { provider, model, ...(prefix === "openai-responses" ? { api: "responses" as const } : {}), ...(effort ? { effort } : {}) } };
}

/** The name as a user writes it (round-trips through parseModelName). */
export function modelLabel(m: ModelName): string {
  return `${m.provider}${m.api === "responses" ? "-responses" : ""}:${m.model}${m.effort ? `@${m.effort}` : ""}`;
}

/** The price table's key: the provider and the model id, whichever API or effort asks it. */
export function priceName(m: ModelName): string {
  return `${m.provider}:${m.model}`;
}

export function wireApi(m: ModelName): ModelWireApi {
  return m.provider === "anthropic" ? "messages" : m.api === "responses" ? "responses" : "chat";
}

/** zod at the boundaries that take a model name (flags, run requests, scripts). */
export const modelNameText = z.string().transform((s, ctx) => {
  const p = parseModelName(s);
  if (!p.ok) {
    ctx.addIssue({ code: "custom", message: p.message });
    return z.NEVER;
  }
  return p.value;
});

/** A model name kept as the text given (for requests that store it), refused with the parse's own message. */
export const modelNameString = z.string().superRefine((s, ctx) => {
  const p = parseModelName(s);
  if (!p.ok) ctx.addIssue({ code: "custom", message: p.message });
});
