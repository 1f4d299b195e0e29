// Seeded worlds are usually seeded again with the same seed (passk creates k x n worlds from one compiled seed),
// so the first seeding's result is kept in the isolate: the rows as inserted and the meta the seeders wrote.
// Replaying them gives byte-identical worlds without normalising the seed again. Bounded in entries and size.
export interface SeedSnapshot {
  meta: Array<[string, string]>;
  chunks: string[];
  /** The content key of the chunks: the base's R2 object is bases/<key>.json. */
  baseKey: string;
  objects: number;
  chars: number;
}

const MAX_ENTRIES = 8;
const MAX_CHARS = 64 * 1024 * 1024;
const snapshots = new Map<string, SeedSnapshot>();

export function cachedSeed(seedHash: string): SeedSnapshot | null {
  const hit = snapshots.get(seedHash);
  if (!hit) return null;
  snapshots.delete(seedHash);
  snapshots.set(seedHash, hit); // most recently used last
  return hit;
}

export function rememberSeed(seedHash: string, snapshot: Omit<SeedSnapshot, "chars">): void {
  const chars = snapshot.chunks.reduce((a, c) => a + c.length, 0);
  if (chars > MAX_CHARS) return;
  snapshots.delete(seedHash);
  snapshots.set(seedHash, { ...snapshot, chars });
  let total = 0;
  for (const s of snapshots.values()) total += s.chars;
  for (const [k, s] of snapshots) {
    if (snapshots.size <= MAX_ENTRIES && total <= MAX_CHARS) break;
    snapshots.delete(k);
    total -= s.chars;
  }
}
