// The protocol between the Worker's twin entry (auth, size limits) and a world's service handlers.
// Plain data only: it crosses the Durable Object RPC boundary.
import type { Store } from "./store/store";

export type Service = "stripe" | "helpdesk";

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

/** Runs fn as one transaction: everything it wrote is rolled back if it throws. */
export type Transact = <T>(fn: () => T) => T;

export interface ServiceHandler {
  handle(store: Store, req: TwinRequest, transact: Transact): TwinResponse;
}

export interface TraceRecord {
  seq: number;
  request_id: string;
  service: Service;
  method: string;
  path: string;
  query: string;
  request_body: string;
  status: number;
  response_body: string;
  replayed: boolean;
  note: TwinNote;
}
