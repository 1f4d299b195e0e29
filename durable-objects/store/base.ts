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

/** The rows of a base's JSON chunks (store.ts seedChunks writes them). */
export function rowsOfChunks(chunks: readonly string[]): BaseRow[] {
  return chunks.flatMap((chunk) => (JSON.parse(chunk) as Array<[ObjectType, string, number, number, string | null, string]>).map(([type, id, seq, created, customer, data]): BaseRow => ({ type, id, seq, created, customer, data })));
}

/** What the store reads of the seeded objects: one base, or a world's own rows over its account's. */
export interface BaseLayer {
  get(type: ObjectType, id: string): BaseRow | undefined;
  /** Newest first: created desc, then seeding order desc. */
  rows(type: ObjectType): readonly BaseRow[];
  types(): ObjectType[];
}

/** Newest first, as lists are served: created desc, then seeding order desc. */
const newestFirst = (a: BaseRow, b: BaseRow) => b.created - a.created || b.seq - a.seq;

export class SeedBase implements BaseLayer {
  private readonly byKey = new Map<string, BaseRow>();
  private readonly byType = new Map<ObjectType, BaseRow[]>();

  /** The rows of a base's chunks; `parsed` is the same rows when the caller has them still (seeding just built them). */
  constructor(chunks: readonly string[], parsed?: readonly BaseRow[]) {
    const rows = parsed ?? rowsOfChunks(chunks);
    for (const row of rows) {
      this.byKey.set(key(row.type, row.id), row);
      const list = this.byType.get(row.type);
      if (list) list.push(row);
      else this.byType.set(row.type, [row]);
    }
    for (const rows of this.byType.values()) rows.sort(newestFirst);
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

/**
 * A world's own seeded rows over the account base it shares: reads see both, as one base of all the rows would
 * show them. The own rows were seeded after the account's (higher sequence numbers), so an id in both is the
 * own row's, as the later row won in one base's index; a collection in both is merged once per world, on first read.
 */
export class LayeredBase implements BaseLayer {
  private readonly merged = new Map<ObjectType, readonly BaseRow[]>();

  constructor(
    private readonly account: BaseLayer,
    private readonly own: BaseLayer,
  ) {}

  get(type: ObjectType, id: string): BaseRow | undefined {
    return this.own.get(type, id) ?? this.account.get(type, id);
  }

  rows(type: ObjectType): readonly BaseRow[] {
    const own = this.own.rows(type);
    if (!own.length) return this.account.rows(type);
    const account = this.account.rows(type);
    if (!account.length) return own;
    let rows = this.merged.get(type);
    if (!rows) {
      rows = mergeNewestFirst(account, own);
      this.merged.set(type, rows);
    }
    return rows;
  }

  types(): ObjectType[] {
    return [...new Set([...this.account.types(), ...this.own.types()])];
  }
}

function mergeNewestFirst(a: readonly BaseRow[], b: readonly BaseRow[]): BaseRow[] {
  const out: BaseRow[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) out.push(newestFirst(a[i], b[j]) <= 0 ? a[i++] : b[j++]);
  while (i < a.length) out.push(a[i++]);
  while (j < b.length) out.push(b[j++]);
  return out;
}

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
