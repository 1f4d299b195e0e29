// Wilson score interval for a binomial proportion. Chosen over the normal (Wald) interval because it stays
// inside [0, 1] and behaves at 0 of n and n of n, which is where a crash test's tasks usually sit.

/** The 95% two-sided normal quantile, rounded as tables print it. */
export const Z_95 = 1.96;

export interface Interval {
  low: number;
  high: number;
}

/**
 * Interval for `successes` of `n` at z (default 95%). `successes` may be fractional (a mean of per-task
 * estimates over n tasks); n = 0 carries no information, so the interval is the whole of [0, 1].
 */
export function wilson(successes: number, n: number, z: number = Z_95): Interval {
  if (!Number.isFinite(successes) || !Number.isFinite(n) || n < 0 || successes < 0 || successes > n) {
    throw new RangeError(`wilson: need 0 <= successes <= n, got ${successes} of ${n}`);
  }
  if (n === 0) return { low: 0, high: 1 };
  const p = successes / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z / denom) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // Clamp float noise at the ends (p = 0 gives low = -1e-17 otherwise).
  return { low: clamp01(centre - half), high: clamp01(centre + half) };
}

function clamp01(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : x;
}
