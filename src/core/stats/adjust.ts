// Adjusting p-values for the number of tests: a suite of 50 tasks tested at 0.05 each would flag two or three
// "regressions" by chance alone on every run. Holm (1979) keeps the chance of any false alarm at the level
// (family-wise error), uniformly better than Bonferroni; Benjamini & Hochberg (1995) keep the expected share of
// false alarms among those flagged at the level, and flag more. Both return adjusted p-values in input order,
// as R's p.adjust does, so "adjusted p < level" is the decision.

export const CORRECTIONS = ["holm", "bh", "none"] as const;
export type Correction = (typeof CORRECTIONS)[number];

export function adjustPValues(p: readonly number[], method: Correction): number[] {
  for (const x of p) if (!(x >= 0 && x <= 1)) throw new RangeError(`adjustPValues: p-values must lie in [0, 1], got ${x}`);
  if (method === "none") return [...p];
  return method === "holm" ? holm(p) : benjaminiHochberg(p);
}

/** Holm's step-down: the i-th smallest of m is multiplied by (m - i + 1), then made non-decreasing. */
export function holm(p: readonly number[]): number[] {
  const m = p.length;
  const order = sortedIndexes(p);
  const out = new Array<number>(m);
  let running = 0;
  order.forEach((idx, i) => {
    running = Math.max(running, Math.min(1, (m - i) * p[idx]));
    out[idx] = running;
  });
  return out;
}

/** Benjamini-Hochberg's step-up: the i-th smallest of m is multiplied by m / i, then made non-increasing from the top. */
export function benjaminiHochberg(p: readonly number[]): number[] {
  const m = p.length;
  const order = sortedIndexes(p);
  const out = new Array<number>(m);
  let running = 1;
  for (let i = m - 1; i >= 0; i--) {
    const idx = order[i];
    running = Math.min(running, Math.min(1, (m / (i + 1)) * p[idx]));
    out[idx] = running;
  }
  return out;
}

/** Ascending by p, ties by input position, so equal p-values always adjust the same way. */
function sortedIndexes(p: readonly number[]): number[] {
  return p.map((_, i) => i).sort((a, b) => p[a] - p[b] || a - b);
}
