// Deterministic ids: the same seed and the same sequence of agent actions mint the same ids, byte for byte.
// A small synchronous hash (no Web Crypto, which is async) spreads (seed hash, counter) over base62.
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

function mix(seed: string, n: number): number[] {
  // cyrb128-style: four 32-bit lanes seeded from the string, then stirred with the counter.
  let h1 = 1779033703, h2 = 3144134277, h3 = 1013904242, h4 = 2773480762;
  const s = `${seed}:${n}`;
  for (let i = 0; i < s.length; i++) {
    const k = s.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  return [(h1 ^ h2 ^ h3 ^ h4) >>> 0, (h2 ^ h1) >>> 0, (h3 ^ h1) >>> 0, (h4 ^ h1) >>> 0];
}

/** prefix + "_" + 24 base62 characters, like the real API's ids. */
export function deterministicId(prefix: string, seedHash: string, counter: number): string {
  const lanes = [...mix(seedHash, counter), ...mix(seedHash + "#", counter)];
  let out = "";
  for (let i = 0; i < 24; i++) {
    const lane = i % 8;
    out += ALPHABET[lanes[lane] % 62];
    lanes[lane] = (Math.floor(lanes[lane] / 62) ^ Math.imul(lanes[(i + 3) % 8], 2654435761)) >>> 0;
  }
  return `${prefix}_${out}`;
}
