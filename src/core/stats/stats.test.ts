import { describe, expect, it } from "vitest";
import { isFlaky, passHatCurve, passHatK, pickWorst, suitePassHat, wilson } from "./index";

describe("wilson", () => {
  it("matches published values at z = 1.96", () => {
    // Reference values computed from the closed form by hand (Newcombe 1998 table uses the same form).
    const a = wilson(5, 10);
    expect(a.low).toBeCloseTo(0.2366, 4);
    expect(a.high).toBeCloseTo(0.7634, 4);
    const b = wilson(0, 10);
    expect(b.low).toBe(0);
    expect(b.high).toBeCloseTo(0.2775, 4);
    const c = wilson(10, 10);
    expect(c.low).toBeCloseTo(0.7225, 4);
    expect(c.high).toBe(1);
    const d = wilson(1, 1);
    expect(d.low).toBeCloseTo(0.2065, 4);
  });
  it("is the whole unit interval with no trials", () => {
    expect(wilson(0, 0)).toEqual({ low: 0, high: 1 });
  });
  it("is symmetric in successes and failures", () => {
    const a = wilson(3, 7);
    const b = wilson(4, 7);
    expect(a.low).toBeCloseTo(1 - b.high, 12);
    expect(a.high).toBeCloseTo(1 - b.low, 12);
  });
  it("accepts a fractional success count", () => {
    const i = wilson(2.5, 5);
    expect(i.low).toBeLessThan(0.5);
    expect(i.high).toBeGreaterThan(0.5);
  });
  it("refuses impossible counts", () => {
    expect(() => wilson(3, 2)).toThrow(RangeError);
    expect(() => wilson(-1, 2)).toThrow(RangeError);
    expect(() => wilson(Number.NaN, 2)).toThrow(RangeError);
  });
});

function exact(n: number, c: number, k: number): number {
  const comb = (a: number, b: number): bigint => {
    if (b > a) return 0n;
    let r = 1n;
    for (let i = 0; i < b; i++) r = (r * BigInt(a - i)) / BigInt(i + 1);
    return r;
  };
  const num = comb(c, k);
  const den = comb(n, k);
  // 1e18 of fixed-point precision is far beyond a double's 53 bits.
  return Number((num * 10n ** 18n) / den) / 1e18;
}

describe("passHatK", () => {
  it("is C(c,k)/C(n,k)", () => {
    expect(passHatK(4, 3, 1)).toBeCloseTo(0.75, 15);
    expect(passHatK(4, 3, 2)).toBeCloseTo(3 / 6, 15);
    expect(passHatK(4, 3, 3)).toBeCloseTo(1 / 4, 15);
    expect(passHatK(4, 3, 4)).toBe(0);
    expect(passHatK(4, 4, 4)).toBe(1);
    expect(passHatK(3, 0, 1)).toBe(0);
  });
  it("agrees with exact big-integer arithmetic, including sizes whose binomials overflow a double", () => {
    for (const [n, c, k] of [
      [10, 7, 3],
      [50, 49, 25],
      [200, 150, 100],
      [1200, 1100, 600],
      [5000, 4990, 2500],
    ] as const) {
      const got = passHatK(n, c, k);
      const want = exact(n, c, k);
      expect(Number.isFinite(got)).toBe(true);
      expect(Math.abs(got - want)).toBeLessThanOrEqual(Math.max(1e-12, want * 1e-9));
    }
  });
  it("refuses k beyond the trials and malformed counts", () => {
    expect(() => passHatK(3, 2, 4)).toThrow(/exceeds/);
    expect(() => passHatK(3, 4, 1)).toThrow(/exceed/);
    expect(() => passHatK(3, 1.5, 1)).toThrow(/integer/);
  });
  it("draws the whole curve", () => {
    expect(passHatCurve(3, 2)).toEqual([2 / 3, 1 / 3, 0]);
  });
});

describe("suitePassHat", () => {
  it("is the mean over tasks, as tau-bench's display_metrics computes it", () => {
    const curve = suitePassHat([
      { n: 4, c: 4 },
      { n: 4, c: 2 },
      { n: 4, c: 0 },
    ]);
    expect(curve).toHaveLength(4);
    expect(curve[0]).toBeCloseTo((1 + 0.5 + 0) / 3, 15);
    expect(curve[1]).toBeCloseTo((1 + 1 / 6 + 0) / 3, 15);
    expect(curve[3]).toBeCloseTo(1 / 3, 15);
  });
  it("stops at the fewest trials of any task", () => {
    expect(suitePassHat([{ n: 3, c: 3 }, { n: 2, c: 1 }])).toHaveLength(2);
    expect(suitePassHat([])).toEqual([]);
  });
});

describe("isFlaky", () => {
  it("flags a verdict that changed and ignores infrastructure gaps", () => {
    expect(isFlaky(["passed", "passed", "passed"])).toBe(false);
    expect(isFlaky(["passed", "overreach", "passed"])).toBe(true);
    expect(isFlaky(["missed", "wrong_amount"])).toBe(true);
    expect(isFlaky(["passed", null, "passed"])).toBe(false);
    expect(isFlaky([])).toBe(false);
  });
});

describe("pickWorst", () => {
  const t = (position: number, accuracy: number | null, dollarsWrongCents: number) => ({ position, accuracy, dollarsWrongCents });
  it("takes the lowest accuracy first", () => {
    expect(pickWorst([t(1, 0.5, 0), t(2, 0, 0), t(3, 0.5, 99999)])?.position).toBe(2);
  });
  it("breaks accuracy ties by money wrong, then by file order", () => {
    expect(pickWorst([t(1, 0.5, 100), t(2, 0.5, 500), t(3, 0.5, 500)])?.position).toBe(2);
    expect(pickWorst([t(3, 0, 0), t(1, 0, 0)])?.position).toBe(1);
  });
  it("skips policy-only tasks and returns null when nothing failed", () => {
    expect(pickWorst([t(1, null, 0), t(2, 1, 0)])).toBeNull();
    expect(pickWorst([t(1, 1, 2400)])?.position).toBe(1);
  });
});
