// Anthropic Messages: a reply as one message, or as the event stream `stream: true` gets (message_start,
// then per content block content_block_start / content_block_delta (text_delta, input_json_delta for tool_use)
// / content_block_stop, message_delta with the stop reason and usage, message_stop).
import { errorResponse, json, pieces, sseEvent, streamResponse, type ScriptedResponse } from "./answer";
import type { Reply } from "./reply";
import type { RequestFacts } from "./request";

type Block = { type: "text"; text: string } | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> };

function blocksOf(r: Reply): Block[] {
  const content: Block[] = [];
  if (r.text !== null) content.push({ type: "text", text: r.text });
  if (r.refusal !== null) content.push({ type: "text", text: r.refusal });
  r.calls.forEach((c, i) => content.push({ type: "tool_use", id: `toolu_scripted_${r.id}_${i + 1}`, name: c.name, input: c.arguments }));
  return content;
}

const stopOf = (r: Reply) => (r.refusal !== null ? "refusal" : r.truncated ? "max_tokens" : r.calls.length ? "tool_use" : "end_turn");

const envelope = (r: Reply, facts: RequestFacts) => ({ id: `msg_scripted_${r.id}`, type: "message", role: "assistant", model: facts.model });

export function messagesAnswer(r: Reply, facts: RequestFacts): ScriptedResponse {
  return json(200, { ...envelope(r, facts), content: blocksOf(r), stop_reason: stopOf(r), stop_sequence: null, usage: r.usage });
}

/** `stream` checked as the API checks it; null when fine. */
export function messagesStreamProblem(body: Record<string, unknown>): ScriptedResponse | null {
  if (body.stream !== undefined && typeof body.stream !== "boolean") return errorResponse("anthropic", 400, "stream: Input should be a valid boolean");
  return null;
}

const start = (r: Reply, facts: RequestFacts, inputTokens: number) =>
  sseEvent({ type: "message_start", message: { ...envelope(r, facts), content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: inputTokens, output_tokens: 1 } } }, "message_start");

/** message_start alone: what a hanging rule sends before it stops. */
export function messagesStreamOpening(facts: RequestFacts, n: number, latencyMs: number): ScriptedResponse {
  const r: Reply = { id: String(n).padStart(6, "0"), text: null, refusal: null, calls: [], truncated: false, usage: { input_tokens: 0, output_tokens: 0 } };
  return streamResponse([start(r, facts, 0), sseEvent({ type: "ping" }, "ping")], latencyMs, true);
}

export function messagesStream(r: Reply, facts: RequestFacts, latencyMs: number): ScriptedResponse {
  const events = [start(r, facts, r.usage.input_tokens), sseEvent({ type: "ping" }, "ping")];
  blocksOf(r).forEach((b, index) => {
    const delta = (d: Record<string, unknown>) => sseEvent({ type: "content_block_delta", index, delta: d }, "content_block_delta");
    if (b.type === "text") {
      events.push(sseEvent({ type: "content_block_start", index, content_block: { type: "text", text: "" } }, "content_block_start"));
      for (const p of pieces(b.text)) events.push(delta({ type: "text_delta", text: p }));
    } else {
      events.push(sseEvent({ type: "content_block_start", index, content_block: { ...b, input: {} } }, "content_block_start"));
      for (const p of pieces(JSON.stringify(b.input), 16)) events.push(delta({ type: "input_json_delta", partial_json: p }));
    }
    events.push(sseEvent({ type: "content_block_stop", index }, "content_block_stop"));
  });
  events.push(sseEvent({ type: "message_delta", delta: { stop_reason: stopOf(r), stop_sequence: null }, usage: { output_tokens: r.usage.output_tokens } }, "message_delta"));
  events.push(sseEvent({ type: "message_stop" }, "message_stop"));
  return streamResponse(events, latencyMs);
}
