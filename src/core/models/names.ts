// Model names as users write them: `provider:model`. The provider picks the wire format (OpenAI Chat
// Completions or Anthropic Messages); the model is passed through untouched, so any server that speaks the
// format (vLLM, Ollama, LiteLLM, a gateway) works with its own model names.
import { z } from "zod";

export const PROVIDERS = ["openai", "anthropic"] as const;
export type Provider = (typeof PROVIDERS)[number];

export interface ModelName {
  provider: Provider;
  /** The provider's own model id, e.g. gpt-4.1-mini or claude-sonnet-4-5. */
  model: string;
}

/** A model id: no whitespace or control characters, a sane length (it ends up in URLs, logs and cache keys). */
const MODEL_ID = /^[^\s\u0000-\u001f\u007f]{1,200}$/;

export type ModelNameParse = { ok: true; value: ModelName } | { ok: false; message: string };

export function parseModelName(text: string): ModelNameParse {
  const i = text.indexOf(":");
  if (i <= 0) return { ok: false, message: `'${text}' is not provider:model (for example openai:gpt-4.1-mini or anthropic:claude-sonnet-4-5)` };
  const provider = text.slice(0, i);
  const model = text.slice(i + 1);
  if (!(PROVIDERS as readonly string[]).includes(provider)) return { ok: false, message: `unknown model provider '${provider}' in '${text}': use ${PROVIDERS.join(" or ")}` };
  if (!MODEL_ID.test(model)) return { ok: false, message: `'${text}' has no usable model id after '${provider}:'` };
  return { ok: true, value: { provider: provider as Provider, model } };
}

export function modelLabel(m: ModelName): string {
  return `${m.provider}:${m.model}`;
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
