import { describe, expect, it } from "vitest";
import { decideAgainst, passHatVariance, runsToDecide, suitePassHatInterval } from "./cluster";

const t = (c: number, n: number) => ({ n, c });

describe("passHatVariance", () => {
  it("is the variance of C(X,k)/C(n,k) for X ~ Binomial(n, p)", () => {
    // k = 1: p(1 - p)/n.
    expect(passHatVariance(3, 0.5, 1)).toBeCloseTo(1 / 12, 14);
    // k = n: the indicator that all n succeeded, p^n (1 - p^n).
    expect(passHatVariance(3, 0.5, 3)).toBeCloseTo(0.125 * 0.875, 14);
    // n = 3, k = 2, p = 1/2: U is 1/3 at X = 2 (prob 3/8) and 1 at X = 3 (1/8); E[U^2] = 1/24 + 1/8 = 1/6; minus p^4.
    expect(passHatVariance(3, 0.5, 2)).toBeCloseTo(1 / 6 - 1 / 16, 14);
    expect(passHatVariance(5, 1, 2)).toBe(0);
  });
});

describe("suitePassHatInterval (Wilson over the effective number of trials)", () => {
  it("takes n_eff from the spread of per-task estimates", () => {
    // Estimates 1, 2/3, 1/3: mean 2/3, sample variance 1/9, Var(mean) = 1/27; n_eff = (2/3)(1/3) / (1/27) = 6.
    const i = suitePassHatInterval([t(3, 3), t(2, 3), t(1, 3)], 1)!;
    expect(i.value).toBeCloseTo(2 / 3, 14);
    expect(i.n_eff).toBeCloseTo(6, 12);
    // Wilson(4 of 6) at z = 1.96, from the closed form.
    expect(i.low).toBeCloseTo(0.29998832134152864, 12);
    expect(i.high).toBeCloseTo(0.9032306674407831, 12);
  });
  it("never counts fewer than one trial per task: all-or-nothing tasks give the Wilson interval over T", () => {
    // Estimates 1, 1, 0, 0: n_eff from the spread would be 3; it is held at T = 4. Wilson(2 of 4).
    const i = suitePassHatInterval([t(3, 3), t(3, 3), t(0, 3), t(0, 3)], 1)!;
    expect(i.n_eff).toBe(4);
    expect(i.low).toBeCloseTo(0.15003570882017148, 12);
    expect(i.high).toBeCloseTo(0.8499642911798285, 12);
  });
  it("never counts more than T*n/k independent blocks: tasks that all ended alike are not certain", () => {
    // Three tasks at 2/4: no spread, so n_eff = 12 trials, Wilson(6 of 12).
    const same = suitePassHatInterval([t(2, 4), t(2, 4), t(2, 4)], 1)!;
    expect(same.n_eff).toBe(12);
    expect(same.low).toBeCloseTo(0.2537781703934222, 12);
    // Five tasks, three runs, every run passed: pass^3 = 1 over 5 blocks of 3, Wilson(5 of 5): 0.566, not 1.
    const lucky = suitePassHatInterval([t(3, 3), t(3, 3), t(3, 3), t(3, 3), t(3, 3)], 3)!;
    expect(lucky.value).toBe(1);
    expect(lucky.n_eff).toBe(5);
    expect(lucky.low).toBeCloseTo(0.5655085052479191, 12);
    expect(lucky.high).toBe(1);
  });
  it("has no interval when a task ran fewer than k times or there is no task", () => {
    expect(suitePassHatInterval([t(2, 2), t(3, 3)], 3)).toBeNull();
    expect(suitePassHatInterval([], 1)).toBeNull();
  });
});

describe("decideAgainst", () => {
  it("passes on the lower bound, fails on the upper, and is undecided in between", () => {
    expect(decideAgainst({ low: 0.81, high: 0.9 }, ">=", 0.8)).toBe("passed");
    expect(decideAgainst({ low: 0.8, high: 0.9 }, ">=", 0.8)).toBe("passed");
    expect(decideAgainst({ low: 0.8, high: 0.9 }, ">", 0.8)).toBe("undecided");
    expect(decideAgainst({ low: 0.5, high: 0.79 }, ">=", 0.8)).toBe("failed");
    expect(decideAgainst({ low: 0.5, high: 0.9 }, ">=", 0.8)).toBe("undecided");
  });
});

describe("runsToDecide", () => {
  it("all five tasks passed three runs: pass^3 >= 0.8 is decided at 10 runs", () => {
    // n_eff = 5R/3 and Wilson(m of m).low = m/(m + z^2) >= 0.8 needs m >= 4 z^2 = 15.37, so R >= 9.22.
    expect(runsToDecide([t(3, 3), t(3, 3), t(3, 3), t(3, 3), t(3, 3)], 3, ">=", 0.8)).toBe(10);
  });
  it("homogeneous tasks at one half: pass^1 >= 0.3 is decided at 7 runs", () => {
    // No between-task spread: n_eff = 3R, Wilson(1.5R of 3R).low first reaches 0.3 at R = 7 (0.3034).
    expect(runsToDecide([t(2, 4), t(2, 4), t(2, 4)], 1, ">=", 0.3)).toBe(7);
  });
  it("says no number of runs decides when the tasks themselves differ", () => {
    // All-or-nothing tasks: the spread is between tasks, which more runs do not shrink; Wilson(2 of 4) straddles 0.5.
    expect(runsToDecide([t(3, 3), t(3, 3), t(0, 3), t(0, 3)], 1, ">=", 0.5)).toBeNull();
  });
});
