// The built-in model agent's flags, shared by `worlds passk` and `worlds tools run`: `--model provider:model`
// instead of `-- <agent command>`, and the few settings of its loop and its model client.
import { z } from "zod";
import { flag, type FlagDefs } from "../flags";

export const MODEL_AGENT_FLAG_DEFS: FlagDefs = {
  model: { kind: "value", placeholder: "P:M", help: "no agent command: worlds runs a tool-calling loop with this model on the world's tools (docs/agent-contract.md)" },
  "model-base-url": { kind: "value", placeholder: "URL", help: "the agent model's endpoint (default: $OPENAI_BASE_URL / $ANTHROPIC_BASE_URL, else the provider's)" },
  "model-budget": { kind: "value", placeholder: "USD", help: "the most the agent model may spend in this run, in dollars; past it episodes stop with the budget said" },
  "model-timeout": { kind: "value", placeholder: "S", help: "seconds per agent model request before it is retried (default: 60)" },
  "turn-limit": { kind: "value", placeholder: "N", help: "model turns per episode before the agent gives up (default: 16)" },
  "model-system": { kind: "value", placeholder: "F", help: "a file whose text replaces the agent's system prompt" },
};

/** Without `--model-prices` (passk has it among the judge's flags, shared by both models). */
export const MODEL_AGENT_FLAG_SHAPE = {
  model: flag.text().optional(),
  "model-base-url": flag.url().optional(),
  "model-budget": z
    .string()
    .regex(/^\d+(\.\d+)?$/, { message: "must be an amount in dollars, like 0.50" })
    .transform(Number)
    .pipe(z.number().max(100_000, { message: "must be at most 100000 dollars" }))
    .optional(),
  "model-timeout": flag.seconds().optional(),
  "turn-limit": flag.int(1, 200).optional(),
  "model-system": flag.text().optional(),
};

export const MODEL_AGENT_USAGE = "[--model P:M [--model-base-url URL] [--model-budget USD] [--model-timeout S] [--turn-limit N] [--model-system F]]";

export interface ModelAgentFlags {
  model?: string;
  "model-base-url"?: string;
  "model-budget"?: number;
  "model-timeout"?: number;
  "turn-limit"?: number;
  "model-system"?: string;
  "model-prices"?: string;
}

/** The settings that only mean something with --model, named when given without it. */
export function strayModelFlag(f: ModelAgentFlags): string | null {
  if (f.model !== undefined) return null;
  return (["model-base-url", "model-budget", "model-timeout", "turn-limit", "model-system"] as const).find((k) => f[k] !== undefined) ?? null;
}
