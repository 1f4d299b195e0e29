// The interval of a suite's pass^k when episodes are clustered by task, and how many runs would narrow it enough
// to decide a threshold. The suite figure is the mean over T tasks of each task's unbiased pass^k estimate. Its
// variance is estimated from the spread of those per-task estimates (the cluster-robust variance: each task is one
// observation, however many episodes it ran), turned into an effective number of trials n_eff = v(1-v)/Var, and
// the Wilson interval is taken over n_eff (the effective-sample-size method of Kish 1965 and Korn & Graubard 1998
// for proportions from clustered samples). n_eff is kept between T (a task's estimate lies in [0, 1], so its
// variance is at most v(1-v): Bhatia & Davis 2000) and T*n/k (as if every block of k episodes were independent),
// so a suite whose tasks all ended alike still gets an honest width instead of none.
import { passHatK, type TaskTrials } from "./passk";
import { wilson, Z_95, type Interval } from "./wilson";
import { logChoose } from "./exact";

export interface ClusterInterval extends Interval {
  value: number;
  /** The effective number of independent trials the interval is taken over. */
  n_eff: number;
  tasks: number;
}

/** The suite's pass^k with its cluster-aware interval; null when no task ran k times. */
export function suitePassHatInterval(tasks: readonly TaskTrials[], k: number, z: number = Z_95): ClusterInterval | null {
  const T = tasks.length;
  if (T === 0 || tasks.some((t) => t.n < k)) return null;
  const u = tasks.map((t) => passHatK(t.n, t.c, k));
  const v = mean(u);
  const variance = T > 1 ? sampleVariance(u, v) / T : 0;
  const upper = tasks.reduce((s, t) => s + t.n, 0) / k;
  const nEff = effectiveTrials(v, variance, T, upper);
  const band = wilson(v * nEff, nEff, z);
  return { value: v, low: band.low, high: band.high, n_eff: nEff, tasks: T };
}

function effectiveTrials(v: number, variance: number, T: number, upper: number): number {
  const hi = Math.max(T, upper);
  const spread = v * (1 - v);
  if (variance <= 0 || spread <= 0) return hi;
  return Math.min(hi, Math.max(T, spread / variance));
}

export type Comparator = ">=" | ">";

/** Whether an interval clears the threshold (pass), falls short of it (fail), or straddles it (undecided). */
export function decideAgainst(i: Interval, op: Comparator, threshold: number): "passed" | "failed" | "undecided" {
  if (op === ">=" ? i.low >= threshold : i.low > threshold) return "passed";
  if (op === ">=" ? i.high < threshold : i.high <= threshold) return "failed";
  return "undecided";
}

/** Runs searched for a decision before saying that runs alone cannot decide. */
export const MAX_PROJECTED_RUNS = 1000;

/**
 * The fewest runs (repetitions of every task) at which the interval would clear or fall short of the threshold, if
 * every task's success rate stayed as observed: the between-task variance is what the observed spread leaves
 * after the binomial noise each task's estimate carries at its current runs, and only the binomial part shrinks
 * with more runs. Null when no number up to MAX_PROJECTED_RUNS decides (the tasks themselves differ too much, or
 * the estimate sits on the threshold): then more tasks, not more runs, would.
 */
export function runsToDecide(tasks: readonly TaskTrials[], k: number, op: Comparator, threshold: number, z: number = Z_95): number | null {
  const now = suitePassHatInterval(tasks, k, z);
  if (!now) return null;
  const T = tasks.length;
  const rates = tasks.map((t) => (t.n === 0 ? 0 : t.c / t.n));
  const u = tasks.map((t) => passHatK(t.n, t.c, k));
  const within = (runs: (i: number) => number) => mean(rates.map((p, i) => passHatVariance(runs(i), p, k)));
  const observed = T > 1 ? sampleVariance(u, now.value) : 0;
  const between = Math.max(0, observed - within((i) => tasks[i].n));
  const start = Math.max(k, Math.min(...tasks.map((t) => t.n)) + 1);
  for (let runs = start; runs <= MAX_PROJECTED_RUNS; runs++) {
    const variance = (between + within(() => runs)) / T;
    const nEff = effectiveTrials(now.value, variance, T, (T * runs) / k);
    const band = wilson(now.value * nEff, nEff, z);
    if (decideAgainst(band, op, threshold) !== "undecided") return runs;
  }
  return null;
}

/**
 * Var[C(X,k)/C(n,k)] for X ~ Binomial(n, p): the sampling variance of one task's pass^k estimate after n runs.
 * Summed over x in log space, so n in the hundreds stays exact.
 */
export function passHatVariance(n: number, p: number, k: number): number {
  if (n < k) throw new RangeError(`passHatVariance: k = ${k} exceeds the ${n} runs`);
  if (p <= 0 || p >= 1) return 0;
  let second = 0;
  for (let x = k; x <= n; x++) {
    const lb = logChoose(n, x) + x * Math.log(p) + (n - x) * Math.log(1 - p);
    const ratio = logChoose(x, k) - logChoose(n, k);
    second += Math.exp(lb + 2 * ratio);
  }
  return Math.max(0, second - p ** (2 * k));
}

function mean(xs: readonly number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return xs.length === 0 ? 0 : s / xs.length;
}

function sampleVariance(xs: readonly number[], m: number): number {
  let s = 0;
  for (const x of xs) s += (x - m) ** 2;
  return xs.length < 2 ? 0 : s / (xs.length - 1);
}
