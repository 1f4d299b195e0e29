// pass^k: the chance that k independent trials of a task all succeed, estimated without bias from n trials
// with c successes as C(c,k)/C(n,k) (Yao et al., tau-bench). The suite figure is the mean over tasks.

/**
 * C(c,k)/C(n,k) as a product of k ratios (c-i)/(n-i), each in [0, 1], so nothing overflows however large n
 * grows; exact for every case a run can produce up to float rounding of the last digit.
 */
export function passHatK(n: number, c: number, k: number): number {
  assertCount("n", n);
  assertCount("c", c);
  assertCount("k", k);
  if (c > n) throw new RangeError(`passHatK: successes ${c} exceed trials ${n}`);
  if (k > n) throw new RangeError(`passHatK: k = ${k} exceeds the ${n} trials`);
  if (k === 0) return 1;
  if (c < k) return 0;
  let value = 1;
  for (let i = 0; i < k; i++) value *= (c - i) / (n - i);
  return value;
}

/** pass^k for k = 1..kMax (kMax defaults to n). */
export function passHatCurve(n: number, c: number, kMax: number = n): number[] {
  const out: number[] = [];
  for (let k = 1; k <= kMax; k++) out.push(passHatK(n, c, k));
  return out;
}

export interface TaskTrials {
  /** Trials attempted (infrastructure errors included: they count as trials that did not succeed). */
  n: number;
  /** Trials that succeeded. */
  c: number;
}

/**
 * Suite pass^k for k = 1..K: the mean over tasks of each task's C(c,k)/C(n,k). K is the smallest n of any
 * task (as tau2-bench caps it), so every task contributes to every point; an empty suite has no curve.
 */
export function suitePassHat(tasks: readonly TaskTrials[]): number[] {
  if (tasks.length === 0) return [];
  const kMax = Math.min(...tasks.map((t) => t.n));
  const out: number[] = [];
  for (let k = 1; k <= kMax; k++) {
    let sum = 0;
    for (const t of tasks) sum += passHatK(t.n, t.c, k);
    out.push(sum / tasks.length);
  }
  return out;
}

function assertCount(name: string, v: number): void {
  if (!Number.isInteger(v) || v < 0) throw new RangeError(`passHatK: ${name} must be a non-negative integer, got ${v}`);
}
