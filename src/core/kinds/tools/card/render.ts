// The card in markdown and as one self-contained HTML page (no scripts, nothing fetched): the headline, each
// dial's table against its first level, what it does not claim, the run it names, and the episodes of the arm
// where the agent broke most, each call with its arguments and the simulated answer, and the last reply. Two
// cards that compare are laid side by side, each whole; nothing is pooled across them.
import { esc } from "../../../report/escape";
import { againstFirst, intervalText, pct, runLine, type CardDial, type CardEpisode, type CardRow, type ToolsCard } from "./model";

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}… (${s.length - n} more characters)` : s);
const dialTitle = (d: CardDial) => (d.dial === null ? "Task forms" : `Dial: ${d.dial}`);
const worstTitle = (w: NonNullable<ToolsCard["worst"]>) => `${w.dial === null ? w.label : `${w.dial} at ${w.label}`} (${pct(w.rate)} passed)`;
const HEAD = ["level", "passed", "strict pass@1", "95% interval", "against the first level", "episodes kept"];

// Markdown: text from the run (requests, arguments, answers, replies) is put where markdown cannot read it as markup.
// Raw HTML is markdown too: what came from a tool file or an agent has its angle brackets written as entities.
const text = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const cell = (s: string) => text(s).replace(/\\/g, "\\\\").replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
const longestTicks = (s: string) => Math.max(0, ...(s.match(/`+/g) ?? []).map((m) => m.length));
function code(s: string): string {
  const flat = s.replace(/\r?\n/g, " ");
  const fence = "`".repeat(longestTicks(flat) + 1);
  return `${fence} ${flat} ${fence}`;
}
const fenced = (s: string) => {
  const fence = "`".repeat(Math.max(3, longestTicks(s) + 1));
  return [fence, s, fence];
};
const quote = (s: string) => text(s).split(/\r?\n/).map((l) => `> ${l}`);

function markdownDial(d: CardDial): string[] {
  return [`## ${dialTitle(d)}`, "", `| ${HEAD.join(" | ")} |`, `|${HEAD.map(() => "---").join("|")}|`, ...d.rows.map((r, i) => `| ${cell(r.label)} | ${r.passed} | ${pct(r.rate)} | ${intervalText(r)} | ${againstFirst(d, r, i)} | ${r.kept} |`), ""];
}

function markdownEpisode(e: CardEpisode): string[] {
  const out = [`### ${cell(e.task)} · run ${e.run} · ${e.verdict}`, "", ...quote(e.request), ""];
  if (!e.calls.length) out.push("No calls.", "");
  e.calls.forEach((c, i) => out.push(`${i + 1}. ${code(c.name)} → ${c.status}`, `   - arguments: ${code(clip(c.arguments, 600))}`, `   - simulated answer: ${code(clip(c.response, 600))}`));
  if (e.calls.length) out.push("");
  out.push("Last reply:", "", ...(e.reply ? fenced(clip(e.reply, 2000)) : ["(none)"]), "");
  return out;
}

/** The card; with `episodes: false` (beside another card) the worst arm is named but its episodes stay in the run's own card. */
export function cardMarkdown(c: ToolsCard, o: { episodes?: boolean } = {}): string {
  const out = [`# The card on your tools`, "", text(c.headline), ""];
  for (const d of c.dials) out.push(...markdownDial(d));
  out.push("## What this card does not claim", "", ...c.notClaimed.map((l) => `- ${l}`), "", "## The run", "", text(runLine(c)), "", c.published, "");
  if (!c.worst) out.push("## Where it broke most", "", "Nowhere: every kept episode passed.", "");
  else if (o.episodes === false) out.push("## Where it broke most", "", `${text(worstTitle(c.worst))}: its ${c.worst.episodes.length} episodes are in this run's own card.`, "");
  else {
    out.push(`## Where it broke most: ${text(worstTitle(c.worst))}`, "", `Every episode of that arm, failures first: each call with its arguments and the simulated answer, and the agent's last reply, from the run's traces.`, "");
    for (const e of c.worst.episodes) out.push(...markdownEpisode(e));
  }
  return out.join("\n");
}

/** Both cards, each whole, one after the other; the line above them says they compare and why. */
export function compareMarkdown(a: ToolsCard, b: ToolsCard): string {
  return [`# Two cards on your tools, side by side`, "", `Same tool file, settings and seeds: ${a.run.name} and ${b.run.name}. Each card stands on its own episodes; nothing is pooled.`, "", cardMarkdown(a, { episodes: false }).replace(/^# .*\n/, `# ${a.run.name}\n`), "---", "", cardMarkdown(b, { episodes: false }).replace(/^# .*\n/, `# ${b.run.name}\n`)].join("\n");
}

const STYLE = `*{box-sizing:border-box}body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1d2330;background:#fff}
main{max-width:1040px;margin:0 auto;padding:1.5rem 1rem 3rem}main.compare{max-width:1600px}
h1{font-size:1.6rem;margin:0 0 1rem}h2{font-size:1.15rem;margin:1.8rem 0 .6rem;border-bottom:1px solid #dde;padding-bottom:.2rem}h4{margin:.3rem 0 .1rem;font-size:.8rem;color:#555;text-transform:uppercase;letter-spacing:.03em}
.headline{font-size:1.05rem;background:#eef3fb;border-left:4px solid #4a78c2;padding:.8rem 1rem;border-radius:4px;margin:0}
.table-wrap{overflow-x:auto}table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.35rem .55rem;border-bottom:1px solid #e6e8ee;vertical-align:middle}td{overflow-wrap:anywhere}
th{font-size:.8rem;color:#555;font-weight:600;overflow-wrap:normal}td.n{font-variant-numeric:tabular-nums;white-space:nowrap}
.meter{position:relative;display:block;width:100%;min-width:60px;height:.8rem;background:#f0f1f5;border-radius:3px;margin-top:.15rem}
.meter .range{position:absolute;top:0;bottom:0;background:#b9cbea;border-radius:3px}.meter .rate{position:absolute;top:-.15rem;bottom:-.15rem;width:3px;margin-left:-1px;background:#1f4e9c}
.worse{color:#b3261e}.better{color:#1b6e2f}
.side-by-side{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,440px),1fr));gap:2rem;align-items:start}.side-by-side>article{min-width:0}
#verdict{font-weight:600;background:#e6f4ea;padding:.6rem 1rem;border-radius:4px}
details.episode{border:1px solid #e1e4ea;border-radius:6px;margin:.6rem 0;padding:.4rem .8rem}summary{cursor:pointer;font-weight:600;overflow-wrap:anywhere}
.verdict{font-family:ui-monospace,monospace;font-weight:500;padding:0 .35rem;border-radius:3px;background:#fdecea}.verdict.passed{background:#e6f4ea}
.request{font-style:italic;overflow-wrap:anywhere}ol.calls{padding-left:1.4rem}li.call{margin:.5rem 0 .9rem}
.status{font-family:ui-monospace,monospace;padding:0 .3rem;border-radius:3px;background:#e6f4ea}li.call.failed .status{background:#fdecea}
.pair{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,260px),1fr));gap:.6rem}.pair>div{min-width:0}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f7f7f9;padding:.4rem .6rem;border-radius:4px;font-size:12.5px;margin:.1rem 0;max-height:24rem;overflow-y:auto}`;

const frac = (x: number) => `${(x * 100).toFixed(1)}%`;
function meter(r: CardRow): string {
  if (!r.interval || r.rate === null) return "";
  return `<span class="meter" aria-hidden="true"><span class="range" style="left:${frac(r.interval.low)};width:${frac(r.interval.high - r.interval.low)}"></span><span class="rate" style="left:${frac(r.rate)}"></span></span>`;
}

function htmlDial(d: CardDial): string {
  const rows = d.rows
    .map((r, i) => {
      const moved = r.delta === null || r.delta === 0 ? "" : r.delta < 0 ? " worse" : " better";
      return `<tr data-arm="${esc(r.arm)}"><td>${esc(r.label)}</td><td class="n">${r.passed}</td><td class="n">${pct(r.rate)}${meter(r)}</td><td class="n">${intervalText(r)}</td><td class="against${moved}">${esc(againstFirst(d, r, i))}</td><td class="n">${r.kept}</td></tr>`;
    })
    .join("");
  return `<section class="dial"><h2>${esc(dialTitle(d))}</h2><div class="table-wrap"><table class="levels"><thead><tr>${HEAD.map((h) => `<th>${h}</th>`).join("")}</tr></thead><tbody>${rows}</tbody></table></div></section>`;
}

/** Arguments and answers are JSON text as the world traced them: shown indented when they parse, else exactly as sent. */
function shown(text: string): string {
  try {
    return clip(JSON.stringify(JSON.parse(text), null, 2), 4000);
  } catch {
    return clip(text, 4000);
  }
}

function htmlEpisode(e: CardEpisode, open: boolean): string {
  const calls = e.calls
    .map((c) => `<li class="call${c.status >= 400 ? " failed" : ""}"><code>${esc(c.name)}</code> <span class="status">${c.status}</span><div class="pair"><div><h4>arguments</h4><pre class="arguments">${esc(shown(c.arguments))}</pre></div><div><h4>simulated answer</h4><pre class="answer">${esc(shown(c.response))}</pre></div></div></li>`)
    .join("");
  const summary = `<summary><span class="task">${esc(e.task)}</span> · run ${e.run} · <span class="verdict${e.verdict === "passed" ? " passed" : ""}">${esc(e.verdict)}</span> · ${e.calls.length} ${e.calls.length === 1 ? "call" : "calls"}</summary>`;
  return `<details class="episode"${open ? " open" : ""}>${summary}<p class="request">${esc(e.request)}</p>${calls ? `<ol class="calls">${calls}</ol>` : "<p>No calls.</p>"}<div class="reply"><h4>last reply</h4>${e.reply ? `<pre>${esc(clip(e.reply, 4000))}</pre>` : "<p>(none)</p>"}</div></details>`;
}

function htmlWorst(c: ToolsCard, episodes: boolean): string {
  if (!c.worst) return `<section class="worst"><h2>Where it broke most</h2><p>Nowhere: every kept episode passed.</p></section>`;
  if (!episodes) return `<section class="worst"><h2>Where it broke most</h2><p>${esc(worstTitle(c.worst))}: its ${c.worst.episodes.length} episodes are in this run's own card.</p></section>`;
  const list = c.worst.episodes.map((e, i) => htmlEpisode(e, i === 0)).join("");
  return `<section class="worst episodes" id="episodes"><h2>Where it broke most: ${esc(worstTitle(c.worst))}</h2><p>Every episode of that arm, failures first: each call with its arguments and the simulated answer, and the agent's last reply, from the run's traces.</p>${list}</section>`;
}

function htmlBody(c: ToolsCard, episodes: boolean): string {
  return [
    `<p class="headline">${esc(c.headline)}</p>`,
    `<div class="dials">${c.dials.map(htmlDial).join("")}</div>`,
    `<section class="not-claimed"><h2>What this card does not claim</h2><ul>${c.notClaimed.map((l) => `<li>${esc(l)}</li>`).join("")}</ul></section>`,
    `<section class="run"><h2>The run</h2><p class="run-line">${esc(runLine(c))}</p><p class="published">${esc(c.published)}</p></section>`,
    htmlWorst(c, episodes),
  ].join("");
}

const page = (title: string, cls: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(title)}</title><style>${STYLE}</style></head><body><main class="${cls}">${body}</main></body></html>\n`;

export function cardHtml(c: ToolsCard): string {
  return page(`The card on your tools: ${c.run.name}`, "card", `<h1>The card on your tools</h1><article class="card" id="card">${htmlBody(c, true)}</article>`);
}

export function compareHtml(a: ToolsCard, b: ToolsCard): string {
  const side = (c: ToolsCard, id: string) => `<article class="card" id="${id}"><h2 class="run-name">${esc(c.run.name)}</h2>${htmlBody(c, false)}</article>`;
  return page(
    `Two cards on your tools: ${a.run.name} and ${b.run.name}`,
    "compare",
    `<h1>Two cards on your tools, side by side</h1><p id="verdict">Same tool file, settings and seeds: each card stands on its own episodes; nothing is pooled.</p><div class="side-by-side">${side(a, "card-a")}${side(b, "card-b")}</div>`,
  );
}
