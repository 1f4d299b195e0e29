// The scripted server's answers as plain values: a JSON body, an error in the provider's own envelope, or a
// stream of server-sent events with its pacing. The transports (node:http in `worlds model serve`, a Response
// in scriptedFetch) play a stream with `streamChunks`.
import { abortableSleep as sleep } from "../../util/sleep";
import type { Wire } from "./request";

export { abortableSleep as sleep } from "../../util/sleep";

export interface ScriptedStream {
  /** Each one a whole SSE event, blank line included. */
  events: string[];
  /** Waited before each event: the rule's latency spread over the stream. */
  gapMs: number;
  /** After the events the stream stays open (a `hang` rule) until the client goes away. */
  hang: boolean;
}

export interface ScriptedResponse {
  status: number;
  headers: Record<string, string>;
  /** The whole body; empty when `stream` is set. */
  body: string;
  stream?: ScriptedStream;
}

export const json = (status: number, value: unknown, headers: Record<string, string> = {}): ScriptedResponse => ({
  status,
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(value),
});

export interface ErrorDetail {
  retryAfter?: number;
  /** OpenAI's `param`: the request field at fault, e.g. stream_options or input[2].type. */
  param?: string;
  /** OpenAI's `code`, e.g. invalid_type. */
  code?: string;
}

export function errorResponse(wire: Wire, status: number, message: string, detail: ErrorDetail = {}): ScriptedResponse {
  const headers: Record<string, string> = detail.retryAfter !== undefined ? { "retry-after": String(detail.retryAfter) } : {};
  const type = status === 429 ? "rate_limit_error" : status >= 500 ? "api_error" : status === 404 ? "not_found_error" : "invalid_request_error";
  if (wire === "anthropic") return json(status, { type: "error", error: { type, message } }, headers);
  const code = detail.code ?? (status === 429 ? "rate_limit_exceeded" : null);
  return json(status, { error: { message, type: type === "not_found_error" ? "invalid_request_error" : type, param: detail.param ?? null, code } }, headers);
}

/** One server-sent event; `name` for the APIs that name their events (Anthropic's, Responses). */
export function sseEvent(data: unknown, name?: string): string {
  return `${name ? `event: ${name}\n` : ""}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
}

export function streamResponse(events: string[], latencyMs: number, hang = false): ScriptedResponse {
  return {
    status: 200,
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" },
    body: "",
    stream: { events, gapMs: events.length ? Math.floor(latencyMs / events.length) : 0, hang },
  };
}

/**
 * Text cut the way a model streams it: pieces of about 20 characters ending after a space where one comes,
 * never inside a character. Deterministic, so the same answer streams in the same chunks every time.
 */
export function pieces(text: string, size = 20): string[] {
  const out: string[] = [];
  let piece = "";
  let n = 0;
  for (const ch of text) {
    piece += ch;
    n++;
    if ((n >= size && /\s/.test(ch)) || n >= size * 2) {
      out.push(piece);
      piece = "";
      n = 0;
    }
  }
  if (piece) out.push(piece);
  return out;
}

/**
 * A stream played with its pacing. Stops early when the signal aborts (the client went away), so a dropped
 * stream costs nothing more; a hanging stream waits for that at most `maxHangMs`.
 */
export async function* streamChunks(stream: ScriptedStream, signal: AbortSignal | undefined, maxHangMs: number): AsyncGenerator<string> {
  for (const event of stream.events) {
    if (stream.gapMs > 0) await sleep(stream.gapMs, signal);
    if (signal?.aborted) return;
    yield event;
  }
  if (stream.hang) await sleep(maxHangMs, signal);
}
