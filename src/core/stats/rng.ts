// A keyed pseudo-random generator for resampling. Math.random would make the same two results files give a
// different interval on every call; here the key fixes the stream, so the same inputs give the same bytes in Node
// and in the Worker. xoshiro128** (Blackman & Vigna 2018), seeded by SplitMix32 from a hash of the key: fast,
// 32-bit only (no BigInt), and good enough for bootstrap indexes, which is all it is used for.

export interface Rng {
  /** The next 32-bit unsigned integer. */
  nextUint32(): number;
  /** A uniform integer in [0, n), without modulo bias. */
  below(n: number): number;
}

/** The generator with an explicit state (four 32-bit words, not all zero): for known-answer tests. */
export function xoshiro128ss(state: readonly [number, number, number, number]): Rng {
  const s = Uint32Array.from(state);
  if (s[0] === 0 && s[1] === 0 && s[2] === 0 && s[3] === 0) throw new RangeError("xoshiro128**: the state must not be all zero");
  const nextUint32 = (): number => {
    const result = Math.imul(rotl(Math.imul(s[1], 5), 7), 9) >>> 0;
    const t = s[1] << 9;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 11);
    return result;
  };
  const below = (n: number): number => {
    if (!Number.isInteger(n) || n < 1 || n > 2 ** 32) throw new RangeError(`rng.below: n must be an integer in [1, 2^32], got ${n}`);
    // Rejection of the top partial block keeps every value equally likely.
    const limit = 2 ** 32 - (2 ** 32 % n);
    for (;;) {
      const x = nextUint32();
      if (x < limit) return x % n;
    }
  };
  return { nextUint32, below };
}

/** The generator whose stream is fixed by `key`. */
export function keyedRng(key: string): Rng {
  let h = fnv1a(key);
  const next = (): number => {
    // SplitMix32 (the 32-bit finaliser of MurmurHash3 over a Weyl sequence) spreads one hash into four words.
    h = (h + 0x9e3779b9) >>> 0;
    let z = h;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  const state: [number, number, number, number] = [next(), next(), next(), next()];
  if (state.every((w) => w === 0)) state[0] = 1;
  return xoshiro128ss(state);
}

function rotl(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}

/** FNV-1a over the key's UTF-8 bytes. */
function fnv1a(key: string): number {
  let h = 0x811c9dc5;
  for (const b of new TextEncoder().encode(key)) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}
