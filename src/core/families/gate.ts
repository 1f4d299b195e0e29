// Gating a family on measured pass rates: each tier's mean reward must sit in its band, rates must fall from
// each tier to the next, and no tier may be at 0% or 100% (a tier every agent passes, or none does, teaches
// nothing). Values are the share of episodes verify passed; each is shown with its 95% Wilson interval.
import { wilson } from "../stats/wilson";
import { bandFor, inBand, pct, showBand, type Band } from "./vocabulary";

export interface TierRate {
  tier: number;
  name: string;
  /** Episodes verify passed, of `trials` (infrastructure errors count as trials that did not pass). */
  passed: number;
  trials: number;
  /** True for a rate read from the tier's pass_rates rather than measured now. */
  recorded?: boolean;
}

export interface TierVerdict {
  tier: number;
  name: string;
  value: number;
  low: number;
  high: number;
  band: Band;
  in_band: boolean;
  recorded: boolean;
}

export interface GateProblem {
  tier: string;
  check: "band" | "monotonic" | "zero" | "full";
  message: string;
}

export interface FamilyGate {
  tiers: TierVerdict[];
  problems: GateProblem[];
  passed: boolean;
}

export function gateRates(rates: readonly TierRate[]): FamilyGate {
  const tiers = [...rates].sort((a, b) => a.tier - b.tier).map((r): TierVerdict => {
    const value = r.trials ? r.passed / r.trials : 0;
    const w = wilson(r.passed, r.trials);
    const band = bandFor(r.tier);
    return { tier: r.tier, name: r.name, value, low: w.low, high: w.high, band, in_band: inBand(value, band), recorded: !!r.recorded };
  });
  const problems: GateProblem[] = [];
  const measured = (t: TierVerdict) => `${pct(t.value)} (95% Wilson ${pct(t.low)}-${pct(t.high)})`;
  for (const t of tiers) {
    if (t.recorded) continue;
    const r = rates.find((x) => x.tier === t.tier)!;
    if (!t.in_band) problems.push({ tier: t.name, check: "band", message: `tier ${t.tier} passed ${r.passed} of ${r.trials}: ${measured(t)}, outside its band ${showBand(t.band)}` });
    if (r.trials > 0 && r.passed === 0) problems.push({ tier: t.name, check: "zero", message: `tier ${t.tier} is at 0%: no episode passed, so the tier tells nothing apart` });
    if (r.trials > 0 && r.passed === r.trials) problems.push({ tier: t.name, check: "full", message: `tier ${t.tier} is at 100%: every episode passed, so the tier tells nothing apart` });
  }
  for (let i = 1; i < tiers.length; i++) {
    const [a, b] = [tiers[i - 1], tiers[i]];
    if (a.recorded && b.recorded) continue;
    if (b.value >= a.value) problems.push({ tier: b.name, check: "monotonic", message: `pass rates must fall from tier to tier: tier ${b.tier} ${measured(b)}${b.recorded ? " (recorded)" : ""} is not below tier ${a.tier} ${measured(a)}${a.recorded ? " (recorded)" : ""}` });
  }
  return { tiers, problems, passed: problems.length === 0 };
}

/** The pass-rate curve across tiers as text: one bar per tier, its interval, its band. */
export function curveText(g: FamilyGate, width = 40): string {
  const lines = ["pass rate by tier (95% Wilson interval; band in brackets):"];
  for (const t of g.tiers) {
    const bar = Array.from({ length: width }, (_, i) => {
      const x = (i + 0.5) / width;
      return x <= t.value ? "█" : x >= t.low && x <= t.high ? "░" : "·";
    }).join("");
    lines.push(`  t${t.tier} ${bar} ${pct(t.value).padStart(6)}  ${pct(t.low)}-${pct(t.high)}  [${showBand(t.band)}]${t.in_band ? "" : " out of band"}${t.recorded ? " (recorded)" : ""}`);
  }
  return lines.join("\n") + "\n";
}
