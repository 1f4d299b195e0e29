// The comparison as one self-contained page (inline CSS and SVG, no script, a CSP that forbids any fetch), in the
// report's look: the verdict leads, then the suite's figures before and after with the change, a chart of the
// tasks that moved (each side's pass rate with its Wilson interval), the lists by evidence, and every task.
import { formatP, points, ratio } from "../compare/words";
import type { Comparison, TaskComparison, TaskSide } from "../compare/types";
import { formatMoney } from "../results/money";
import { esc } from "./escape";
import { intervalText, pct } from "./format";

const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";
const MAX_CHART_ROWS = 30;

export function renderCompareHtml(c: Comparison): string {
  return [
    "<!doctype html>",
    `<html lang="en"><head><meta charset="utf-8">`,
    `<meta http-equiv="Content-Security-Policy" content="${esc(CSP)}">`,
    `<meta name="viewport" content="width=device-width, initial-scale=1">`,
    `<title>${esc(`worlds compare · ${c.base.source} → ${c.new.source} · ${c.status}`)}</title><style>${STYLE}</style></head><body>`,
    header(c),
    verdict(c),
    suite(c),
    chart(c),
    lists(c),
    allTasks(c),
    footer(c),
    "</body></html>",
    "",
  ].join("\n");
}

function header(c: Comparison): string {
  const side = (label: string, s: Comparison["base"]) =>
    `<div class="side"><div class="label">${label}</div><div class="src">${esc(s.source)}</div><div class="meta">${esc(s.tasks_file)} · seed ${esc(s.seed)} · ${esc(s.mode)} · ${s.runs} run${s.runs === 1 ? "" : "s"} · ${s.keyed_tasks} keyed · ${esc(s.status.replace(/_/g, " "))}${s.generated_at ? ` · ${esc(s.generated_at)}` : ""}</div></div>`;
  return `<header><h1>Crash test comparison</h1><div class="sides">${side("base", c.base)}<div class="arrow">→</div>${side("new", c.new)}</div></header>`;
}

function verdict(c: Comparison): string {
  const how = c.level.correction === "none" ? "unadjusted" : `${c.level.correction === "holm" ? "Holm" : "Benjamini–Hochberg"} over ${c.level.tests} test${c.level.tests === 1 ? "" : "s"}`;
  const warnings = c.warnings.length ? `<ul class="warnings">${c.warnings.map((w) => `<li>${esc(w)}</li>`).join("")}</ul>` : "";
  return (
    `<section id="verdict" class="verdict status-${esc(c.status)}">` +
    `<div class="line"><span class="badge">${esc(c.status.replace(/_/g, " "))}</span><span class="exit">exit ${c.exit_code}</span><span class="level">α = ${c.level.alpha} · ${esc(how)} · paired by task over ${c.suite.tasks} task${c.suite.tasks === 1 ? "" : "s"}</span></div>` +
    `<p class="reason">${esc(c.reason)}</p><p class="label">next</p><pre class="cmd">${esc(c.next_action)}</pre>${warnings}</section>`
  );
}

function suite(c: Comparison): string {
  const s = c.suite;
  const money = (cents: number) => esc(formatMoney(Math.round(cents), c.base.currency));
  const signed = (cents: number) => (Math.round(cents) === 0 ? money(0) : cents > 0 ? `+${money(cents)}` : `−${money(-cents)}`);
  const rows = s.pass_hat_k.map(
    (p) =>
      `<tr><th scope="row">pass^${p.k}</th><td class="num">${pct(p.base.value)} <span class="iv">${intervalText(p.base)}</span></td><td class="num">${pct(p.new.value)} <span class="iv">${intervalText(p.new)}</span></td>` +
      `<td class="num ${tone(p.delta.value)}">${points(p.delta.value)} <span class="iv">[${points(p.delta.low).replace(/ pts$/, "")}, ${points(p.delta.high).replace(/ pts$/, "")}]</span></td></tr>`,
  );
  const d = s.dollars_wrong_per_run;
  if (d)
    rows.push(
      `<tr><th scope="row">dollars wrong per run</th><td class="num">${money(d.base.value)} <span class="iv">${money(d.base.low)}–${money(d.base.high)}</span></td><td class="num">${money(d.new.value)} <span class="iv">${money(d.new.low)}–${money(d.new.high)}</span></td>` +
        `<td class="num ${tone(-d.delta.value)}">${signed(d.delta.value)} <span class="iv">[${signed(d.delta.low)}, ${signed(d.delta.high)}]</span></td></tr>`,
    );
  const t = s.test;
  rows.push(
    `<tr><th scope="row">successes</th><td class="num">${ratio(s.successes.base)}</td><td class="num">${ratio(s.successes.new)}</td><td class="num">${t ? `p(worse) ${esc(formatP(t.p_worse))} · adjusted ${esc(formatP(t.p_worse_adjusted))}${t.significant ? ' <span class="tag bad">significant</span>' : ""}` : "one task: see below"}</td></tr>`,
  );
  return `<section id="suite"><h2>The suite</h2><table class="suite"><tr><th></th><th>base</th><th>new</th><th>change (95%)</th></tr>${rows.join("")}</table><p class="hint">Each side's pass^k interval is a Wilson interval over the effective number of trials (episodes clustered by task); the change's is a paired bootstrap over tasks. The exact tests decide the exit code.</p></section>`;
}

/** Each moved task's pass rate before (hollow) and after (filled) with its Wilson interval, on one 0–100% axis. */
function chart(c: Comparison): string {
  const ids = [...c.worse, ...c.better].slice(0, MAX_CHART_ROWS);
  if (ids.length === 0) return `<section id="chart"><h2>Tasks that moved</h2><p class="hint">No task's pass rate changed.</p></section>`;
  const byId = new Map(c.tasks.map((t) => [t.id, t]));
  const W = 760;
  const left = 170;
  const right = 24;
  const rowH = 26;
  const top = 28;
  const H = top + ids.length * rowH + 12;
  const x = (p: number) => left + p * (W - left - right);
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((p) => `<line class="grid" x1="${x(p)}" x2="${x(p)}" y1="${top - 6}" y2="${H - 8}"/><text x="${x(p)}" y="${top - 12}" text-anchor="middle">${p * 100}%</text>`).join("");
  const rows = ids.map((id, i) => {
    const t = byId.get(id)!;
    const y = top + i * rowH + rowH / 2;
    const bar = (s: TaskSide, dy: number, cls: string) =>
      s.interval ? `<line class="iv ${cls}" x1="${x(s.interval.low)}" x2="${x(s.interval.high)}" y1="${y + dy}" y2="${y + dy}"/><circle class="pt ${cls}" cx="${x(s.rate ?? 0)}" cy="${y + dy}" r="5"/>` : "";
    const label = t.id.length > 22 ? `${t.id.slice(0, 21)}…` : t.id;
    return `<g class="row ${t.change}"><text class="id" x="${left - 10}" y="${y + 4}" text-anchor="end">${esc(label)}</text>${bar(t.base!, -5, "base")}${bar(t.new!, 5, "new")}</g>`;
  });
  return (
    `<section id="chart"><h2>Tasks that moved</h2><figure><figcaption>Pass rate per task: hollow = base, filled = new, with 95% Wilson intervals; worse first.</figcaption>` +
    `<svg class="dumbbell" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="pass rate per task, base and new">${ticks}${rows.join("")}</svg></figure></section>`
  );
}

function lists(c: Comparison): string {
  const byId = new Map(c.tasks.map((t) => [t.id, t]));
  const table = (id: string, title: string, ids: string[], which: "worse" | "better" | "flaky") => {
    if (ids.length === 0) return `<section id="${id}"><h2>${title}</h2><p class="hint">None.</p></section>`;
    const rows = ids.map((tid) => {
      const t = byId.get(tid)!;
      const p = which === "better" ? t.p_better : t.p_worse;
      const adj = which === "better" ? t.p_better_adjusted : t.p_worse_adjusted;
      const sig = t.significant && (which !== "flaky" || t.significant === "worse") ? `<span class="tag ${t.significant === "worse" ? "bad" : "good"}">significant</span>` : "";
      return (
        `<tr><td class="id">${esc(t.id)}</td><td class="subject">${esc(t.subject)}</td><td class="pattern">${esc(t.base!.pattern)} → ${esc(t.new!.pattern)}</td>` +
        `<td class="num">${side(t.base!)}</td><td class="num">${side(t.new!)}</td><td class="num ${tone(t.delta ?? 0)}">${points(t.delta ?? 0)}</td><td class="num">${p === null ? "—" : esc(formatP(p))}</td><td class="num">${adj === null ? "—" : esc(formatP(adj))} ${sig}</td></tr>`
      );
    });
    return `<section id="${id}"><h2>${title} <span class="count">${ids.length}</span></h2><table class="tasks"><tr><th>task</th><th>subject</th><th>runs</th><th>base</th><th>new</th><th>change</th><th>p</th><th>adjusted</th></tr>${rows.join("")}</table></section>`;
  };
  return table("worse", "Worse, most evidence first", c.worse, "worse") + table("better", "Better, most evidence first", c.better, "better") + table("became-flaky", "Became flaky", c.became_flaky, "flaky");
}

function allTasks(c: Comparison): string {
  const rows = c.tasks.map((t) => {
    const cell = (s: TaskSide | null) => (s === null ? `<td class="num">—</td><td></td>` : `<td class="num">${s.rate === null ? "policy" : side(s)}</td><td class="pattern">${esc(s.pattern)}</td>`);
    const presence = t.presence === "both" ? (t.key_changed ? '<span class="tag warn">key changed</span>' : "") : `<span class="tag warn">${t.presence === "base_only" ? "base only" : "new only"}</span>`;
    return `<tr class="${esc(t.change ?? "none")}"><td class="id">${esc(t.id)} ${presence}</td>${cell(t.base)}${cell(t.new)}<td class="num">${t.p_worse === null ? "—" : esc(formatP(t.p_worse))}</td><td class="num">${t.p_better === null ? "—" : esc(formatP(t.p_better))}</td></tr>`;
  });
  return `<section id="tasks"><h2>Every task</h2><div class="scroll"><table class="tasks all"><tr><th>task</th><th>base</th><th>runs</th><th>new</th><th>runs</th><th>p(worse)</th><th>p(better)</th></tr>${rows.join("")}</table></div><p class="hint">✓ passed · ✗ failed · ! infrastructure error (left out of the counts) · · did not run</p></section>`;
}

function footer(c: Comparison): string {
  const m = c.method;
  return `<footer><p><b>Per task</b>: ${esc(m.task_test)}. <b>Suite</b>: ${esc(m.suite_test)}. <b>Intervals</b>: ${esc(m.rate_interval)} per task; ${esc(m.suite_interval)}; changes: ${esc(m.difference_interval)} (${m.resamples} resamples, key <code>${esc(m.key)}</code>). See docs/results.md.</p><p>tasks file sha256 <code>${esc(c.base.tasks_hash.slice(0, 16))}…</code> → <code>${esc(c.new.tasks_hash.slice(0, 16))}…</code> · ${esc(c.schema)}</p></footer>`;
}

function side(s: TaskSide): string {
  return `${ratio(s)} ${pct(s.rate)} <span class="iv">${intervalText(s.interval)}</span>`;
}

function tone(delta: number): string {
  return delta < 0 ? "bad" : delta > 0 ? "good" : "";
}

const STYLE = `
:root{--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--bg:#fff;--soft:#f6f8fa;--good:#1a7f37;--bad:#cf222e;--warn:#9a6700;--info:#0969da}
*{box-sizing:border-box}
body{margin:0 auto;max-width:1180px;padding:24px 28px 60px;font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--fg);background:var(--bg)}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;font-size:12.5px}
h1{font-size:22px;margin:0 0 8px}h2{font-size:17px;margin:30px 0 10px;padding-bottom:6px;border-bottom:1px solid var(--line)}
.count{font-size:13px;color:var(--muted);font-weight:400}
.sides{display:flex;gap:14px;align-items:stretch;flex-wrap:wrap}.side{flex:1 1 300px;border:1px solid var(--line);border-radius:8px;padding:8px 12px;background:var(--soft)}
.side .src{font-weight:600;overflow-wrap:anywhere}.side .meta{color:var(--muted);font-size:12.5px}.arrow{align-self:center;font-size:22px;color:var(--muted)}
.label{font-size:11px;text-transform:uppercase;letter-spacing:.06em;color:var(--muted)}
.verdict{margin-top:16px;border:1px solid var(--line);border-left:6px solid var(--muted);border-radius:8px;padding:16px 20px;background:var(--soft)}
.status-passed{border-left-color:var(--good)}.status-regressed{border-left-color:var(--bad)}.status-inconclusive{border-left-color:var(--warn)}
.verdict .line{display:flex;gap:12px;align-items:baseline;flex-wrap:wrap}
.badge{font-size:20px;font-weight:700;text-transform:uppercase;letter-spacing:.03em}
.status-passed .badge{color:var(--good)}.status-regressed .badge{color:var(--bad)}.status-inconclusive .badge{color:var(--warn)}
.exit,.level{color:var(--muted)}.exit{font-family:ui-monospace,monospace}
.reason{font-size:15px;margin:8px 0 10px;overflow-wrap:anywhere}
pre.cmd{margin:0;padding:8px 12px;background:#fff;border:1px solid var(--line);border-radius:6px;white-space:pre-wrap;overflow-wrap:anywhere}
.warnings{margin:10px 0 0;color:var(--warn)}
table{border-collapse:collapse;width:100%}th,td{border-bottom:1px solid var(--line);padding:6px 8px;text-align:left;vertical-align:top}
th{font-size:12px;color:var(--muted);font-weight:600;white-space:nowrap;background:var(--soft)}
table.suite th[scope=row]{background:none;color:var(--fg);font-size:13px}
td.num{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}td.id{font-weight:600;white-space:nowrap}
td.pattern{font-family:ui-monospace,monospace;letter-spacing:.08em;white-space:nowrap}td.subject{color:var(--muted)}
.iv{color:var(--muted);font-size:12px}.bad{color:var(--bad)}.good{color:var(--good)}
.tag{font-size:11px;font-weight:600;border:1px solid currentColor;border-radius:10px;padding:0 6px;white-space:nowrap}.tag.warn{color:var(--warn)}
.hint{color:var(--muted);font-size:12.5px}
figure{margin:0;border:1px solid var(--line);border-radius:8px;padding:10px 14px}figcaption{color:var(--muted);font-size:12.5px;margin-bottom:4px}
svg.dumbbell{max-width:100%;height:auto;display:block}svg text{font:12px system-ui,sans-serif;fill:var(--muted)}svg text.id{fill:var(--fg);font-weight:600}
svg .grid{stroke:#e6eaef;stroke-width:1}svg line.iv{stroke-width:3;stroke-linecap:round}
svg .iv.base{stroke:#8c959f}svg .iv.new{stroke:var(--info)}svg .pt.base{fill:#fff;stroke:#57606a;stroke-width:2}svg .pt.new{fill:var(--info);stroke:#fff;stroke-width:1.5}
svg .row.worse .pt.new{fill:var(--bad)}svg .row.worse .iv.new{stroke:rgba(207,34,46,.55)}svg .row.better .pt.new{fill:var(--good)}svg .row.better .iv.new{stroke:rgba(26,127,55,.55)}
.scroll{overflow-x:auto}
footer{margin-top:40px;color:var(--muted);font-size:12px;border-top:1px solid var(--line);padding-top:12px;overflow-wrap:anywhere}
`;
