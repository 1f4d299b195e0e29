// The gate's decisions on rates whose values are fixed by construction: each band's edges, falling rates across
// tiers (measured or recorded), 0% and 100%, and the Wilson interval quoted in each message.
import { describe, expect, it } from "vitest";
import { curveText, gateRates, type TierRate } from "./gate";
import { bandFor } from "./vocabulary";

const rate = (tier: number, passed: number, trials = 20, recorded = false): TierRate => ({ tier, name: `f_t${tier}`, passed, trials, recorded });

describe("family gate", () => {
  it("passes a family whose every tier sits in its band and falls", () => {
    const g = gateRates([rate(0, 18), rate(1, 14), rate(2, 10), rate(3, 6), rate(4, 2)]);
    expect(g.problems).toEqual([]);
    expect(g.passed).toBe(true);
    expect(g.tiers.map((t) => t.value)).toEqual([0.9, 0.7, 0.5, 0.3, 0.1]);
  });

  it("takes each band's edges as inside and past tier 4 uses tier 4's band", () => {
    expect(gateRates([rate(0, 16), rate(1, 12), rate(2, 8), rate(3, 4), rate(4, 1)]).problems.filter((p) => p.check === "band")).toEqual([]);
    expect(bandFor(7)).toEqual({ low: 0, high: 0.2 });
  });

  it("names the band, the measured value and its Wilson interval for a tier out of its band", () => {
    const g = gateRates([rate(0, 18), rate(1, 17)]);
    expect(g.passed).toBe(false);
    const band = g.problems.find((p) => p.check === "band")!;
    expect(band.tier).toBe("f_t1");
    // Wilson(17 of 20) at z = 1.96: [0.6396, 0.9476].
    expect(band.message).toBe("tier 1 passed 17 of 20: 85% (95% Wilson 64%-94.8%), outside its band 60%-80%");
  });

  it("refuses rates that do not fall, against measured and recorded neighbours", () => {
    const rising = gateRates([rate(0, 17), rate(1, 10, 20, true), rate(2, 12)]);
    expect(rising.problems.map((p) => [p.tier, p.check])).toEqual([["f_t2", "monotonic"]]);
    expect(rising.problems[0].message).toMatch(/tier 2 60% \(95% Wilson 38\.7%-78\.1%\) is not below tier 1 50% \(95% Wilson [0-9.]+%-[0-9.]+%\) \(recorded\)$/);
    const equal = gateRates([rate(0, 16), rate(1, 16)]);
    expect(equal.problems.map((p) => p.check)).toEqual(["monotonic"]);
    // Two recorded rates are not this run's to judge.
    expect(gateRates([rate(0, 10, 20, true), rate(1, 12, 20, true)]).passed).toBe(true);
  });

  it("refuses a tier at 0% or at 100%, even inside its band", () => {
    expect(gateRates([rate(0, 20)]).problems.map((p) => p.check)).toEqual(["full"]);
    expect(gateRates([rate(4, 0)]).problems.map((p) => p.check)).toEqual(["zero"]);
  });

  it("draws the curve with each tier's interval and band", () => {
    const text = curveText(gateRates([rate(0, 18), rate(1, 19)]), 10);
    expect(text).toContain("t0 █████████░    90%  69.9%-97.2%  [>= 80%]");
    expect(text).toContain("t1 ██████████    95%  76.4%-99.1%  [60%-80%] out of band");
  });
});
