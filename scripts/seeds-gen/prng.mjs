// Deterministic randomness for the generator. Every random choice flows from a named stream so that editing
// one part of the library (a ticket, the background cast) does not reshuffle the ids and amounts of another.

/** mulberry32: a tiny 32-bit PRNG with a good enough spread for test data; same seed, same sequence. */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return function next() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a over a string: turns a stream name into a 32-bit seed. */
export function hash32(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The library's one fixed seed; every stream is derived from it and a name. */
export const LIBRARY_SEED = 20260915;

export class Rng {
  constructor(name) {
    this.next = mulberry32(hash32(`${LIBRARY_SEED}:${name}`));
  }
  /** Integer in [lo, hi], both ends included. */
  int(lo, hi) {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick(list) {
    return list[Math.floor(this.next() * list.length)];
  }
  chance(p) {
    return this.next() < p;
  }
  /** Picks by weight: entries are [value, weight]. */
  weighted(entries) {
    const total = entries.reduce((s, [, w]) => s + w, 0);
    let r = this.next() * total;
    for (const [v, w] of entries) {
      r -= w;
      if (r < 0) return v;
    }
    return entries[entries.length - 1][0];
  }
  shuffle(list) {
    const out = [...list];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }
}

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** A billing-style id (prefix_ + 14 base62 characters) that depends only on the prefix and a stable key. */
export function stableId(prefix, key, length = 14) {
  const next = mulberry32(hash32(`${LIBRARY_SEED}:${prefix}:${key}`));
  let out = "";
  for (let i = 0; i < length; i++) out += ALPHABET[Math.floor(next() * ALPHABET.length)];
  return `${prefix}_${out}`;
}
