import { describe, expect, it } from "vitest";
import { adjustPValues, benjaminiHochberg, holm } from "./adjust";
import { drawTasks, percentileInterval, quantile7, resampled } from "./bootstrap";
import { keyedRng, xoshiro128ss } from "./rng";

describe("holm / benjaminiHochberg", () => {
  // Worked from the definitions; R's p.adjust(p, "holm") and p.adjust(p, "BH") give the same.
  const p = [0.01, 0.04, 0.03, 0.005];
  it("Holm: sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1, then running maximum", () => {
    const got = holm(p);
    [0.03, 0.06, 0.06, 0.02].forEach((want, i) => expect(got[i]).toBeCloseTo(want, 14));
  });
  it("BH: sorted times m/i = 0.02, 0.02, 0.04, 0.04, then running minimum from the top", () => {
    const got = benjaminiHochberg(p);
    [0.02, 0.04, 0.04, 0.02].forEach((want, i) => expect(got[i]).toBeCloseTo(want, 14));
  });
  it("caps at 1, keeps ties equal, and 'none' returns the input", () => {
    expect(holm([0.6, 0.6, 0.6])).toEqual([1, 1, 1]);
    expect(benjaminiHochberg([0.02, 0.02])).toEqual([0.02, 0.02]);
    expect(adjustPValues([0.2, 0.01], "none")).toEqual([0.2, 0.01]);
    expect(holm([])).toEqual([]);
    expect(() => adjustPValues([1.5], "holm")).toThrow(RangeError);
  });
});

describe("xoshiro128**", () => {
  it("reproduces the reference C implementation (prng.di.unimi.it/xoshiro128starstar.c)", () => {
    const a = xoshiro128ss([1, 2, 3, 4]);
    expect(Array.from({ length: 8 }, () => a.nextUint32())).toEqual([11520, 0, 5927040, 70819200, 2031721883, 1637235492, 1287239034, 3734860849]);
    const b = xoshiro128ss([0x9e3779b9, 0x7f4a7c15, 0xdeadbeef, 0xffffffff]);
    expect(Array.from({ length: 4 }, () => b.nextUint32())).toEqual([199744174, 3631572119, 3341036164, 722178233]);
  });
  it("is fixed by its key and differs between keys", () => {
    const take = (key: string) => {
      const r = keyedRng(key);
      return Array.from({ length: 5 }, () => r.nextUint32());
    };
    expect(take("worlds")).toEqual(take("worlds"));
    expect(take("worlds")).not.toEqual(take("worlds2"));
  });
  it("draws integers below n without bias across the range", () => {
    const r = keyedRng("uniformity");
    const counts = [0, 0, 0, 0, 0, 0];
    for (let i = 0; i < 60_000; i++) counts[r.below(6)]++;
    // The stream is fixed, so this is a fact about it, not a chance: every face within 3% of 10,000.
    for (const n of counts) expect(Math.abs(n - 10_000)).toBeLessThan(300);
    expect(() => r.below(0)).toThrow(RangeError);
  });
});

describe("cluster bootstrap", () => {
  it("draws the same task indexes for the same key and shape", () => {
    expect(Array.from(drawTasks(5, 10).indexes)).toEqual(Array.from(drawTasks(5, 10).indexes));
    expect(Array.from(drawTasks(5, 10, "other").indexes)).not.toEqual(Array.from(drawTasks(5, 10).indexes));
    expect(Math.max(...drawTasks(5, 100).indexes)).toBe(4);
  });
  it("gives a zero-width interval when every task has the same value", () => {
    const d = drawTasks(4);
    expect(percentileInterval(resampled([0.5, 0.5, 0.5, 0.5], d, "mean"))).toEqual({ low: 0.5, high: 0.5 });
  });
  it("centres the resampled mean on the sample mean and sums when asked", () => {
    const values = [0, 0, 1, 1, 1];
    const d = drawTasks(values.length);
    const means = resampled(values, d, "mean");
    const avg = means.reduce((s, x) => s + x, 0) / means.length;
    expect(Math.abs(avg - 0.6)).toBeLessThan(0.01);
    const sums = resampled(values, d, "sum");
    sums.forEach((s, i) => expect(s).toBeCloseTo(means[i] * 5, 12));
    // The standard error of a mean of 5 values with population variance 0.24 is sqrt(0.24/5) = 0.219.
    const sd = Math.sqrt(means.reduce((s, x) => s + (x - avg) ** 2, 0) / (means.length - 1));
    expect(Math.abs(sd - Math.sqrt(0.24 / 5))).toBeLessThan(0.01);
  });
  it("uses type-7 quantiles (numpy.quantile's and R's default)", () => {
    const xs = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    // h = (n - 1) q: 9 * 0.025 = 0.225 -> 1.225; 9 * 0.975 = 8.775 -> 9.775.
    expect(percentileInterval(xs)).toEqual({ low: 1.225, high: 9.775 });
    expect(quantile7([3], 0.5)).toBe(3);
  });
});
