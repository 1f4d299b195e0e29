// A gate is met only when the whole interval clears it: pass^K's lower bound at or above the threshold, the money
// wrong per run's upper bound at or below its limit. A lucky run of a weak agent (five tasks, three runs, all
// passed) does not clear pass^3 >= 0.8, and the gate says how many runs would settle it. Both intervals treat the
// task as the unit, because a task's episodes share an agent and a ticket and are not independent:
// - pass^K: the Wilson interval over the effective number of trials (stats/cluster.ts);
// - dollars wrong per run: a percentile cluster bootstrap over tasks with a keyed generator (stats/bootstrap.ts).
import { BOOTSTRAP_KEY, BOOTSTRAP_RESAMPLES, drawTasks, percentileInterval, resampled } from "../stats/bootstrap";
import { decideAgainst, MAX_PROJECTED_RUNS, runsToDecide, suitePassHatInterval } from "../stats/cluster";
import { Z_95 } from "../stats/wilson";
import { formatMoney, minorPerMajor } from "../results/money";
import { meanPerRun, trialTable, type ResultsLike } from "../results/trials";
import type { Gate } from "./parse";

export type GateOutcome = "passed" | "failed" | "undecided";

export interface GateResult {
  gate: string;
  metric: "pass^k" | "dollars_wrong";
  k: number | null;
  op: ">=" | ">" | "<=" | "<";
  /** A probability for pass^k; minor units (cents) per run for dollars_wrong. */
  threshold: number;
  value: number | null;
  low: number | null;
  high: number | null;
  /** The bound that must clear the threshold: the lower for pass^k, the upper for money. */
  decided_on: "low" | "high";
  outcome: GateOutcome;
  /** The fewest runs any task had: what the figure rests on. */
  runs: number;
  /** When undecided: the runs (--runs) that would decide it if the rates held; null when runs alone cannot. */
  runs_needed: number | null;
  interval: string;
  reason: string;
}

export interface GateInputs extends ResultsLike {
  currency: string;
}

export function evaluateGates(doc: GateInputs, gates: readonly Gate[], key: string = BOOTSTRAP_KEY): GateResult[] {
  return gates.map((g) => (g.metric === "pass^k" ? passGate(doc, g) : moneyGate(doc, g, key)));
}

function passGate(doc: GateInputs, g: Extract<Gate, { metric: "pass^k" }>): GateResult {
  const tasks = doc.crash_test.tasks.filter((t) => t.keyed && t.trials > 0).map((t) => ({ n: t.trials, c: t.passed }));
  const runs = tasks.length ? Math.min(...tasks.map((t) => t.n)) : 0;
  const base = { gate: g.text, metric: g.metric, k: g.k, op: g.op, threshold: g.threshold, decided_on: "low" as const, runs, interval: "Wilson over the effective number of trials, clustered by task, 95%" };
  const band = suitePassHatInterval(tasks, g.k);
  if (!band) {
    const why = tasks.length === 0 ? "no keyed task ran" : `pass^${g.k} needs every keyed task to run ${g.k} times; the fewest any ran is ${runs}`;
    return { ...base, value: null, low: null, high: null, outcome: "undecided", runs_needed: tasks.length ? g.k : null, reason: why };
  }
  const outcome = decideAgainst(band, g.op, g.threshold);
  const needed = outcome === "undecided" ? runsToDecide(tasks, g.k, g.op, g.threshold) : null;
  const pct = (x: number) => `${(Math.round(x * 1000) / 10).toString()}%`;
  const thr = pct(g.threshold);
  const fig = `pass^${g.k} ${pct(band.value)} [${pct(band.low)}–${pct(band.high)}] over ${tasks.length} task${tasks.length === 1 ? "" : "s"}`;
  const reason =
    outcome === "passed"
      ? `${fig}: the lower bound clears ${thr}`
      : outcome === "failed"
        ? `${fig}: even the upper bound is below ${thr}`
        : `${fig}: the lower bound is below ${thr} and the upper is not, so these runs cannot tell; ${needed ? `about ${needed} runs would decide if the rates held` : `more runs alone would not decide (the tasks differ among themselves, or the estimate sits on ${thr}): add tasks`}`;
  return { ...base, value: round6(band.value), low: round6(band.low), high: round6(band.high), outcome, runs_needed: needed, reason };
}

function moneyGate(doc: GateInputs, g: Extract<Gate, { metric: "dollars_wrong" }>, key: string): GateResult {
  const table = trialTable(doc);
  const per = table.tasks.map((t) => t.dollars_per_run).filter((d) => d.length > 0);
  const runs = per.length ? Math.min(...per.map((d) => d.length)) : 0;
  const limit = Math.round(g.threshold_major * minorPerMajor(doc.currency));
  const money = (c: number) => formatMoney(Math.round(c), doc.currency);
  const base = { gate: g.text, metric: g.metric, k: null, op: g.op, threshold: limit, decided_on: "high" as const, runs, interval: "percentile cluster bootstrap over tasks, 95%" };
  if (per.length === 0) return { ...base, value: null, low: null, high: null, outcome: "undecided", runs_needed: null, reason: "no task ran" };
  const m = per.map(meanPerRun);
  const residual = meanPerRun(table.residual_per_run);
  const value = sum(m) + residual;
  const draws = drawTasks(m.length, BOOTSTRAP_RESAMPLES, `${key}|gate-money`);
  const i = percentileInterval(resampled(m, draws, "sum"));
  const band = { low: i.low + residual, high: i.high + residual };
  const outcome = decideMoney(band, g.op, limit);
  const needed = outcome === "undecided" ? moneyRunsToDecide(per, value, g.op, limit) : null;
  const fig = `dollars wrong per run ${money(value)} [${money(band.low)}–${money(band.high)}]`;
  const reason =
    outcome === "passed"
      ? `${fig}: the upper bound is within ${money(limit)}`
      : outcome === "failed"
        ? `${fig}: even the lower bound is over ${money(limit)}`
        : `${fig}: the upper bound is over ${money(limit)} and the lower is not, so these runs cannot tell; ${needed ? `about ${needed} runs would decide if the amounts held` : "more runs alone would not decide: add tasks"}`;
  return { ...base, value: Math.round(value), low: Math.round(band.low), high: Math.round(band.high), outcome, runs_needed: needed, reason };
}

function decideMoney(i: { low: number; high: number }, op: "<=" | "<", limit: number): GateOutcome {
  if (op === "<=" ? i.high <= limit : i.high < limit) return "passed";
  if (op === "<=" ? i.low > limit : i.low >= limit) return "failed";
  return "undecided";
}

/**
 * The normal approximation to the bootstrap's width, with the variance split as for pass^k: between tasks (fixed)
 * and within a task across runs (shrinks as 1/runs). Only used to say "about N runs".
 */
function moneyRunsToDecide(per: number[][], value: number, op: "<=" | "<", limit: number): number | null {
  const T = per.length;
  const m = per.map(meanPerRun);
  const within = meanOf(per.map((d) => sampleVariance(d)));
  const R = Math.min(...per.map((d) => d.length));
  const between = Math.max(0, sampleVariance(m) - within / R);
  for (let runs = R + 1; runs <= MAX_PROJECTED_RUNS; runs++) {
    const h = Z_95 * Math.sqrt(T * (between + within / runs));
    if (decideMoney({ low: value - h, high: value + h }, op, limit) !== "undecided") return runs;
  }
  return null;
}

function sampleVariance(xs: readonly number[]): number {
  if (xs.length < 2) return 0;
  const mu = meanOf(xs);
  let s = 0;
  for (const x of xs) s += (x - mu) ** 2;
  return s / (xs.length - 1);
}

function meanOf(xs: readonly number[]): number {
  return xs.length ? sum(xs) / xs.length : 0;
}

function sum(xs: readonly number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return s;
}

function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
