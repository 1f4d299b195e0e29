// The fixed words of a task family: how a tier may be made harder than its parent, and the pass-rate band each
// tier must land in when an agent is gated on it (tier 0 easy for anyone capable, the last near impossible).
export const DIFFICULTY_METHODS = [
  "multi_step_reasoning",
  "conditional_rules",
  "cross_entity_coupling",
  "stricter_thresholds",
  "larger_db",
  "ambiguity_resolution",
  "tool_proliferation",
  "schema_extension",
  "noisy_instructions",
] as const;
export type DifficultyMethod = (typeof DIFFICULTY_METHODS)[number];

/** Distinct methods a family needs across its tiers. */
export const MIN_DISTINCT_METHODS = 5;

/** Episodes a measurement needs; fewer is refused unless forced, and a forced entry says so. */
export const GATE_RUNS = 20;

export interface Band {
  low: number;
  high: number;
}

const BANDS: readonly Band[] = [
  { low: 0.8, high: 1 },
  { low: 0.6, high: 0.8 },
  { low: 0.4, high: 0.6 },
  { low: 0.2, high: 0.4 },
  { low: 0, high: 0.2 },
];

/** Tiers past the fourth share its band: they are all meant to be near impossible. */
export function bandFor(tier: number): Band {
  return BANDS[Math.min(tier, BANDS.length - 1)];
}

export function inBand(value: number, b: Band): boolean {
  return value >= b.low - 1e-9 && value <= b.high + 1e-9;
}

export function showBand(b: Band): string {
  return b.high >= 1 ? `>= ${pct(b.low)}` : `${pct(b.low)}-${pct(b.high)}`;
}

export function pct(v: number): string {
  return `${Math.round(v * 1000) / 10}%`;
}
