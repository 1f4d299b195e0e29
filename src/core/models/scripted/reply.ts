// What a rule answers, before it is put in any API's shape: text, tool calls or a refusal, whether it was cut
// off, and its usage. Each API's module (chat, messages, responses) renders it whole or as its stream, so a
// rule answers the same in every API and streamed or not.
import type { RequestFacts } from "./request";
import type { ScriptRule } from "./script";

export interface ReplyCall {
  name: string;
  arguments: Record<string, unknown>;
  /** The arguments text as the script gave it (OpenAI APIs only; Anthropic sends the object). */
  arguments_text?: string;
}

export interface Reply {
  /** Six digits, the request's number: ids of messages, calls and responses are made from it. */
  id: string;
  text: string | null;
  refusal: string | null;
  calls: ReplyCall[];
  /** `stop: length`: the answer was cut off at the token limit. */
  truncated: boolean;
  usage: { input_tokens: number; output_tokens: number };
}

export type RuleOutcome = { kind: "reply"; reply: Reply } | { kind: "error"; status: number; message: string; retryAfter?: number } | { kind: "hang" };

/** $0..$9 from the last_message match; $$ is a dollar sign. Applied to every string of the answer. */
export function fill<T>(value: T, groups: readonly string[], depth = 0): T {
  if (depth > 64) return value;
  if (typeof value === "string") return value.replace(/\$(\$|\d)/g, (_, g: string) => (g === "$" ? "$" : (groups[Number(g)] ?? ""))) as T;
  if (Array.isArray(value)) return value.map((v) => fill(v, groups, depth + 1)) as T;
  if (value && typeof value === "object") {
    const out = Object.create(null) as Record<string, unknown>;
    for (const [k, v] of Object.entries(value)) out[k] = fill(v, groups, depth + 1);
    return out as T;
  }
  return value;
}

export function ruleOutcome(rule: ScriptRule, facts: RequestFacts, groups: readonly string[], n: number): RuleOutcome {
  if (rule.respond.hang) return { kind: "hang" };
  const r = fill(rule.respond, groups);
  if (r.error) return { kind: "error", status: r.error.status, message: r.error.message ?? `scripted ${r.error.status} (${rule.name ?? "rule"})`, retryAfter: r.error.retry_after };
  const tokens = (chars: number) => Math.max(1, Math.ceil(chars / 4));
  let text: string | null = null;
  let calls: ReplyCall[] = [];
  let refusal: string | null = null;
  if (r.text !== undefined) text = r.text;
  else if (r.raw !== undefined) text = r.raw;
  else if (r.refuse !== undefined) refusal = r.refuse;
  else if (r.tool_calls) calls = r.tool_calls;
  else if (r.json !== undefined) {
    // The structured answer goes where the request asked for it: a forced tool's input, or the content.
    if (facts.schema?.via === "tool" && r.json && typeof r.json === "object" && !Array.isArray(r.json)) calls = [{ name: facts.schema.name, arguments: r.json as Record<string, unknown> }];
    else text = JSON.stringify(r.json);
  }
  const outChars = (text ?? refusal ?? "").length + JSON.stringify(calls).length;
  const usage = r.usage ?? { input_tokens: tokens(facts.inputChars), output_tokens: tokens(outChars) };
  return { kind: "reply", reply: { id: String(n).padStart(6, "0"), text, refusal, calls, truncated: r.stop === "length", usage } };
}

/** A call's arguments as the OpenAI APIs send them: a JSON string. */
export const argumentsText = (c: ReplyCall): string => c.arguments_text ?? JSON.stringify(c.arguments);
