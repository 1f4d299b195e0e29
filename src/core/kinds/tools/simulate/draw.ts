// Keyed draws: every simulated value comes from a stream seeded by a string key (the file's digest, the seed,
// the tool and the canonical arguments), so the same call always gets the same answer and nothing else varies.
// Synchronous on purpose: a world answers a call inside one transaction, with no await between read and write.
import { cyrb128 } from "../../../util/cyrb128";

export interface Draw {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  /** A child stream for a named part, independent of how much this one was used. */
  child(part: string): Draw;
}

export function keyedDraw(key: string): Draw {
  // sfc32 over the seeded lanes.
  let [a, b, c, d] = cyrb128(key);
  const next = () => {
    a >>>= 0; b >>>= 0; c >>>= 0; d >>>= 0;
    const t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    const r = (t + d) | 0;
    c = (c + r) | 0;
    return (r >>> 0) / 4294967296;
  };
  for (let i = 0; i < 12; i++) next();
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => items[Math.floor(next() * items.length)],
    child: (part) => keyedDraw(`${key}\u0000${part}`),
  };
}
