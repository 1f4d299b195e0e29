// A rule's answer in the wire format of the request it answers, with usage figures.
import type { ScriptRule } from "./script";
import type { RequestFacts } from "./request";

export interface ScriptedResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const json = (status: number, value: unknown, headers: Record<string, string> = {}): ScriptedResponse => ({
  status,
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(value),
});

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

export function errorResponse(wire: RequestFacts["wire"], status: number, message: string, retryAfter?: number): ScriptedResponse {
  const headers: Record<string, string> = retryAfter !== undefined ? { "retry-after": String(retryAfter) } : {};
  const type = status === 429 ? "rate_limit_error" : status >= 500 ? "api_error" : "invalid_request_error";
  return wire === "anthropic"
    ? json(status, { type: "error", error: { type, message } }, headers)
    : json(status, { error: { message, type, code: status === 429 ? "rate_limit_exceeded" : null } }, headers);
}

export function ruleAnswer(rule: ScriptRule, facts: RequestFacts, groups: readonly string[], n: number): ScriptedResponse {
  const r = fill(rule.respond, groups);
  if (r.error) return errorResponse(facts.wire, r.error.status, r.error.message ?? `scripted ${r.error.status} (${rule.name ?? "rule"})`, r.error.retry_after);
  const tokens = (chars: number) => Math.max(1, Math.ceil(chars / 4));
  let text: string | null = null;
  let calls: { name: string; arguments: Record<string, unknown>; arguments_text?: string }[] = [];
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
  const truncated = r.stop === "length";
  const id = String(n).padStart(6, "0");

  if (facts.wire === "anthropic") {
    const content: unknown[] = [];
    if (text !== null) content.push({ type: "text", text });
    if (refusal !== null) content.push({ type: "text", text: refusal });
    calls.forEach((c, i) => content.push({ type: "tool_use", id: `toolu_scripted_${id}_${i + 1}`, name: c.name, input: c.arguments }));
    const stop = refusal !== null ? "refusal" : truncated ? "max_tokens" : calls.length ? "tool_use" : "end_turn";
    return json(200, { id: `msg_scripted_${id}`, type: "message", role: "assistant", model: facts.model, content, stop_reason: stop, stop_sequence: null, usage });
  }
  const message: Record<string, unknown> = { role: "assistant", content: text, refusal };
  if (calls.length) message.tool_calls = calls.map((c, i) => ({ id: `call_scripted_${id}_${i + 1}`, type: "function", function: { name: c.name, arguments: c.arguments_text ?? JSON.stringify(c.arguments) } }));
  const finish = truncated ? "length" : calls.length ? "tool_calls" : "stop";
  return json(200, {
    id: `chatcmpl-scripted-${id}`,
    object: "chat.completion",
    created: 0,
    model: facts.model,
    choices: [{ index: 0, message, finish_reason: finish, logprobs: null }],
    usage: { prompt_tokens: usage.input_tokens, completion_tokens: usage.output_tokens, total_tokens: usage.input_tokens + usage.output_tokens },
  });
}
