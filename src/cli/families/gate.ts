// Running tiers and deciding on them: `worlds family gate` (bands, falling rates, no 0% or 100%, the pass rates
// written back) and `worlds passk --family` (the whole family run like a tasks file, the curve in the report).
// Both build the shared results document; the gate then decides the status from the bands, as --gate does.
import { buildResults } from "../../core/results/index";
import { EXIT_CODES } from "../../core/results/decide";
import type { Results } from "../../core/results/types";
import { renderText } from "../../core/report/index";
import { curveText, gateRates, type FamilyGate, type TierRate } from "../../core/families/gate";
import type { PassRate } from "../../core/families/schema";
import { GATE_RUNS } from "../../core/families/vocabulary";
import { writeOutputs } from "../results/write";
import type { ConnectedServer } from "../server/connect";
import type { Interrupt } from "../signals";
import type { InProcessAgent } from "../episode/in-process";
import type { LoadedFamily, LoadedTier } from "./load";
import { recordPassRate } from "./record";
import { buildFamilyInput, runFamily } from "./run";

export interface TierRunSpec {
  fam: LoadedFamily;
  tiers: LoadedTier[];
  runs: number;
  argv: readonly string[];
  inProcess?: InProcessAgent;
  agentFlags?: string[];
  server: ConnectedServer;
  concurrency: number;
  timeoutMs: number;
  interrupt: Interrupt;
  sourceFlags: string[];
  replayFlags: string[];
  command: string[];
  quiet?: boolean;
}

export async function runTiers(s: TierRunSpec): Promise<Results> {
  const total = s.tiers.length * s.runs;
  const episodes = await runFamily({
    tiers: s.tiers, runs: s.runs, argv: s.argv, inProcess: s.inProcess, server: s.server, concurrency: s.concurrency, timeoutMs: s.timeoutMs, signal: s.interrupt.signal,
    onEpisode: s.quiet ? undefined : (done) => process.stderr.write(`\r  ${done}/${total} episodes`),
  });
  if (!s.quiet) process.stderr.write("\n");
  return buildResults(await buildFamilyInput({ fam: s.fam, tiers: s.tiers, runs: s.runs, argv: s.argv, agentFlags: s.agentFlags, serverFlags: s.server.flags, serverEnv: s.server.env, sourceFlags: s.sourceFlags, replayFlags: s.replayFlags, command: s.command, episodes: episodes, interrupted: s.interrupt.received() ?? null }));
}

/** Each tier's measured rate from the results: the crash test's per-task counts (tiers are its tasks). */
export function measuredRates(results: Results, tiers: LoadedTier[]): TierRate[] {
  return tiers.map((t, i) => {
    const stats = results.crash_test?.tasks.find((x) => x.position === i + 1);
    return { tier: t.doc.tier, name: t.folder, passed: stats?.passed ?? 0, trials: stats?.trials ?? 0 };
  });
}

/** The rates other tiers recorded for the same agent (any k), so one tier's gate still checks its neighbours. */
export function recordedRates(fam: LoadedFamily, exclude: LoadedTier[], solver: PassRate["solver"], model: string): TierRate[] {
  const out: TierRate[] = [];
  for (const t of fam.tiers) {
    if (exclude.includes(t)) continue;
    const e = [...t.doc.pass_rates].reverse().find((p) => p.solver === solver && p.model === model);
    if (e) out.push({ tier: t.doc.tier, name: t.folder, passed: Math.round(e.value * e.k), trials: e.k, recorded: true });
  }
  return out;
}

/** The gate's word on a run whose verdicts can be trusted; an inconclusive or interrupted run keeps its status. */
export function applyGate(results: Results, gate: FamilyGate, recording: boolean): Results {
  if (results.status !== "passed" && results.status !== "policy_failed") return results;
  const status = gate.passed ? "passed" : "policy_failed";
  const reason = gate.passed
    ? `every tier in its band, rates falling, none at 0% or 100%: ${gate.tiers.filter((t) => !t.recorded).map((t) => `tier ${t.tier} ${Math.round(t.value * 1000) / 10}%`).join(", ")}`
    : gate.problems.map((p) => p.message).join("; ");
  const next_action = gate.passed
    ? recording
      ? "nothing to do: the measured rates are written to the tiers' pass_rates"
      : "nothing to do (--no-record: the measured rates were not written)"
    : gate.problems.some((p) => p.check === "band" || p.check === "full" || p.check === "zero")
      ? "tighten a tier above its band (another constraint, a larger seed) or relax one below it, then gate it again"
      : "make each tier harder than the one before it, then gate the family again";
  return { ...results, status, reason, next_action, exit_code: EXIT_CODES[status] };
}

export function writeBack(tiers: LoadedTier[], rates: TierRate[], entry: Omit<PassRate, "value" | "k">): string[] {
  const written: string[] = [];
  for (const t of tiers) {
    const r = rates.find((x) => x.name === t.folder);
    if (!r || r.trials === 0) continue;
    written.push(recordPassRate(t, { ...entry, k: r.trials, value: Math.round((r.passed / r.trials) * 1e6) / 1e6 }));
  }
  return written;
}

/** The text report with the curve (and the gate's findings) placed just before its status lines. */
export function familyText(results: Results, gate: FamilyGate): string {
  const text = renderText(results);
  const cut = text.lastIndexOf("\nstatus: ");
  const extra = curveText(gate) + gate.problems.map((p) => `  ✗ ${p.tier} ${p.check}: ${p.message}\n`).join("");
  return cut < 0 ? text + extra : `${text.slice(0, cut + 1)}\n${extra}\n${text.slice(cut + 1)}`;
}

export function outputs(results: Results, paths: { "json-file"?: string; report?: string; junit?: string }): string[] {
  return writeOutputs(results, paths);
}
