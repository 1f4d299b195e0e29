// A world's seeded objects, read-only and shared by every world of the same seed. Copying the seed into each
// world's storage cost a durable write of the whole seed per world (about half a second for 10,000 objects);
// instead the seeded rows are stored once, in R2 under the SHA-256 of their content, and indexed in memory
// once per isolate. A world's objects table holds only what the agent created, changed or deleted, and wins
// over the base.
import type { ObjectType } from "../../src/core/world/diff/types";
import { BoundedLru } from "../../src/core/util/lru";

export interface BaseRow {
  type: ObjectType;
  id: string;
  seq: number;
  created: number;
  customer: string | null;
  data: string;
}

export class SeedBase {
  private readonly byKey = new Map<string, BaseRow>();
  private readonly byType = new Map<ObjectType, BaseRow[]>();

  /** The rows of a base's chunks; `parsed` is the same rows when the caller has them still (seeding just built them). */
  constructor(chunks: readonly string[], parsed?: readonly BaseRow[]) {
    const rows = parsed ?? chunks.flatMap((chunk) => (JSON.parse(chunk) as Array<[ObjectType, string, number, number, string | null, string]>).map(([type, id, seq, created, customer, data]): BaseRow => ({ type, id, seq, created, customer, data })));
    for (const row of rows) {
      this.byKey.set(key(row.type, row.id), row);
      const list = this.byType.get(row.type);
      if (list) list.push(row);
      else this.byType.set(row.type, [row]);
    }
    // Newest first, as lists are served: created desc, then seeding order desc.
    for (const rows of this.byType.values()) rows.sort((a, b) => b.created - a.created || b.seq - a.seq);
  }

  get(type: ObjectType, id: string): BaseRow | undefined {
    return this.byKey.get(key(type, id));
  }

  rows(type: ObjectType): readonly BaseRow[] {
    return this.byType.get(type) ?? [];
  }

  types(): ObjectType[] {
    return [...this.byType.keys()];
  }
}

const key = (type: string, id: string) => `${type}\u0000${id}`;

export const EMPTY_BASE = new SeedBase([]);
/** Weighed by the characters of the rows' JSON: a base holds its rows' text plus their index. */
const cache = new BoundedLru<string, SeedBase>(512, 64 * 1024 * 1024);

/** A base already built in this isolate, by its content key (sha256 of its chunks). */
export function cachedBase(key: string): SeedBase | undefined {
  return cache.get(key);
}

/**
 * Builds (once per isolate) the base for these chunks; worlds of one seed share it. A world seeded just now
 * passes the rows it wrote the chunks from: parsing them back was a tenth of the server's CPU per world when
 * every world has a seed of its own (isolated tasks, one ticket each; bench/passk-sleep.mjs).
 */
export function baseFromChunks(key: string, chunks: readonly string[], rows?: readonly BaseRow[]): SeedBase {
  const hit = cache.get(key);
  if (hit) return hit;
  const base = new SeedBase(chunks, rows);
  cache.set(key, base, chunks.reduce((a, c) => a + c.length, 0));
  return base;
}

/** Drops every cached base, as a fresh isolate would start (tests of the cold path). */
export function forgetCachedBases(): void {
  cache.clear();
}
