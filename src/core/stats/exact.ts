// Exact tests on success counts, for the sample sizes a crash test has (k = 3..100 runs of a task): at these
// sizes a normal approximation misstates p-values by a factor of several, so every p-value here is computed from
// the discrete distributions themselves. References: Fisher (1935), Boschloo (1970) "Raised conditional level of
// significance for the 2x2-table when testing the equality of two probabilities", Mehta & Patel (1983) and
// Agresti (2013, Categorical Data Analysis, section 6.7) for the exact stratified test. docs/results.md lists them.

/** Successes c of n trials. */
export interface Count {
  n: number;
  c: number;
}

const logFactorials: number[] = [0];

/** ln(n!), exact to double precision: a running sum of logarithms, cached (n stays in the thousands here). */
export function logFactorial(n: number): number {
  assertCount("n", n);
  for (let i = logFactorials.length; i <= n; i++) logFactorials.push(logFactorials[i - 1] + Math.log(i));
  return logFactorials[n];
}

/** ln C(n, k); -Infinity outside 0 <= k <= n. */
export function logChoose(n: number, k: number): number {
  if (k < 0 || k > n) return Number.NEGATIVE_INFINITY;
  return logFactorial(n) - logFactorial(k) - logFactorial(n - k);
}

/** P(X = x) for X ~ Hypergeometric(population N, K marked, n drawn). */
export function hypergeomPmf(x: number, N: number, K: number, n: number): number {
  const lp = logChoose(K, x) + logChoose(N - K, n - x) - logChoose(N, n);
  return Number.isFinite(lp) ? Math.exp(lp) : 0;
}

/** The support of that hypergeometric: max(0, n - (N - K)) .. min(n, K). */
export function hypergeomSupport(N: number, K: number, n: number): [number, number] {
  return [Math.max(0, n - (N - K)), Math.min(n, K)];
}

/**
 * Fisher's exact test, one-sided, that `next` succeeds less often than `base`: the probability, given the total
 * successes of both, that `next` holds as few as it did or fewer (the hypergeometric lower tail).
 */
export function fisherWorse(base: Count, next: Count): number {
  checkCount(base);
  checkCount(next);
  return hyperLowerTail(base.n + next.n, base.c + next.c, next.n, next.c);
}

function hyperLowerTail(N: number, K: number, n: number, x: number): number {
  const [lo] = hypergeomSupport(N, K, n);
  let p = 0;
  for (let i = lo; i <= x; i++) p += hypergeomPmf(i, N, K, n);
  return Math.min(1, p);
}

/** Grid points for the nuisance parameter before refining around the best one (the p-value is a smooth polynomial in it). */
const NUISANCE_GRID = 256;
/** Ties between tables' Fisher p-values are exact rationals computed in floating point; this absorbs their rounding. */
const TIE_TOLERANCE = 1e-9;

/**
 * Boschloo's exact unconditional test, one-sided, that `next` succeeds less often than `base` (H0: p_next >= p_base).
 * Tables are ordered by Fisher's one-sided p-value; the p-value is the largest probability of a table at least that
 * extreme over the common success rate pi in [0, 1]. It keeps the exact test's guarantee (never more false alarms
 * than the level) and is uniformly more powerful than Fisher's test: 3 of 3 against 0 of 3 gives 1/64, not 1/20.
 */
export function boschlooWorse(base: Count, next: Count): number {
  checkCount(base);
  checkCount(next);
  if (base.n === 0 || next.n === 0) return 1;
  const observed = fisherWorse(base, next);
  if (observed >= 1) return 1;
  const N = base.n + next.n;
  // The probability of a table (a, b) is C(n1,a) C(n2,b) pi^(a+b) (1-pi)^(N-a-b): it depends on pi only through
  // s = a + b, so the rejection region folds into one weight per s and each pi costs O(N).
  const logWeight = new Array<number>(N + 1).fill(Number.NEGATIVE_INFINITY);
  for (let s = 0; s <= N; s++) {
    // Given s successes in all, next's count b runs over the hypergeometric support; its lower tail is a running sum.
    const [lo, hi] = hypergeomSupport(N, s, next.n);
    let tail = 0;
    for (let b = lo; b <= hi; b++) {
      tail += hypergeomPmf(b, N, s, next.n);
      if (tail > observed * (1 + TIE_TOLERANCE)) break;
      logWeight[s] = logAddExp(logWeight[s], logChoose(base.n, s - b) + logChoose(next.n, b));
    }
  }
  const at = (pi: number) => regionProbability(logWeight, N, pi);
  let best = 0;
  let bestPi = 0;
  for (let i = 0; i <= NUISANCE_GRID; i++) {
    const pi = i / NUISANCE_GRID;
    const v = at(pi);
    if (v > best) [best, bestPi] = [v, pi];
  }
  // Golden-section search in the grid cell on either side of the best point finds the maximum to ~1e-12 in pi.
  let lo = Math.max(0, bestPi - 1 / NUISANCE_GRID);
  let hi = Math.min(1, bestPi + 1 / NUISANCE_GRID);
  const g = (Math.sqrt(5) - 1) / 2;
  let x1 = hi - g * (hi - lo);
  let x2 = lo + g * (hi - lo);
  let f1 = at(x1);
  let f2 = at(x2);
  for (let i = 0; i < 60; i++) {
    if (f1 < f2) {
      lo = x1;
      x1 = x2;
      f1 = f2;
      x2 = lo + g * (hi - lo);
      f2 = at(x2);
    } else {
      hi = x2;
      x2 = x1;
      f2 = f1;
      x1 = hi - g * (hi - lo);
      f1 = at(x1);
    }
  }
  return Math.min(1, Math.max(best, f1, f2));
}

function regionProbability(logWeight: number[], N: number, pi: number): number {
  const lp1 = Math.log(pi);
  const lq1 = Math.log(1 - pi);
  let p = 0;
  for (let s = 0; s <= N; s++) {
    if (logWeight[s] === Number.NEGATIVE_INFINITY) continue;
    // 0^0 = 1: at pi = 0 only s = 0 has mass, at pi = 1 only s = N.
    const lp = logWeight[s] + (s === 0 ? 0 : s * lp1) + (s === N ? 0 : (N - s) * lq1);
    if (Number.isFinite(lp)) p += Math.exp(lp);
  }
  return p;
}

function logAddExp(a: number, b: number): number {
  if (a === Number.NEGATIVE_INFINITY) return b;
  if (b === Number.NEGATIVE_INFINITY) return a;
  const m = Math.max(a, b);
  return m + Math.log(Math.exp(a - m) + Math.exp(b - m));
}

export interface StratifiedTest {
  /** Successes of `next` summed over strata: the test statistic. */
  observed: number;
  /** Its expectation under no change, given each stratum's total successes. */
  expected: number;
  /** P(statistic <= observed): small when `next` succeeded less often across the strata. */
  worse: number;
  /** P(statistic >= observed): small when `next` succeeded more often. */
  better: number;
}

/**
 * The exact stratified (conditional) test of no change in any stratum, the exact form of the Cochran-Mantel-Haenszel
 * test: within a stratum (a task), given its total successes, the successes of `next` are hypergeometric, and the
 * strata are independent, so the sum's distribution is the convolution of those hypergeometrics. Conditioning on
 * each task's total removes how hard the task is, which is what pairing by task means here.
 */
export function stratifiedExact(strata: readonly { base: Count; next: Count }[]): StratifiedTest {
  let dist = [1];
  let offset = 0;
  let observed = 0;
  let expected = 0;
  for (const { base, next } of strata) {
    checkCount(base);
    checkCount(next);
    const N = base.n + next.n;
    const K = base.c + next.c;
    const [lo, hi] = hypergeomSupport(N, K, next.n);
    const pmf: number[] = [];
    for (let x = lo; x <= hi; x++) pmf.push(hypergeomPmf(x, N, K, next.n));
    const conv = new Array<number>(dist.length + pmf.length - 1).fill(0);
    for (let i = 0; i < dist.length; i++) {
      if (dist[i] === 0) continue;
      for (let j = 0; j < pmf.length; j++) conv[i + j] += dist[i] * pmf[j];
    }
    dist = conv;
    offset += lo;
    observed += next.c;
    expected += N === 0 ? 0 : (next.n * K) / N;
  }
  const at = observed - offset;
  let worse = 0;
  let better = 0;
  for (let i = 0; i < dist.length; i++) {
    if (i <= at) worse += dist[i];
    if (i >= at) better += dist[i];
  }
  return { observed, expected, worse: Math.min(1, worse), better: Math.min(1, better) };
}

function checkCount(x: Count): void {
  assertCount("n", x.n);
  assertCount("c", x.c);
  if (x.c > x.n) throw new RangeError(`exact test: successes ${x.c} exceed trials ${x.n}`);
}

function assertCount(name: string, v: number): void {
  if (!Number.isInteger(v) || v < 0) throw new RangeError(`exact test: ${name} must be a non-negative integer, got ${v}`);
}
