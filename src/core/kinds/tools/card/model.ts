// The card of a tools run, as data: what it was measured on, each dial's levels against its first (strict pass@1
// with Wilson intervals, episodes kept), what it does not claim, the run it names, and the episodes of the arm
// where the agent broke most. Pure: built from the run folder's record and its traced episodes, nothing else, so
// the same folder gives the same card.
import { wilson, type Interval } from "../../../stats/wilson";
import { FORMAT_LABEL, type ToolFormat } from "../formats/raw";
import type { EpisodeTrace, ToolsRunRecord } from "./record";

export type { EpisodeTrace, ToolsRunRecord };

export interface CardRow {
  arm: string;
  label: string;
  passed: number;
  kept: number;
  rate: number | null;
  interval: Interval | null;
  /** Rate minus the first level's; null on the first level, without episodes, or for task forms (no dial). */
  delta: number | null;
  /** The two 95% intervals do not overlap: a difference this run's episodes can tell from chance. */
  apart: boolean;
}

export interface CardDial {
  /** The dial's name; null for the task forms of a run without `measure:`, which are not levels of anything. */
  dial: string | null;
  rows: CardRow[];
}

export interface CardEpisode extends EpisodeTrace {
  request: string;
}

export interface ToolsCard {
  headline: string;
  dials: CardDial[];
  notClaimed: string[];
  run: { name: string; agent: string; runs: number; dollars: number | null; budget: number | null; kept: number; total: number };
  published: string;
  /** Every episode of the arm with the lowest pass rate (failures first); null when every kept episode passed. */
  worst: { arm: string; label: string; dial: string | null; rate: number; episodes: CardEpisode[] } | null;
}

function row(arm: string, label: string, eps: EpisodeTrace[], first: CardRow | null): CardRow {
  const passed = eps.filter((e) => e.verdict === "passed").length;
  const rate = eps.length ? passed / eps.length : null;
  const interval = eps.length ? wilson(passed, eps.length) : null;
  const comparable = first !== null && rate !== null && first.rate !== null && first.interval !== null && interval !== null;
  return {
    arm,
    label,
    passed,
    kept: eps.length,
    rate,
    interval,
    delta: comparable ? rate - first.rate! : null,
    apart: comparable ? interval.high < first.interval!.low || interval.low > first.interval!.high : false,
  };
}

/** `name` is how the card names the run: the folder's own name, so the card does not depend on where it is read from. */
export function buildCard(name: string, r: ToolsRunRecord, episodes: readonly EpisodeTrace[]): ToolsCard {
  const taskOf = new Map(r.tasks.map((t) => [t.id, t]));
  const byArm = new Map<string, EpisodeTrace[]>();
  for (const e of episodes) {
    const arm = taskOf.get(e.task)!.arm;
    byArm.set(arm, [...(byArm.get(arm) ?? []), e]);
  }
  // Dials and their levels in the order the run's tasks list them: the generator's order, first level first.
  const groups = new Map<string | null, Array<{ arm: string; label: string }>>();
  for (const t of r.tasks) {
    const key = t.dial?.name ?? null;
    const list = groups.get(key) ?? [];
    if (!list.some((x) => x.arm === t.arm)) list.push({ arm: t.arm, label: t.dial?.label ?? t.arm });
    groups.set(key, list);
  }
  const dials: CardDial[] = [...groups].map(([dial, arms]) => {
    const rows: CardRow[] = [];
    for (const a of arms) rows.push(row(a.arm, a.label, byArm.get(a.arm) ?? [], dial === null ? null : (rows[0] ?? null)));
    return { dial, rows };
  });

  let worst: ToolsCard["worst"] = null;
  for (const d of dials)
    for (const x of d.rows)
      if (x.rate !== null && x.rate < 1 && (!worst || x.rate < worst.rate)) {
        const eps = byArm.get(x.arm)!.map((e) => ({ ...e, request: taskOf.get(e.task)!.request }));
        worst = { arm: x.arm, label: x.label, dial: d.dial, rate: x.rate, episodes: [...eps.filter((e) => e.verdict !== "passed"), ...eps.filter((e) => e.verdict === "passed")] };
      }

  const format = FORMAT_LABEL[r.format as ToolFormat] ?? `a ${r.format} file`;
  return {
    headline: `Measured on your tools (${r.set.name}, ${r.set.tools} tools from ${format}), with responses simulated from your schemas. Your backend was never called.`,
    dials,
    notClaimed: notClaimed(r.tasks.every((t) => t.intents)),
    run: { name, agent: r.agent, runs: r.runs, dollars: r.dollars, budget: r.budget_dollars, kept: r.episodes.kept, total: r.episodes.total },
    published: "Beside the published cards: different tasks, so none of this card's figures reads against theirs.",
    worst,
  };
}

function notClaimed(intents: boolean): string[] {
  return [
    "Nothing about your real tools' answers, errors or latency, or about your app: every answer here was simulated from your schemas.",
    "No comparison with published cards or with runs on worlds' built-in tasks: the tasks differ.",
    "Within this card, levels compare with each other; two cards compare only when the tool file, the settings and the seeds are the same.",
    ...(intents ? [] : ["Not every tool has an intent line, so the requests used the tools' descriptions: choosing a tool was partly a word match with them."]),
    "A dial that shows no effect here may still matter in your app, and the reverse.",
  ];
}

/** Why two runs' cards cannot stand side by side, in one line; null when the tool file, the settings and the seed all match. */
export function compareVerdict(a: ToolsRunRecord, b: ToolsRunRecord): string | null {
  const diffs: string[] = [];
  if (a.sha256 !== b.sha256) diffs.push(`tool file (sha256 ${a.sha256.slice(0, 12)} vs ${b.sha256.slice(0, 12)})`);
  if (a.settings_sha256 !== b.settings_sha256) {
    const keys = [...new Set([...Object.keys(a.settings), ...Object.keys(b.settings)])].sort().filter((k) => k !== "seed" && JSON.stringify(a.settings[k]) !== JSON.stringify(b.settings[k]));
    if (keys.length) diffs.push(`settings (${keys.join(", ")})`);
  }
  if (a.seed !== b.seed) diffs.push(`seeds (${a.seed} vs ${b.seed})`);
  return diffs.length ? `different ${diffs.join(", ")}: the two cards do not compare, so neither is laid beside the other` : null;
}

export const pct = (x: number | null) => (x === null ? "–" : `${Math.round(x * 100)}%`);
export const points = (x: number) => `${x >= 0 ? "+" : "−"}${Math.abs(Math.round(x * 100))} pts`;
export const intervalText = (r: CardRow) => (r.interval ? `${pct(r.interval.low)}–${pct(r.interval.high)}` : "–");
/** The cell against the first level: its difference, and whether the intervals keep apart. */
export function againstFirst(d: CardDial, r: CardRow, i: number): string {
  if (d.dial === null) return "(a task form, not a level)";
  if (i === 0) return "(first level)";
  if (r.delta === null) return "–";
  return `${points(r.delta)}${r.apart ? ", intervals apart" : ", intervals overlap"}`;
}
export const dollarsLine = (c: ToolsCard) =>
  c.run.dollars === null ? "no model spend recorded (the agent was a command)" : `$${c.run.dollars.toFixed(4)} spent${c.run.budget !== null ? ` of a $${c.run.budget.toFixed(4)} cap` : ""}`;
export const runLine = (c: ToolsCard) =>
  `${c.run.name}: agent ${c.run.agent}, ${c.run.runs} ${c.run.runs === 1 ? "repetition" : "repetitions"} of each task; ${dollarsLine(c)}; ${c.run.kept} of ${c.run.total} episodes kept`;
