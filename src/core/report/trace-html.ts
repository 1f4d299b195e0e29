// The agent's calls in the HTML report: one table row per call (surface, method and target, arguments, answer),
// each change it caused linked to its row in the diff table, and each diff row linked back to the calls that
// made it. Failed trials show the table open; passed ones in a closed <details> (no script: the page's CSP has none).
import type { Results, RunResult, WorldResult } from "../results/types";
import type { TraceStep } from "../results/trace";
import { esc } from "./escape";
import { traceOf } from "./format";

export function stepAnchor(run: number, position: number, seq: number): string {
  return `t-${run}-${position}-${seq}`;
}

export function diffAnchor(run: number, position: number, change: string): string {
  return `d-${run}-${position}-${change.replace(/[^A-Za-z0-9_-]+/g, "-")}`;
}

/** The calls table for one trial; `linked` are the changes the diff table beside it shows (those get a link). */
export function traceTable(run: RunResult, w: WorldResult, linked: ReadonlySet<string>): string {
  const trace = traceOf(run, w);
  if (!trace) return "";
  const shared = w.trace === null ? ' <span class="hint">(the shift\'s world, shared by its tasks)</span>' : "";
  const cut = trace.total > trace.steps.length ? ` <span class="hint">${trace.steps.length} of ${trace.total} shown: every call that changed something or was refused, then the earliest</span>` : "";
  if (trace.steps.length === 0) return `<h4>Calls${shared}</h4><p class="hint">The agent made no call to the world.</p>`;
  const rows = trace.steps.map((s) => stepRow(run.index, w.position, s, linked));
  return (
    `<h4>Calls <span class="hint">${trace.total} in order</span>${shared}${cut}</h4>` +
    `<div class="scroll"><table class="trace"><tr><th>#</th><th>surface</th><th>call</th><th>arguments</th><th>answer</th><th>changed</th></tr>${rows.join("")}</table></div>`
  );
}

function stepRow(run: number, position: number, s: TraceStep, linked: ReadonlySet<string>): string {
  const tone = s.status >= 400 ? "bad" : s.changes.length > 0 ? "changed" : "";
  const changes = s.changes.map((c) => (linked.has(c) ? `<a href="#${esc(diffAnchor(run, position, c))}"><code>${esc(c)}</code></a>` : `<code>${esc(c)}</code>`)).join("<br>");
  const within = s.within !== null ? ` <span class="hint" title="made by the tool call #${s.within}">↳</span>` : "";
  return (
    `<tr id="${esc(stepAnchor(run, position, s.seq))}" class="${tone}"><td class="num">${s.seq}</td><td><span class="surface s-${esc(s.surface)}">${esc(s.surface)}</span></td>` +
    `<td>${within}<code>${esc(s.method)} ${esc(s.target)}</code></td><td><code class="json">${esc(s.args)}</code></td>` +
    `<td><span class="status">${s.status}</span> ${esc(s.answer)}</td><td>${changes}</td></tr>`
  );
}

/** The calls that made a diff entry (`op type id`), as links for its row in the diff table. */
export function callLinks(run: RunResult, w: WorldResult, change: string): string {
  const trace = traceOf(run, w);
  if (!trace) return "";
  return trace.steps
    .filter((s) => s.changes.includes(change))
    .map((s) => `<a href="#${esc(stepAnchor(run.index, w.position, s.seq))}">#${s.seq}</a>`)
    .join(" ");
}

/** Passed trials' calls, each closed until opened: what a passing agent did is the baseline for a failing one. */
export function passedTraces(r: Results): string {
  const items = r.runs.flatMap((run) =>
    run.worlds
      .filter((w) => w.passed === true && w.trace)
      .map((w) => `<details class="passed-trace" id="p-${run.index}-${w.position}"><summary>Run ${run.index} · ${esc(w.task)} · passed · ${w.trace!.total} call${w.trace!.total === 1 ? "" : "s"}</summary>${traceTable(run, w, new Set())}</details>`),
  );
  return items.length ? `<section id="passed-calls"><h2>Calls of passed trials</h2>${items.join("")}</section>` : "";
}

export const TRACE_STYLE = `
table.trace td{font-size:12.5px}table.trace tr.changed td{background:#fff8e6}table.trace tr.bad td .status{color:var(--bad);font-weight:600}
.surface{font-size:11px;font-weight:600;border:1px solid var(--line);border-radius:10px;padding:0 6px;white-space:nowrap}
.s-billing{color:#0969da}.s-desk{color:#8250df}.s-mcp,.s-tool{color:#1a7f37}.s-person{color:#9a6700}
details.passed-trace{border:1px solid var(--line);border-radius:8px;padding:6px 12px;margin:8px 0}details.passed-trace summary{cursor:pointer}
tr:target td{background:#ddf4ff}
`;
