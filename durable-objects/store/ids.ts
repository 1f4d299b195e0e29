// Deterministic ids: the same seed and the same sequence of agent actions mint the same ids, byte for byte.
// A small synchronous hash (no Web Crypto, which is async) spreads (seed hash, counter) over base62.
import { cyrb128 } from "../../src/core/util/cyrb128";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

function mix(seed: string, n: number): number[] {
  return cyrb128(`${seed}:${n}`);
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
