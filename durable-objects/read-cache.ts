// Answers to reads of a world that has not changed since they were computed. A world is deterministic (fixed
// clock, ids from counters, stable ordering), so the same read of the same state is the same bytes; agents
// re-read lists constantly, and a 100-invoice list cost its full parse, presentation and serialisation every
// time (bench/twin-throughput.mjs). Entries belong to one state of the world: the store's generation, which
// every write moves, so nothing is ever served from a state the world has left.
import type { TwinRequest, TwinResponse, TwinWireResponse } from "./protocol";

const MAX_ENTRIES = 64;
/** Characters of response bodies held at once; a few large lists, never the world's memory. */
const MAX_CHARS = 8_000_000;

interface Entry {
  response: TwinResponse;
  wire: TwinWireResponse;
  /** The request that computed the answer: its trace row holds the body, later hits point at it. */
  requestId: string;
}

export interface CachedRead {
  response: TwinResponse;
  wire: TwinWireResponse;
  /** The request whose trace row holds this body. */
  firstRequestId: string;
}

export class ReadCache {
  private entries = new Map<string, Entry>();
  private chars = 0;
  private generation = -1;

  /** Only plain reads are cached: a write, or a request carrying an idempotency key, always runs. */
  static keyOf(req: TwinRequest): string | null {
    if (req.method !== "GET" || req.headers.idempotencyKey !== null) return null;
    return JSON.stringify([req.service, req.path, req.query, req.body, req.contentType, req.headers.stripeVersion, req.origin]);
  }

  get(key: string, generation: number, requestId: string): CachedRead | null {
    this.moveTo(generation);
    const entry = this.entries.get(key);
    if (!entry) return null;
    // Most recently used last, so eviction drops the least recently used.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return { response: entry.response, wire: withRequestId(entry.wire, entry.requestId, requestId), firstRequestId: entry.requestId };
  }

  put(key: string, generation: number, requestId: string, response: TwinResponse, wire: TwinWireResponse): void {
    this.moveTo(generation);
    if (response.body.length > MAX_CHARS / 4) return;
    // An answer naming its own request could not be replayed under another id.
    if (response.body.includes(requestId)) return;
    this.entries.set(key, { response, wire, requestId });
    this.chars += response.body.length;
    for (const [k, e] of this.entries) {
      if (this.entries.size <= MAX_ENTRIES && this.chars <= MAX_CHARS) break;
      this.entries.delete(k);
      this.chars -= e.response.body.length;
    }
  }

  clear(): void {
    this.entries.clear();
    this.chars = 0;
    this.generation = -1;
  }

  private moveTo(generation: number): void {
    if (generation === this.generation) return;
    this.clear();
    this.generation = generation;
  }
}

/** The same answer under this request's id: services echo the request id in a header (request-id, x-request-id). */
function withRequestId(res: TwinWireResponse, from: string, to: string): TwinWireResponse {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) headers[k] = v === from ? to : v;
  return { ...res, headers };
}
