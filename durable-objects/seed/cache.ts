// Seeded worlds are usually seeded again with the same seed (passk creates k x n worlds from one compiled seed),
// so the first seeding's result is kept in the isolate: the rows as inserted and the meta the seeders wrote.
// Replaying them gives byte-identical worlds without normalising the seed again. Bounded in entries and size.
import { BoundedLru } from "../../src/core/util/lru";

export interface SeedSnapshot {
  meta: Array<[string, string]>;
  chunks: string[];
  /** The content key of the chunks: the base's R2 object is bases/<key>.json. */
  baseKey: string;
  objects: number;
}

const snapshots = new BoundedLru<string, SeedSnapshot>(512, 64 * 1024 * 1024);

export function cachedSeed(seedHash: string): SeedSnapshot | null {
  return snapshots.get(seedHash) ?? null;
}

export function rememberSeed(seedHash: string, snapshot: SeedSnapshot): void {
  snapshots.set(seedHash, snapshot, snapshot.chunks.reduce((a, c) => a + c.length, 0));
}
