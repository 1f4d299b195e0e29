// The `worlds view` pages, as a Hono app: the index of runs (filters by kind, agent and status; two runs picked for
// the compare page), each run's report (the same renderHtml page the CLI writes, with a bar back to the index),
// its results JSON, a tools run's card and the comparison of two runs (renderCompareHtml). No script anywhere
// and a CSP that loads nothing from anywhere: the pages work offline and a reply holding <script> stays text.
import { basename } from "node:path";
import { Hono } from "hono";
import { compareResults } from "../../core/compare/compare";
import type { ResultsDocument } from "../../core/compare/input";
import { buildCard } from "../../core/kinds/tools/card/model";
import { cardHtml } from "../../core/kinds/tools/card/render";
import { renderCompareHtml, renderHtml } from "../../core/report/index";
import { esc } from "../../core/report/escape";
import { formatMoney } from "../../core/results/money";
import { RUN_KINDS, STATUSES } from "../../core/results/types";
import { readRunFolder } from "../tools/folder";
import type { Scan, ViewRun } from "./scan";

/** Where the runs come from: a folder rescanned on each index, or a server's history. */
export interface RunSource {
  /** What the index says it browses ("runs under ./ci" or "runs on https://..."). */
  label: string;
  scan(): Promise<Scan>;
}

const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'self'";

export function viewApp(source: RunSource): Hono {
  const app = new Hono();
  app.use("*", async (c, next) => {
    await next();
    c.header("Content-Security-Policy", CSP);
    c.header("X-Content-Type-Options", "nosniff");
    c.header("Cache-Control", "no-store");
  });

  app.get("/", async (c) => {
    const scan = await source.scan();
    const q = { kind: c.req.query("kind") ?? "", agent: c.req.query("agent") ?? "", status: c.req.query("status") ?? "" };
    return c.html(indexPage(source.label, scan, q));
  });

  const byId = async (id: string) => (await source.scan()).runs.find((r) => r.id === id) ?? null;

  app.get("/runs/:id", async (c) => {
    const run = await byId(c.req.param("id"));
    if (!run) return c.html(notFound(`No run ${c.req.param("id")} under ${source.label}: it may have moved since the index was read.`), 404);
    return c.html(withBar(renderHtml(run.results), run));
  });

  app.get("/runs/:id/results.json", async (c) => {
    const run = await byId(c.req.param("id"));
    if (!run) return c.json({ error: "no such run" }, 404);
    return c.json(run.results);
  });

  app.get("/runs/:id/card", async (c) => {
    const run = await byId(c.req.param("id"));
    if (!run || !run.cardFolder) return c.html(notFound("That run has no tools run folder beside it, so it has no card."), 404);
    try {
      const { record, episodes } = readRunFolder(run.cardFolder);
      return c.html(withBar(cardHtml(buildCard(basename(run.cardFolder), record, episodes)), run));
    } catch (e) {
      return c.html(notFound(`The card cannot be drawn: ${(e as Error).message}`), 422);
    }
  });

  app.get("/compare", async (c) => {
    const scan = await source.scan();
    const a = scan.runs.find((r) => r.id === c.req.query("a"));
    const b = scan.runs.find((r) => r.id === c.req.query("b"));
    if (!a || !b) return c.html(notFound("Pick two runs on the index to compare (the earlier first)."), 400);
    const comparison = compareResults({ source: a.source, doc: a.results as unknown as ResultsDocument }, { source: b.source, doc: b.results as unknown as ResultsDocument });
    return c.html(withBar(renderCompareHtml(comparison), null));
  });

  app.notFound((c) => c.html(notFound("No such page."), 404));
  return app;
}

/** The report's page with a bar on top: back to the index, the run's JSON and card, and the line that reruns it. */
function withBar(page: string, run: ViewRun | null): string {
  const links = [`<a href="/">← all runs</a>`];
  if (run) {
    links.push(`<a href="/runs/${esc(run.id)}">report</a>`, `<a href="/runs/${esc(run.id)}/results.json">results JSON</a>`);
    if (run.cardFolder) links.push(`<a href="/runs/${esc(run.id)}/card">tools card</a>`);
  }
  const rerun = run?.results.rerun ? `<div style="margin-top:4px">rerun: <code style="overflow-wrap:anywhere">${esc(run.results.rerun.command)}</code></div>` : "";
  const bar = `<nav aria-label="worlds view" style="font:13px system-ui,sans-serif;padding:8px 12px;margin:0 0 12px;border-bottom:1px solid #d1d9e0;background:#f6f8fa;overflow-wrap:anywhere">${links.join(" · ")}${run ? ` · <span>${esc(run.source)}</span>` : ""}${rerun}</nav>`;
  return page.replace("<body>", `<body>${bar}`);
}

interface Filters {
  kind: string;
  agent: string;
  status: string;
}

function indexPage(label: string, scan: Scan, q: Filters): string {
  const shown = scan.runs.filter((r) => (!q.kind || r.kind === q.kind) && (!q.agent || r.results.agent.display === q.agent) && (!q.status || r.results.status === q.status));
  const agents = [...new Set(scan.runs.map((r) => r.results.agent.display))].sort();
  const select = (name: keyof Filters, label: string, values: readonly string[]) =>
    `<label>${label} <select name="${name}"><option value="">any</option>${values.map((v) => `<option${q[name] === v ? " selected" : ""} value="${esc(v)}">${esc(v.replace(/_/g, " "))}</option>`).join("")}</select></label>`;
  const filters = `<form method="get" action="/" class="filters">${select("kind", "kind", RUN_KINDS)}${select("agent", "agent", agents)}${select("status", "status", STATUSES)}<button type="submit">filter</button>${q.kind || q.agent || q.status ? ` <a href="/">clear</a>` : ""}</form>`;
  const rows = shown.map((r) => runRow(r));
  const table = shown.length
    ? `<div class="scroll"><table><caption>${shown.length} of ${scan.runs.length} run${scan.runs.length === 1 ? "" : "s"}, newest first</caption><tr><th scope="col">when</th><th scope="col">tasks or tool file</th><th scope="col">agent</th><th scope="col">kind</th><th scope="col">status</th><th scope="col">pass^k (95%)</th><th scope="col">wrong</th><th scope="col">pages</th></tr>${rows.join("")}</table></div>`
    : `<p class="hint">${scan.runs.length ? "No run matches these filters." : "No results file here yet: a run writes one with --json-file F (passk, tools run, evals run, family gate), and a tools run its folder."}</p>`;
  const options = scan.runs.map((r) => `<option value="${esc(r.id)}">${esc(`${when(r.at)} · ${r.source} · ${r.results.status}`)}</option>`).join("");
  const compare =
    scan.runs.length >= 2
      ? `<form method="get" action="/compare" class="compare"><h2>Compare two runs</h2><label>earlier <select name="a">${options}</select></label> <label>later <select name="b">${options}</select></label> <button type="submit">compare</button></form>`
      : "";
  const notes = [...scan.skipped.map((s) => `left out ${s}`), ...(scan.truncated ? ["the folder is larger than the walk reads (8 levels, 20,000 entries): name a smaller one"] : [])];
  return page(
    `worlds view · ${label}`,
    `<header><h1>worlds view</h1><p class="hint">${esc(label)}</p></header>${filters}${table}${compare}${notes.length ? `<ul class="hint">${notes.map((n) => `<li>${esc(n)}</li>`).join("")}</ul>` : ""}`,
  );
}

function runRow(r: ViewRun): string {
  const res = r.results;
  const curve = res.crash_test.suite.pass_hat_k;
  const last = curve.at(-1);
  const passk = last ? `pass^${last.k} ${Math.round(last.value * 100)}% <span class="hint">${Math.round(last.low * 100)}–${Math.round(last.high * 100)}%</span>` : "—";
  const wrong = res.crash_test.dollars_wrong_total_cents > 0 ? esc(formatMoney(res.crash_test.dollars_wrong_total_cents, res.currency)) : "—";
  const pages = [`<a href="/runs/${esc(r.id)}">report</a>`, `<a href="/runs/${esc(r.id)}#failures">failures</a>`, `<a href="/runs/${esc(r.id)}/results.json">JSON</a>`];
  if (r.cardFolder) pages.push(`<a href="/runs/${esc(r.id)}/card">card</a>`);
  if (r.kind === "family") pages.push(`<a href="/runs/${esc(r.id)}#trap-classes">curve</a>`);
  const rerun = res.rerun ? `<details><summary>rerun</summary><code>${esc(res.rerun.command)}</code></details>` : "";
  return (
    `<tr><td class="nowrap">${esc(when(r.at))}</td><td><code>${esc(res.tasks.file)}</code><div class="hint">${esc(r.source)}</div></td><td><code>${esc(res.agent.display)}</code></td>` +
    `<td>${esc(r.kind)}</td><td><span class="st st-${esc(res.status)}">${esc(res.status.replace(/_/g, " "))}</span></td><td class="num">${passk}</td><td class="num">${wrong}</td><td>${pages.join(" · ")}${rerun}</td></tr>`
  );
}

const when = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace("T", " ");

function notFound(message: string): string {
  return page("worlds view", `<p><a href="/">← all runs</a></p><p>${esc(message)}</p>`);
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${esc(CSP)}"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

const STYLE = `
*{box-sizing:border-box}body{margin:0 auto;max-width:1180px;padding:20px 24px 48px;font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:#1f2328}
h1{font-size:22px;margin:0}h2{font-size:16px;margin:0 0 8px}code{font:12.5px ui-monospace,Menlo,Consolas,monospace;overflow-wrap:anywhere}
.hint{color:#59636e;font-size:12.5px}.scroll{overflow-x:auto}.nowrap{white-space:nowrap}
table{border-collapse:collapse;width:100%;margin-top:12px}caption{text-align:left;color:#59636e;font-size:12.5px;padding-bottom:4px}
th,td{border-bottom:1px solid #d1d9e0;padding:6px 8px;text-align:left;vertical-align:top}th{font-size:12px;color:#59636e;background:#f6f8fa;white-space:nowrap}
td.num{text-align:right;white-space:nowrap}
form{display:flex;flex-wrap:wrap;gap:8px 14px;align-items:center;margin:14px 0}form.compare{border:1px solid #d1d9e0;border-radius:8px;padding:12px 14px;margin-top:24px}
form.compare h2{flex-basis:100%}select{min-width:0;max-width:100%;font:inherit;text-overflow:ellipsis}label{display:inline-flex;flex-wrap:wrap;gap:6px;align-items:center;min-width:0;max-width:100%}
button{font:inherit;padding:3px 12px}a{color:#0969da}a:focus,button:focus,select:focus,summary:focus{outline:3px solid #0969da;outline-offset:2px}
.st{font-weight:600;white-space:nowrap}.st-passed{color:#1a7f37}.st-policy_failed{color:#cf222e}.st-inconclusive,.st-configuration_incomplete,.st-setup_failed,.st-interrupted{color:#9a6700}
details summary{cursor:pointer;color:#59636e;font-size:12.5px}
@media (max-width:600px){body{padding:12px}th:nth-child(3),td:nth-child(3){display:none}form.compare select{width:100%}}
`;
