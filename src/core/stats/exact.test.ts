import { describe, expect, it } from "vitest";
import { boschlooWorse, fisherWorse, hypergeomPmf, logChoose, stratifiedExact, type Count } from "./exact";

const c = (passed: number, of: number): Count => ({ n: of, c: passed });

describe("fisherWorse (one-sided Fisher exact test)", () => {
  it("is the hypergeometric lower tail", () => {
    // 3/3 then 0/3: the only table this extreme given 3 successes in 6 is C(3,3)C(3,0)/C(6,3) = 1/20.
    expect(fisherWorse(c(3, 3), c(0, 3))).toBeCloseTo(1 / 20, 14);
    // Fisher's tea-tasting table, 4/4 against 0/4: 1/C(8,4) = 1/70.
    expect(fisherWorse(c(4, 4), c(0, 4))).toBeCloseTo(1 / 70, 14);
    // 3/3 then 1/3: P(X <= 1) with 4 successes in 6 and 3 drawn = C(4,1)C(2,2)/C(6,3) = 4/20.
    expect(fisherWorse(c(3, 3), c(1, 3))).toBeCloseTo(0.2, 14);
    expect(fisherWorse(c(0, 3), c(0, 3))).toBe(1);
  });
  it("matches scipy.stats.fisher_exact(alternative='greater') on [[base, new], [fails, fails]]", () => {
    // scipy 1.17.1 values.
    expect(fisherWorse(c(5, 5), c(2, 5))).toBeCloseTo(0.08333333333333334, 12);
    expect(fisherWorse(c(10, 10), c(2, 10))).toBeCloseTo(0.0003572279114074779, 14);
    expect(fisherWorse(c(7, 9), c(3, 11))).toBeCloseTo(0.03488925934746368, 12);
  });
});

describe("boschlooWorse (Boschloo's exact unconditional test, one-sided)", () => {
  it("matches values derived by hand", () => {
    // Only the observed table is as extreme: max over pi of pi^3 (1-pi)^3, at pi = 1/2, is 1/64.
    expect(boschlooWorse(c(3, 3), c(0, 3))).toBeCloseTo(1 / 64, 10);
    // Region {(3,0), (3,1), (2,0)}: pi^3(1-pi)^3 + 3 pi^4 (1-pi)^2 + 3 pi^2 (1-pi)^4, symmetric, max at 1/2 = 7/64.
    expect(boschlooWorse(c(3, 3), c(1, 3))).toBeCloseTo(7 / 64, 10);
    // 4/4 against 0/4: (1/2)^8.
    expect(boschlooWorse(c(4, 4), c(0, 4))).toBeCloseTo(1 / 256, 10);
  });
  it("matches scipy.stats.boschloo_exact(alternative='greater', n=256)", () => {
    // scipy 1.17.1 values; the table is [[base successes, new successes], [base failures, new failures]].
    const cases: [Count, Count, number][] = [
      [c(3, 3), c(2, 3), 0.3437499999999999],
      [c(5, 5), c(2, 5), 0.03092404517250955],
      [c(10, 10), c(2, 10), 0.00010585784912109382],
      [c(8, 10), c(5, 10), 0.09866934741813402],
      [c(7, 9), c(3, 11), 0.015982299631989515],
      [c(20, 20), c(14, 20), 0.004870717680993768],
      [c(3, 3), c(1, 5), 0.023613388875266723],
      [c(2, 3), c(2, 3), 0.6249999999999998],
    ];
    for (const [base, next, want] of cases) expect(Math.abs(boschlooWorse(base, next) - want), `${base.c}/${base.n} vs ${next.c}/${next.n}`).toBeLessThan(want * 1e-7);
  });
  it("is never larger than Fisher's p-value and is 1 when nothing got worse", () => {
    for (let a = 0; a <= 4; a++) for (let b = 0; b <= 4; b++) expect(boschlooWorse(c(a, 4), c(b, 4))).toBeLessThanOrEqual(fisherWorse(c(a, 4), c(b, 4)) + 1e-12);
    expect(boschlooWorse(c(0, 3), c(0, 3))).toBe(1);
    expect(boschlooWorse(c(3, 3), c(3, 3))).toBe(1);
    expect(boschlooWorse(c(1, 3), c(3, 3))).toBe(1);
    expect(boschlooWorse(c(0, 0), c(0, 3))).toBe(1);
  });
  it("stays finite and in [0, 1] at the largest run counts passk allows", () => {
    const p = boschlooWorse(c(100, 100), c(60, 100));
    expect(p).toBeGreaterThan(0);
    expect(p).toBeLessThan(1e-12);
  });
});

describe("stratifiedExact (exact conditional test over tasks)", () => {
  it("is Fisher's test for one task", () => {
    const r = stratifiedExact([{ base: c(3, 3), next: c(0, 3) }]);
    expect(r.worse).toBeCloseTo(1 / 20, 14);
    expect(r.better).toBeCloseTo(1, 14);
    expect(r.observed).toBe(0);
    expect(r.expected).toBeCloseTo(1.5, 14);
  });
  it("multiplies independent strata: two tasks 3/3 -> 0/3 give (1/20)^2", () => {
    const r = stratifiedExact([
      { base: c(3, 3), next: c(0, 3) },
      { base: c(3, 3), next: c(0, 3) },
    ]);
    expect(r.worse).toBeCloseTo(1 / 400, 14);
  });
  it("convolves the hypergeometrics (worked by hand)", () => {
    // Task A 3/3 -> 1/3 and task B 2/3 -> 2/3: each has 4 successes in 6, so new's count is 1, 2 or 3 with
    // probabilities 0.2, 0.6, 0.2. Observed sum 3: P(S <= 3) = .2*.2 + .2*.6 + .6*.2 = 0.28; P(S >= 3) = 1 - .04.
    const r = stratifiedExact([
      { base: c(3, 3), next: c(1, 3) },
      { base: c(2, 3), next: c(2, 3) },
    ]);
    expect(r.worse).toBeCloseTo(0.28, 14);
    expect(r.better).toBeCloseTo(0.96, 14);
  });
  it("agrees with brute-force enumeration of every table", () => {
    const strata = [
      { base: c(4, 5), next: c(1, 4) },
      { base: c(2, 3), next: c(3, 3) },
      { base: c(5, 5), next: c(3, 5) },
    ];
    const obs = strata.reduce((s, x) => s + x.next.c, 0);
    // Enumerate every combination of new-side counts with each stratum's total fixed, weighting by the hypergeometric.
    let worse = 0;
    const walk = (i: number, sumNew: number, p: number) => {
      if (i === strata.length) {
        if (sumNew <= obs) worse += p;
        return;
      }
      const { base, next } = strata[i];
      const N = base.n + next.n;
      const K = base.c + next.c;
      for (let x = 0; x <= next.n; x++) walk(i + 1, sumNew + x, p * hypergeomPmf(x, N, K, next.n));
    };
    walk(0, 0, 1);
    expect(stratifiedExact(strata).worse).toBeCloseTo(worse, 13);
  });
  it("ignores tasks that cannot move (all passed or all failed on both sides)", () => {
    const r = stratifiedExact([
      { base: c(3, 3), next: c(3, 3) },
      { base: c(0, 3), next: c(0, 3) },
      { base: c(3, 3), next: c(0, 3) },
    ]);
    expect(r.worse).toBeCloseTo(1 / 20, 14);
  });
});

describe("logChoose", () => {
  it("is exact where the binomials are small and stays finite where they overflow", () => {
    expect(Math.exp(logChoose(10, 3))).toBeCloseTo(120, 9);
    expect(logChoose(3, 4)).toBe(Number.NEGATIVE_INFINITY);
    expect(Number.isFinite(logChoose(4000, 2000))).toBe(true);
  });
});
