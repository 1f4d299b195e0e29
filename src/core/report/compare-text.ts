// The comparison as `worlds compare` prints it (and `passk --baseline` after a run): the suite's figures before
// and after with the change and its interval, the tasks that moved (most evidence first), then the two contract
// lines, `status:` and `next:`, last, as every worlds command ends.
import { formatP, points, ratio } from "../compare/words";
import type { Comparison, TaskComparison, TaskSide } from "../compare/types";
import { formatMoney } from "../results/money";
import { intervalText, pct } from "./format";

const MAX_LISTED = 12;

export function renderCompareText(c: Comparison, opts: { contract?: boolean } = {}): string {
  const lines: string[] = [];
  const side = (s: Comparison["base"]) => `${s.source} (${s.runs} run${s.runs === 1 ? "" : "s"} · ${s.keyed_tasks} keyed task${s.keyed_tasks === 1 ? "" : "s"} · ${s.status})`;
  lines.push(`compare: base ${side(c.base)} → new ${side(c.new)}`);
  const how = c.level.correction === "none" ? "unadjusted" : `${c.level.correction === "holm" ? "Holm" : "Benjamini-Hochberg"} over ${c.level.tests} test${c.level.tests === 1 ? "" : "s"}`;
  lines.push(`paired by task over ${c.suite.tasks} task${c.suite.tasks === 1 ? "" : "s"} in both · exact tests (Boschloo per task, stratified for the suite) at ${c.level.alpha}, ${how}`);
  lines.push("", ...suiteTable(c));

  const byId = new Map(c.tasks.map((t) => [t.id, t]));
  const list = (title: string, ids: string[], row: (t: TaskComparison) => string) => {
    if (ids.length === 0) return;
    lines.push("", `${title} (${ids.length})${ids.length > 1 ? ", most evidence first" : ""}:`);
    for (const id of ids.slice(0, MAX_LISTED)) lines.push(`  ${row(byId.get(id)!)}`);
    if (ids.length > MAX_LISTED) lines.push(`  … ${ids.length - MAX_LISTED} more in the JSON or the report`);
  };
  const width = Math.max(4, ...c.tasks.map((t) => oneLine(t.id).length));
  const moved = (t: TaskComparison, p: number, adj: number) =>
    `${oneLine(t.id).padEnd(width)}  ${t.base!.pattern} → ${t.new!.pattern}  ${rate(t.base!)} → ${rate(t.new!)}  p = ${formatP(p)}, adjusted ${formatP(adj)}${t.significant ? `  significant${t.significant === "worse" ? " regression" : ""}` : ""}`;
  list("worse", c.worse, (t) => moved(t, t.p_worse!, t.p_worse_adjusted!));
  list("better", c.better, (t) => moved(t, t.p_better!, t.p_better_adjusted!));
  list("became flaky", c.became_flaky, (t) => `${oneLine(t.id).padEnd(width)}  ${t.base!.pattern} → ${t.new!.pattern}`);
  const same = c.tasks.filter((t) => t.change === "same").length;
  if (same > 0) lines.push("", `unchanged: ${same} task${same === 1 ? "" : "s"}`);
  if (c.warnings.length > 0) lines.push("", "warnings:", ...c.warnings.map((w) => `  ${oneLine(w)}`));
  if (opts.contract !== false) lines.push("", `status: ${c.status} (exit ${c.exit_code}) — ${oneLine(c.reason)}`, `next: ${oneLine(c.next_action)}`);
  return lines.join("\n") + "\n";
}

function suiteTable(c: Comparison): string[] {
  const s = c.suite;
  const money = (cents: number) => formatMoney(Math.round(cents), c.base.currency);
  const rows: string[][] = [["suite", "base", "new", "change (95%)"]];
  for (const p of s.pass_hat_k) rows.push([`pass^${p.k}`, band(p.base), band(p.new), `${points(p.delta.value)} [${signedPoints(p.delta.low)}, ${signedPoints(p.delta.high)}]`]);
  const d = s.dollars_wrong_per_run;
  if (d) rows.push(["dollars wrong per run", `${money(d.base.value)} [${money(d.base.low)}–${money(d.base.high)}]`, `${money(d.new.value)} [${money(d.new.low)}–${money(d.new.high)}]`, `${signedMoney(d.delta.value, money)} [${signedMoney(d.delta.low, money)}, ${signedMoney(d.delta.high, money)}]`]);
  const t = s.test;
  rows.push(["successes", ratio(s.successes.base), ratio(s.successes.new), t ? `p(worse) = ${formatP(t.p_worse)}, adjusted ${formatP(t.p_worse_adjusted)}${t.significant ? "  significant regression" : ""}` : "one task: its own test below"]);
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i])).join("  ").trimEnd());
}

function band(b: { value: number; low: number; high: number }): string {
  return `${pct(b.value)} [${intervalText(b)}]`;
}

function rate(s: TaskSide): string {
  return `${ratio(s)} ${pct(s.rate)} [${intervalText(s.interval)}]`;
}

function signedPoints(x: number): string {
  return points(x).replace(/ pts$/, "");
}

function signedMoney(cents: number, money: (c: number) => string): string {
  const r = Math.round(cents);
  return r === 0 ? money(0) : r > 0 ? `+${money(r)}` : `−${money(-r)}`;
}

/** One printable line: a task id or a warning could carry newlines or terminal escapes. */
function oneLine(s: string): string {
  return s.replace(/[\s\u0000-\u001f\u007f-\u009f]+/g, " ").trim();
}
