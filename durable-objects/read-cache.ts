// Answers to reads of a world that has not changed since they were computed. A world is deterministic (fixed
// clock, ids from counters, stable ordering), so the same read of the same state is the same bytes; agents
// re-read lists constantly, and a 100-invoice list cost its full parse, presentation and serialisation every
// time (bench/twin-throughput.mjs). An answer belongs to one state of one world instance: the key holds the
// instance's random id and the store's generation, which every write moves, so nothing is ever served from a
// state the world has left (nor to a later instance of the same world).
//
// One cache per isolate, shared by every world in it: many worlds live in one isolate (a crash test runs
// twice its concurrency at once, a hosted run more), and its memory is bounded as a whole.
import { BoundedLru } from "../src/core/util/lru";
import { StateCache } from "./state-cache";
import type { TwinNote, TwinRequest, TwinResponse, TwinWireResponse } from "./protocol";

/** Entries and bytes of answers across every world of the isolate. */
const shared = new BoundedLru<string, Entry>(256, 24_000_000);
/** A larger answer is not cached: it would push out many others. */
const MAX_ANSWER_CHARS = 2_000_000;

interface Entry {
  wire: TwinWireResponse;
  note: TwinNote;
  /** The request that computed the answer: its trace row holds the body, later hits point at it. */
  requestId: string;
}

export interface CachedRead {
  wire: TwinWireResponse;
  /** The answer's note, for its trace row. */
  note: TwinNote;
  /** The request whose trace row holds this body. */
  firstRequestId: string;
}

export class ReadCache {
  private readonly entries = new StateCache(shared);

  /** Only plain reads are cached: a write, or a request carrying an idempotency key, always runs. */
  static keyOf(req: TwinRequest): string | null {
    if (req.method !== "GET" || req.headers.idempotencyKey !== null) return null;
    return JSON.stringify([req.service, req.path, req.query, req.body, req.contentType, req.headers.stripeVersion, req.origin]);
  }

  get(key: string, generation: number, requestId: string): CachedRead | null {
    const entry = this.entries.get(key, generation);
    if (!entry) return null;
    return { wire: withRequestId(entry.wire, entry.requestId, requestId), note: entry.note, firstRequestId: entry.requestId };
  }

  put(key: string, generation: number, requestId: string, response: TwinResponse, wire: TwinWireResponse): void {
    if (response.body.length > MAX_ANSWER_CHARS) return;
    // An answer naming its own request could not be replayed under another id.
    if (response.body.includes(requestId)) return;
    this.entries.set(key, generation, { wire, note: response.note ?? null, requestId }, wire.body.byteLength);
  }
}

/** The same answer under this request's id: services echo the request id in a header (request-id, x-request-id). */
function withRequestId(res: TwinWireResponse, from: string, to: string): TwinWireResponse {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) headers[k] = v === from ? to : v;
  return { ...res, headers };
}
