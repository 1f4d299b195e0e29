// OpenAI Chat Completions: a reply as one chat.completion, or as the chat.completion.chunk stream the API sends
// for `stream: true` (a role chunk, content or tool-call deltas with their index, id and name first and the
// arguments in pieces, a finish chunk, the usage chunk when stream_options.include_usage, then [DONE]).
import { isRecord } from "../wire/common";
import { errorResponse, json, pieces, sseEvent, streamResponse, type ScriptedResponse } from "./answer";
import { argumentsText, type Reply } from "./reply";
import type { RequestFacts } from "./request";

const finishOf = (r: Reply) => (r.truncated ? "length" : r.calls.length ? "tool_calls" : "stop");
const callId = (r: Reply, i: number) => `call_scripted_${r.id}_${i + 1}`;
const usageOf = (r: Reply) => ({ prompt_tokens: r.usage.input_tokens, completion_tokens: r.usage.output_tokens, total_tokens: r.usage.input_tokens + r.usage.output_tokens });

export function chatCompletion(r: Reply, facts: RequestFacts): ScriptedResponse {
  const message: Record<string, unknown> = { role: "assistant", content: r.text, refusal: r.refusal };
  if (r.calls.length) message.tool_calls = r.calls.map((c, i) => ({ id: callId(r, i), type: "function", function: { name: c.name, arguments: argumentsText(c) } }));
  return json(200, {
    id: `chatcmpl-scripted-${r.id}`,
    object: "chat.completion",
    created: 0,
    model: facts.model,
    choices: [{ index: 0, message, finish_reason: finishOf(r), logprobs: null }],
    usage: usageOf(r),
  });
}

export interface ChatStreamOptions {
  includeUsage: boolean;
}

/** stream / stream_options checked as the API checks them, with its messages; null when they are fine. */
export function chatStreamProblem(body: Record<string, unknown>): ScriptedResponse | null {
  const bad = (message: string, param: string, code: string | undefined) => errorResponse("openai", 400, message, { param, code });
  if (body.stream !== undefined && body.stream !== null && typeof body.stream !== "boolean") return bad(`Invalid type for 'stream': expected a boolean, but got ${typeName(body.stream)} instead.`, "stream", "invalid_type");
  const so = body.stream_options;
  if (so === undefined || so === null) return null;
  if (!isRecord(so)) return bad(`Invalid type for 'stream_options': expected an object, but got ${typeName(so)} instead.`, "stream_options", "invalid_type");
  if (body.stream !== true) return bad("The 'stream_options' parameter is only allowed when 'stream' is enabled.", "stream_options", undefined);
  if (so.include_usage !== undefined && typeof so.include_usage !== "boolean")
    return bad(`Invalid type for 'stream_options.include_usage': expected a boolean, but got ${typeName(so.include_usage)} instead.`, "stream_options.include_usage", "invalid_type");
  return null;
}

export function typeName(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "object") return "an object";
  if (typeof v === "number") return Number.isInteger(v) ? "an integer" : "a decimal";
  return `a ${typeof v}`;
}

function chunkFrame(r: Reply, facts: RequestFacts, o: ChatStreamOptions) {
  return (choices: unknown[], usage?: unknown) => ({
    id: `chatcmpl-scripted-${r.id}`,
    object: "chat.completion.chunk",
    created: 0,
    model: facts.model,
    choices,
    ...(o.includeUsage ? { usage: usage ?? null } : {}),
  });
}

/** The first chunk alone: what a hanging rule sends before it stops. */
export function chatStreamOpening(facts: RequestFacts, n: number, o: ChatStreamOptions, latencyMs: number): ScriptedResponse {
  const r: Reply = { id: String(n).padStart(6, "0"), text: null, refusal: null, calls: [], truncated: false, usage: { input_tokens: 0, output_tokens: 0 } };
  const frame = chunkFrame(r, facts, o);
  return streamResponse([sseEvent(frame([{ index: 0, delta: { role: "assistant", content: "", refusal: null }, logprobs: null, finish_reason: null }]))], latencyMs, true);
}

export function chatStream(r: Reply, facts: RequestFacts, o: ChatStreamOptions, latencyMs: number): ScriptedResponse {
  const frame = chunkFrame(r, facts, o);
  const choice = (delta: Record<string, unknown>, finish: string | null = null) => ({ index: 0, delta, logprobs: null, finish_reason: finish });
  const events: string[] = [sseEvent(frame([choice({ role: "assistant", content: r.text === null ? null : "", refusal: null })]))];
  for (const p of pieces(r.text ?? "")) events.push(sseEvent(frame([choice({ content: p })])));
  for (const p of pieces(r.refusal ?? "")) events.push(sseEvent(frame([choice({ refusal: p })])));
  r.calls.forEach((c, i) => {
    events.push(sseEvent(frame([choice({ tool_calls: [{ index: i, id: callId(r, i), type: "function", function: { name: c.name, arguments: "" } }] })])));
    for (const p of pieces(argumentsText(c), 16)) events.push(sseEvent(frame([choice({ tool_calls: [{ index: i, function: { arguments: p } }] })])));
  });
  events.push(sseEvent(frame([choice({}, finishOf(r))])));
  if (o.includeUsage) events.push(sseEvent(frame([], usageOf(r))));
  events.push(sseEvent("[DONE]"));
  return streamResponse(events, latencyMs);
}
