// The family generators' randomness, in the style of the library generator (scripts/seeds-gen/prng.mjs): every
// choice flows from a named stream of one fixed seed, so adding a stream never reshuffles another's values.

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a over a string: a stream's name to its 32-bit seed. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export class Stream {
  private readonly next: () => number;
  constructor(seed: number, name: string) {
    this.next = mulberry32(hash32(`${seed}:${name}`));
  }
  /** An integer in [lo, hi], both ends included. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)];
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** A billing-style id (prefix_ + 14 base62 characters) that depends only on the seed, the prefix and a key. */
export function stableId(seed: number, prefix: string, key: string): string {
  const next = mulberry32(hash32(`${seed}:${prefix}:${key}`));
  let out = "";
  for (let i = 0; i < 14; i++) out += ALPHABET[Math.floor(next() * ALPHABET.length)];
  return `${prefix}_${out}`;
}
