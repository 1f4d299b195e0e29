// The plain data that crosses the Durable Object RPC boundary and reaches the CLI: requests to a world's twins,
// their responses, and the trace a world keeps. No runtime types here, so Node code can import it.
export type Service = "stripe" | "helpdesk";
/**
 * What a trace row names: a REST twin, "tools" for a call through MCP or /tools/v1 (durable-objects/surface), or
 * "person" for a turn of the conversation with the world's person (src/core/kinds/replay/person/trace.ts).
 */
export type TraceService = Service | "tools" | "person";

export interface TwinRequest {
  service: Service;
  method: string;
  /** Path as the client sent it, e.g. /v1/customers/cus_123 or /api/v2/tickets/1.json */
  path: string;
  /** Raw query string without the leading "?" */
  query: string;
  body: string;
  contentType: string | null;
  headers: {
    idempotencyKey: string | null;
    stripeVersion: string | null;
  };
  /** SHA-256 hex of the presented key; the world compares it with its own. */
  keyHash: string;
  requestId: string;
  /** Scheme + host the client used, for URLs in responses (Zendesk's url, next_page links). */
  origin: string;
}

/** Why a response says the agent asked for something the twin does not serve (passk reports it as inconclusive). */
export type TwinNote = "unknown_route" | "unknown_parameter" | null;

export interface TwinResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  note?: TwinNote;
  /** True when the response replays a stored idempotent result. */
  replayed?: boolean;
}

/** A twin's answer as the world hands it to the Worker: the body already UTF-8 (a cached answer is re-sent as is). */
export interface TwinWireResponse {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
}

export interface TraceRecord {
  seq: number;
  request_id: string;
  service: TraceService;
  method: string;
  path: string;
  query: string;
  request_body: string;
  status: number;
  response_body: string;
  replayed: boolean;
  note: TwinNote;
}
