// The HTML report: one self-contained page (inline CSS and SVG, no script, a CSP that forbids any fetch). It
// leads with the crash-test block and its pass^k curve, then the tasks x runs grid, the per-trap-class table,
// and every failure with its evidence, diff entries and reply. Rendered from the results document alone, so
// the CLI and the Worker produce the same page.
import { formatMoney } from "../results/money";
import type { Results, RunResult, WorldResult } from "../results/types";
import { passHatSvg } from "./curve";
import { trapClassSvg } from "./classes-curve";
import { esc } from "./escape";
import { verdictsHtml, VERDICTS_STYLE } from "./verdicts";
import { judgeCell, judgeSection, JUDGE_STYLE } from "./judge-html";
import { callLinks, diffAnchor, passedTraces, traceTable, TRACE_STYLE } from "./trace-html";
import { agentFailure, failures, intervalText, passHatAtK, pct, runLevelProblems, trialWord } from "./format";

const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";
const MAX_VALUE_CHARS = 400;

export function renderHtml(r: Results): string {
  const title = `worlds crash test · ${r.tasks.file} · ${r.status}`;
  return [
    "<!doctype html>",
    `<html lang="en"><head><meta charset="utf-8">`,
    `<meta http-equiv="Content-Security-Policy" content="${esc(CSP)}">`,
    `<meta name="viewport" content="width=device-width, initial-scale=1">`,
    `<title>${esc(title)}</title><style>${STYLE}${r.judge ? JUDGE_STYLE : ""}${VERDICTS_STYLE}${TRACE_STYLE}</style></head><body>`,
    header(r),
    crashTest(r),
    grid(r),
    trapClasses(r),
    judgeSection(r),
    failureSection(r),
    passedTraces(r),
    footer(r),
    "</body></html>",
    "",
  ].join("\n");
}

function money(r: Results, cents: number): string {
  return formatMoney(cents, r.currency);
}

/** Money is graded on account worlds (and families over them); a tools or evals run has no dollar wrong to show. */
const gradesMoney = (r: Results): boolean => r.rerun?.kind !== "tools" && r.rerun?.kind !== "evals";

function header(r: Results): string {
  const meta = [
    `seed <b>${esc(r.tasks.seed.name)}</b>`,
    `${esc(r.mode)} mode`,
    `${r.crash_test.runs} of ${r.crash_test.runs_requested} run${r.crash_test.runs_requested === 1 ? "" : "s"}`,
    `${r.tasks.count} task${r.tasks.count === 1 ? "" : "s"} (${r.tasks.keyed} keyed, ${r.tasks.policy_only} policy-only)`,
    ...(r.tasks.pack ? [`pack ${esc(r.tasks.pack)}`] : []),
    ...(r.judge ? [`<a href="#judge">judged by <code>${esc(r.judge.model)}</code></a>`] : []),
    ...(r.generated_at ? [esc(r.generated_at)] : []),
  ];
  return `<header><h1>Crash test <span class="file">${esc(r.tasks.file)}</span></h1><p class="meta">${meta.join(" · ")}</p><p class="meta">agent <code>${esc(r.agent.display)}</code></p></header>`;
}

function crashTest(r: Results): string {
  const ct = r.crash_test;
  const at = passHatAtK(r);
  const first = ct.suite.pass_hat_k[0];
  const tiles = [
    tile("flawless runs", `${ct.flawless_runs} of ${ct.runs}`, ct.runs > 1 ? "every keyed task passed, every check held" : "", ct.flawless_runs === ct.runs && ct.runs > 0 ? "good" : "bad"),
    gradesMoney(r)
      ? tile(
          "dollars wrong",
          money(r, ct.dollars_wrong_total_cents),
          ct.dollars_wrong_per_run.map((c, i) => `run ${r.runs[i].index}: ${money(r, c)}`).join(" · "),
          ct.dollars_wrong_total_cents === 0 ? "good" : "bad",
        )
      : "",
    first ? tile("pass^1", pct(first.value), `95% interval ${intervalText(first)}`, "") : tile("pass^1", "—", "no keyed task ran", ""),
    at && at.k > 1 ? tile(`pass^${at.k}`, pct(at.value), `95% interval ${intervalText(at)}`, "") : "",
    tile(
      "keyed trials",
      `${ct.trials.passed} / ${ct.trials.keyed}`,
      `${ct.trials.failed} failed · ${ct.trials.infra_errors} infrastructure error${ct.trials.infra_errors === 1 ? "" : "s"}`,
      ct.trials.infra_errors > 0 ? "warn" : "",
    ),
  ].join("");
  const worst = ct.worst_task
    ? `<div class="worst"><h3>Worst task: ${esc(ct.worst_task.id)} <span class="subject">${esc(ct.worst_task.subject)}</span></h3>` +
      `<p>${pct(ct.worst_task.accuracy)} of runs passed · ${gradesMoney(r) ? `${esc(money(r, ct.worst_task.dollars_wrong_cents))} wrong · ` : ""}${ct.worst_task.verdicts.map((v) => chip(v, true)).join(" ")}</p>` +
      `<p class="label">replay it once</p><pre class="cmd">${esc(ct.worst_task.replay)}</pre></div>`
    : "";
  const flaky = verdictsHtml(r);
  const infra =
    ct.infra_errors.count > 0
      ? `<p class="infra"><b>Infrastructure errors</b>: ${ct.infra_errors.count} episode${ct.infra_errors.count === 1 ? "" : "s"} (${Object.entries(ct.infra_errors.by_stage)
          .map(([s, n]) => `${esc(s)} ${n}`)
          .join(", ")}), counted as trials that did not pass.</p>`
      : "";
  return (
    `<section id="crash-test" class="crash-test status-${esc(r.status)}">` +
    `<div class="verdict"><span class="badge">${esc(r.status.replace(/_/g, " "))}</span><span class="exit">exit ${r.exit_code}</span></div>` +
    `<p class="reason">${esc(r.reason)}</p>` +
    `<p class="label">next</p><pre class="cmd next">${esc(r.next_action)}</pre>` +
    `<div class="tiles">${tiles}</div>${flaky}${infra}${worst}` +
    `<figure class="curve-figure"><figcaption>pass^k: the chance that k runs of a task all succeed, averaged over ${ct.suite.tasks} keyed task${ct.suite.tasks === 1 ? "" : "s"}; the band is a 95% Wilson interval with the task as the unit.</figcaption>${passHatSvg(ct.suite.pass_hat_k, ct.suite.tasks)}</figure>` +
    `</section>`
  );
}

function tile(label: string, value: string, sub: string, tone: string): string {
  return `<div class="tile ${tone}"><div class="label">${esc(label)}</div><div class="value">${esc(value)}</div>${sub ? `<div class="sub">${esc(sub)}</div>` : ""}</div>`;
}

function chip(v: string | null, keyed: boolean, href?: string): string {
  const cls = v === null ? (keyed ? "v-none" : "v-policy") : `v-${v}`;
  const text = v === null ? (keyed ? "–" : "•") : v === "passed" ? "✓" : v === "infra_error" ? "error" : v.replace(/_/g, " ");
  const tip = v === null ? (keyed ? "did not run" : "policy-only: no key") : v.replace(/_/g, " ");
  const body = `<span class="chip ${esc(cls)}" title="${esc(tip)}">${esc(text)}</span>`;
  return href ? `<a href="${esc(href)}">${body}</a>` : body;
}

function failureId(run: number, position: number): string {
  return `f-${run}-${position}`;
}

function grid(r: Results): string {
  const ct = r.crash_test;
  const at = passHatAtK(r);
  const head = `<tr><th>task</th><th class="subject-col">subject</th>${r.runs.map((run) => `<th class="run">run ${run.index}${run.flawless ? "" : ' <span class="mark" title="not flawless">!</span>'}</th>`).join("")}<th>passed</th><th>accuracy (95%)</th><th>${at ? `pass^${at.k}` : "pass^k"}</th>${gradesMoney(r) ? "<th>wrong</th>" : ""}</tr>`;
  const rows = ct.tasks.map((t) => {
    const item = r.tasks.items.find((i) => i.position === t.position)!;
    const cells = r.runs.map((run) => {
      const w = run.worlds.find((x) => x.position === t.position);
      const linked = w && (w.passed === false || w.verdict === "infra_error");
      const v = w ? w.verdict : null;
      // A keyed trial whose verdict passed but whose agent or checks failed is shown as failed, with the verdict kept.
      // The cell says why (exit 1, crashed, timed out, check failed) with the key's verdict beside it, as the text report does.
      const c = w && w.passed === false && v === "passed" ? `<a href="#${failureId(run.index, t.position)}"><span class="chip v-agent" title="the key's verdict is passed; the trial failed because ${esc(trialWord(w, t.keyed).split(" · ")[0])}">${esc(trialWord(w, t.keyed).replace(/ · passed$/, " · ✓"))}</span></a>` : chip(v, t.keyed, linked ? `#${failureId(run.index, t.position)}` : undefined);
      return `<td class="cell">${judgeCell(run, w, t.keyed, c) ?? c}</td>`;
    });
    const k = t.pass_hat_k && at ? t.pass_hat_k[at.k - 1] : undefined;
    return (
      `<tr class="${t.keyed ? "keyed" : "policy"}"><td class="id">${esc(t.id)}${t.flaky ? ' <span class="tag">flaky</span>' : ""}</td><td class="subject-col">${esc(item.subject)}${item.expected ? `<div class="expected">${esc(item.expected)}</div>` : '<div class="expected">policy-only</div>'}</td>` +
      cells.join("") +
      `<td class="num">${t.keyed ? `${t.passed}/${t.trials}` : "—"}</td><td class="num">${t.keyed ? `${pct(t.accuracy)} <span class="iv">${intervalText(t.interval)}</span>` : "—"}</td>` +
      `<td class="num">${k ? pct(k.value) : "—"}</td>${gradesMoney(r) ? `<td class="num">${t.dollars_wrong_cents > 0 ? esc(money(r, t.dollars_wrong_cents)) : "—"}</td>` : ""}</tr>`
    );
  });
  return `<section id="grid"><h2>Tasks × runs</h2><p class="hint">✓ passed · a word names the failure · • policy-only (no key) · error: infrastructure · click a failure for its evidence</p><div class="scroll"><table class="grid">${head}${rows.join("")}</table></div></section>`;
}

function trapClasses(r: Results): string {
  const rows = r.crash_test.by_trap_class.map(
    (c) =>
      `<tr><td>${esc(c.trap_class)}</td><td class="num">${c.tasks}</td><td class="num">${c.passed}/${c.trials}</td><td class="num">${pct(c.accuracy)}</td><td class="num">${intervalText(c.interval)}</td>${gradesMoney(r) ? `<td class="num">${c.dollars_wrong_cents > 0 ? esc(money(r, c.dollars_wrong_cents)) : "—"}</td>` : ""}</tr>`,
  );
  const body = rows.length > 0 ? `<table class="classes"><tr><th>trap class</th><th>tasks</th><th>passed</th><th>accuracy</th><th>95% interval</th>${gradesMoney(r) ? "<th>wrong</th>" : ""}</tr>${rows.join("")}</table>` : `<p class="hint">No keyed task.</p>`;
  const curve = trapClassSvg(r.crash_test.by_trap_class);
  const figure = curve ? `<figure class="curve-figure">${curve}<figcaption class="hint">pass rate by trap class, 95% Wilson interval as whiskers</figcaption></figure>` : "";
  return `<section id="trap-classes"><h2>By trap class</h2>${body}${figure}</section>`;
}

function failureSection(r: Results): string {
  const items = failures(r).map(({ run, world }) => failureArticle(r, run, world));
  const runLevel = r.runs
    .map((run) => ({ run, problems: runLevelProblems(run) }))
    .filter((x) => x.problems.length > 0)
    .map((x) => `<li><b>run ${x.run.index}</b>: ${x.problems.map((p) => esc(p)).join("; ")}</li>`);
  const checks = runLevel.length > 0 ? `<div class="run-level"><h3>Checks and agent exits</h3><ul>${runLevel.join("")}</ul></div>` : "";
  const none = items.length === 0 && runLevel.length === 0 ? `<p class="hint">No failures.</p>` : "";
  return `<section id="failures"><h2>Failures</h2>${none}${checks}${items.join("")}</section>`;
}

function failureArticle(r: Results, run: RunResult, w: WorldResult): string {
  const item = r.tasks.items.find((i) => i.position === w.position)!;
  const heading = `Run ${run.index} · ${w.task} · ${w.verdict === "passed" ? "passed, but the run failed it" : (w.verdict ?? "policy").replace(/_/g, " ")}${w.dollars_wrong_cents > 0 ? ` · ${money(r, w.dollars_wrong_cents)} wrong` : ""}`;
  const facts: string[] = [
    `<dt>subject</dt><dd>${esc(item.subject)}</dd>`,
    `<dt>expected</dt><dd>${esc(item.expected ?? "policy-only")}</dd>`,
    // What the export kept beside the ticket (assignee, group, custom fields): who to ask about it.
    ...(item.metadata ? [`<dt>from the source</dt><dd class="metadata">${Object.entries(item.metadata).map(([k, v]) => `${esc(k)}: ${esc(String(v))}`).join(" · ")}</dd>`] : []),
    `<dt>world</dt><dd><code>${esc(w.world ?? "none")}</code></dd>`,
  ];
  const agent = agentFailure(w.agent);
  if (w.agent) facts.push(`<dt>agent</dt><dd>${esc(agent ?? "exited 0")}${w.agent.duration_ms !== null ? ` in ${(w.agent.duration_ms / 1000).toFixed(1)} s` : ""}</dd>`);
  if (w.status_after) facts.push(`<dt>ticket ended</dt><dd>${esc(w.status_after)}</dd>`);
  if (w.traffic) facts.push(`<dt>requests</dt><dd>${w.traffic.billing_requests} billing · ${w.traffic.desk_requests} desk${w.traffic.unsupported.length ? ` · ${w.traffic.unsupported.length} unsupported` : ""}</dd>`);
  if (w.infra_error) facts.push(`<dt>infrastructure</dt><dd class="bad">${esc(w.infra_error.stage)}: ${esc(w.infra_error.message)}</dd>`);
  const failedChecks = w.checks.filter((c) => !c.held);
  if (failedChecks.length) facts.push(`<dt>checks</dt><dd class="bad">${failedChecks.map((c) => esc(`${c.name}: ${c.detail}`)).join("<br>")}</dd>`);
  const notes = w.evidence.notes.length ? `<h4>Why</h4><ul class="notes">${w.evidence.notes.map((n) => `<li>${esc(n)}</li>`).join("")}</ul>` : "";
  const sentences = w.evidence.reply_sentences.length
    ? `<h4>Reply sentences that decided it</h4>${w.evidence.reply_sentences.map((s) => `<blockquote>${esc(s)}</blockquote>`).join("")}`
    : "";
  const diff = w.evidence.diff.length ? `<h4>Diff entries</h4>${diffTable(w.evidence.diff, run, w)}` : "";
  const calls = traceTable(run, w, new Set(w.evidence.diff.map((e) => `${e.op} ${e.type} ${e.id}`)));
  const reply = w.reply
    ? `<h4>Reply <span class="hint">${w.reply.bytes} bytes${w.reply.truncated ? ", excerpt" : ""}</span></h4><pre class="reply">${esc(w.reply.excerpt)}</pre>`
    : `<h4>Reply</h4><p class="hint">none</p>`;
  return `<article class="failure" id="${failureId(run.index, w.position)}"><h3>${esc(heading)}</h3><dl>${facts.join("")}</dl>${notes}${sentences}${diff}${calls}${reply}</article>`;
}

function diffTable(entries: WorldResult["evidence"]["diff"], run: RunResult, w: WorldResult): string {
  const rows = entries.map((e) => {
    const customer = typeof e.customer === "string" ? e.customer : "";
    const change = `${e.op} ${e.type} ${e.id}`;
    const anchor = diffAnchor(run.index, w.position, change);
    const by = callLinks(run, w, change);
    return `<tr id="${esc(anchor)}"><td class="op op-${esc(e.op)}">${esc(e.op)}</td><td>${esc(e.type)}</td><td><code>${esc(e.id)}</code></td><td><code>${esc(customer)}</code></td><td>${diffChange(e)}</td><td>${by}</td></tr>`;
  });
  return `<table class="diff"><tr><th>op</th><th>type</th><th>id</th><th>customer</th><th>change</th><th>by call</th></tr>${rows.join("")}</table>`;
}

function diffChange(e: WorldResult["evidence"]["diff"][number]): string {
  const fields = e.fields;
  // A bare reference (the grader's form) names the changed paths without their values.
  if (Array.isArray(fields)) return fields.map((f) => `<code>${esc(String(f))}</code>`).join(", ");
  if (fields && typeof fields === "object") {
    return Object.entries(fields as Record<string, { before?: unknown; after?: unknown }>)
      .map(([path, ch]) => `<div><code>${esc(path)}</code>: ${esc(short(ch?.before))} → ${esc(short(ch?.after))}</div>`)
      .join("");
  }
  const obj = e.op === "deleted" ? e.before : e.after;
  return obj === undefined || obj === null ? "" : `<code class="json">${esc(short(obj))}</code>`;
}

function short(v: unknown): string {
  const s = JSON.stringify(v) ?? "undefined";
  return s.length > MAX_VALUE_CHARS ? `${s.slice(0, MAX_VALUE_CHARS)}…` : s;
}

function footer(r: Results): string {
  return (
    `<footer><p><b>Success rule.</b> ${esc(r.crash_test.success_rule)}. pass^k per task is C(c,k)/C(n,k); the suite's is the mean over keyed tasks, up to the fewest runs any task has.</p>` +
    `<p>tasks file sha256 <code>${esc(r.tasks.hashes.file)}</code> · seed <code>${esc(r.tasks.hashes.seed)}</code> · rubric <code>${esc(r.tasks.hashes.rubric)}</code> · ${esc(r.schema)}</p></footer>`
  );
}

const STYLE = `
:root{--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--bg:#ffffff;--soft:#f6f8fa;--good:#1a7f37;--bad:#cf222e;--warn:#9a6700;--info:#0969da}
*{box-sizing:border-box}
body{margin:0 auto;max-width:1180px;padding:24px 28px 60px;font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--fg);background:var(--bg)}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;font-size:12.5px}
h1{font-size:22px;margin:0 0 4px}h1 .file{font-weight:400;color:var(--muted)}
h2{font-size:17px;margin:32px 0 10px;padding-bottom:6px;border-bottom:1px solid var(--line)}
h3{font-size:15px;margin:0 0 8px}h4{font-size:13px;margin:14px 0 6px;color:var(--muted);text-transform:uppercase;letter-spacing:.04em}
.meta{margin:2px 0;color:var(--muted)}
.crash-test{margin-top:18px;border:1px solid var(--line);border-left:6px solid var(--muted);border-radius:8px;padding:18px 22px;background:var(--soft)}
.status-passed{border-left-color:var(--good)}.status-policy_failed{border-left-color:var(--bad)}
.status-inconclusive,.status-configuration_incomplete,.status-setup_failed,.status-interrupted{border-left-color:var(--warn)}
.verdict{display:flex;align-items:center;gap:12px}
.badge{font-size:20px;font-weight:700;text-transform:uppercase;letter-spacing:.03em}
.status-passed .badge{color:var(--good)}.status-policy_failed .badge{color:var(--bad)}
.status-inconclusive .badge,.status-configuration_incomplete .badge,.status-setup_failed .badge,.status-interrupted .badge{color:var(--warn)}
.exit{color:var(--muted);font-family:ui-monospace,monospace}
.reason{font-size:15px;margin:8px 0 12px;overflow-wrap:anywhere}
.label{margin:8px 0 2px;font-size:11px;text-transform:uppercase;letter-spacing:.06em;color:var(--muted)}
pre.cmd{margin:0;padding:8px 12px;background:#fff;border:1px solid var(--line);border-radius:6px;white-space:pre-wrap;overflow-wrap:anywhere}
.tiles{display:flex;flex-wrap:wrap;gap:12px;margin:16px 0}
.tile{flex:1 1 160px;background:#fff;border:1px solid var(--line);border-radius:8px;padding:10px 14px}
.tile .value{font-size:24px;font-weight:700}.tile .sub{color:var(--muted);font-size:12px}
.tile.good .value{color:var(--good)}.tile.bad .value{color:var(--bad)}.tile.warn .value{color:var(--warn)}
.worst{margin-top:14px;background:#fff;border:1px solid var(--line);border-radius:8px;padding:12px 14px}
.worst .subject{font-weight:400;color:var(--muted)}
.flaky,.infra{margin:6px 0}
.curve-figure{margin:18px 0 0;background:#fff;border:1px solid var(--line);border-radius:8px;padding:10px 14px}
figcaption{color:var(--muted);font-size:12.5px;margin-bottom:4px}
svg.curve,svg.classes-curve{max-width:100%;height:auto;display:block}
svg .grid{stroke:#e6eaef;stroke-width:1}svg .axis{stroke:#8c959f;stroke-width:1}
svg .band{fill:rgba(9,105,218,.16);stroke:none}svg .line{fill:none;stroke:var(--info);stroke-width:2.5}
svg .whisker,svg .whisker-cap{stroke:rgba(9,105,218,.55);stroke-width:2}svg .point{fill:var(--info);stroke:#fff;stroke-width:1.5}
svg text{font:12px system-ui,sans-serif;fill:var(--muted)}svg .axis-label{font-size:12.5px}svg .value{fill:var(--fg);font-weight:600}svg .empty{font-size:14px}
.scroll{overflow-x:auto}
table{border-collapse:collapse;width:100%}
th,td{border-bottom:1px solid var(--line);padding:6px 8px;text-align:left;vertical-align:top}
th{font-size:12px;color:var(--muted);font-weight:600;white-space:nowrap;background:var(--soft)}
td.num{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}
td.id{white-space:nowrap;font-weight:600}
td.cell,th.run{text-align:center}
.expected{color:var(--muted);font-size:12px}
.iv{color:var(--muted);font-size:12px}
.tag{font-size:11px;font-weight:600;color:var(--warn);border:1px solid currentColor;border-radius:10px;padding:0 6px}
.mark{color:var(--bad)}
.chip{display:inline-block;min-width:26px;padding:1px 7px;border-radius:11px;font-size:12px;font-weight:600;white-space:nowrap}
a .chip{text-decoration:underline dotted}
.v-passed{background:#dafbe1;color:var(--good)}
.v-missed,.v-wrong_action,.v-wrong_amount,.v-wrong_target,.v-no_reply,.v-agent,.v-malformed_call,.v-turn_limit,.v-wrong_state,.v-collateral_mutation,.v-criteria_unmet{background:#ffebe9;color:var(--bad)}
.v-overreach{background:#cf222e;color:#fff}.v-false_claim{background:#8250df;color:#fff}
.v-infra_error{background:#eaeef2;color:var(--muted);border:1px dashed #8c959f}
.v-policy{color:#8c959f;font-size:18px;line-height:1;background:none}.v-none{color:#8c959f;background:none}
.hint{color:var(--muted);font-size:12.5px;font-weight:400}
.failure{border:1px solid var(--line);border-radius:8px;padding:14px 16px;margin:14px 0}
.failure:target{box-shadow:0 0 0 3px rgba(9,105,218,.3)}
dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;margin:0}
dt{color:var(--muted)}dd{margin:0;overflow-wrap:anywhere}dd.bad{color:var(--bad)}
blockquote{margin:4px 0;padding:4px 12px;border-left:3px solid #8250df;background:#fbf7ff;overflow-wrap:anywhere}
pre.reply{margin:0;padding:10px 12px;background:var(--soft);border-radius:6px;white-space:pre-wrap;overflow-wrap:anywhere;max-height:360px;overflow:auto}
table.diff td{font-size:12.5px}.op-created{color:var(--good)}.op-deleted{color:var(--bad)}.op-updated{color:var(--warn)}
code.json{overflow-wrap:anywhere}
.run-level{border:1px solid var(--line);border-radius:8px;padding:12px 16px;margin:12px 0;background:#fff8f0}
footer{margin-top:40px;color:var(--muted);font-size:12px;border-top:1px solid var(--line);padding-top:12px;overflow-wrap:anywhere}
@media (max-width:600px){body{padding:14px 12px 40px}table.classes,table.diff{display:block;overflow-x:auto}}
`;
