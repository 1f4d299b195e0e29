// Seeded worlds are usually seeded again with the same seed (passk creates k x n worlds from one compiled seed),
// so the first seeding's result is kept in the isolate: the meta the seeders wrote, the account base it stands
// on and the world's own seeded rows. Replaying them gives byte-identical worlds without normalising the seed
// again. Bounded in entries and size.
import { BoundedLru } from "../../src/core/util/lru";

/**
 * A world's own seeded rows over its account's base (its tickets, its tools block's records): inline as the
 * base's JSON chunks when small, else stored like a base under their content key. Null when there are none.
 */
export type OwnRows = { chunks: string } | { key: string } | null;

export interface SeedSnapshot {
  meta: Array<[string, string]>;
  /** The content key of the account's rows: the base's R2 object is bases/<key>.json. */
  baseKey: string;
  own: OwnRows;
  objects: number;
}

const snapshots = new BoundedLru<string, SeedSnapshot>(512, 64 * 1024 * 1024);

export function cachedSeed(seedHash: string): SeedSnapshot | null {
  return snapshots.get(seedHash) ?? null;
}

export function rememberSeed(seedHash: string, snapshot: SeedSnapshot): void {
  const own = snapshot.own && "chunks" in snapshot.own ? snapshot.own.chunks.length : 0;
  snapshots.set(seedHash, snapshot, snapshot.meta.reduce((a, [k, v]) => a + k.length + v.length, own));
}

/** As a fresh isolate starts: no seed seeded yet (tests of the cold path). */
export function forgetSeeds(): void {
  snapshots.clear();
}
