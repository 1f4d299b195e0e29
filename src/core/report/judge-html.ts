// The policy judge in the HTML report: in the grid, a policy-only task's dot becomes the judge's verdict (marked
// as the judge's) and a keyed trial the judge disagrees with gets a mark; a section says which model judged, on
// which policy, at what cost, how often it agreed with the keys, and every finding that matters.
import type { Results, RunResult, WorldResult } from "../results/types";
import { esc } from "./escape";

export function judgeId(run: number, position: number): string {
  return `j-${run}-${position}`;
}

/** The grid cell's content for a trial the judge saw, or null to keep the key's cell. */
export function judgeCell(run: RunResult, w: WorldResult | undefined, keyed: boolean, keyCell: string): string | null {
  const j = w?.judge;
  if (!w || !j) return null;
  const href = `#${judgeId(run.index, w.position)}`;
  if (!keyed) {
    const [cls, text] = j.outcome === "judged" ? (j.passed ? ["v-judge-pass", "judge ✓"] : ["v-judge-fail", "judge ✗"]) : j.outcome === "error" ? ["v-judge-error", "judge error"] : ["v-judge-error", "judge skipped"];
    return `<a href="${href}"><span class="chip ${cls}" title="${esc(`the judge's verdict (${j.model}); no key`)}">${text}</span></a>`;
  }
  if (j.agrees_with_key === false) return `${keyCell} <a href="${href}" class="jmark" title="${esc(`the judge (${j.model}) says ${j.verdict}`)}">≠</a>`;
  return null;
}

export function judgeSection(r: Results): string {
  const j = r.judge;
  if (!j) return "";
  const a = j.agreement;
  const facts = [
    `<dt>model</dt><dd><code>${esc(j.model)}</code> · prompt <code>${esc(j.prompt_version)}</code></dd>`,
    `<dt>policy</dt><dd><code>${esc(j.policy.source)}</code> · ${j.policy.chars} characters · sha256 <code>${esc(j.policy.sha256.slice(0, 16))}…</code></dd>`,
    `<dt>judged</dt><dd>${j.judged} of ${j.tasks} trials${j.cached ? ` (${j.cached} from the cache)` : ""}${j.skipped_for_budget ? ` · <span class="bad">${j.skipped_for_budget} skipped for budget</span>` : ""}${j.errors ? ` · <span class="bad">${j.errors} error${j.errors === 1 ? "" : "s"}: ${esc(Object.entries(j.errors_by_kind).map(([k, n]) => `${k} ${n}`).join(", "))}</span>` : ""}</dd>`,
    `<dt>cost</dt><dd>$${j.dollars.toFixed(4)}${j.budget_dollars !== null ? ` of a $${j.budget_dollars.toFixed(2)} budget` : ""} · ${j.calls} request${j.calls === 1 ? "" : "s"} · ${j.tokens.input} input and ${j.tokens.output} output tokens${j.unpriced ? " · some calls unpriced" : ""}</dd>`,
    `<dt>policy-only</dt><dd>${j.policy_only.judged ? `${j.policy_only.passed} passed, ${j.policy_only.failed} failed` : "none judged"}</dd>`,
  ];
  const matrix = a.compared
    ? `<table class="matrix"><tr><th></th><th>judge passed</th><th>judge failed</th></tr><tr><th>key passed</th><td class="num">${a.key_passed.judge_passed}</td><td class="num">${a.key_passed.judge_failed}</td></tr><tr><th>key failed</th><td class="num">${a.key_failed.judge_passed}</td><td class="num">${a.key_failed.judge_failed}</td></tr></table><p class="hint">Agreement with the keys: ${a.agreed} of ${a.compared} keyed trials (${Math.round((a.rate ?? 0) * 100)}%). The judge is a second opinion: it never changes the status or the exit code.</p>`
    : `<p class="hint">No keyed trial to compare the judge with.</p>`;
  const items = r.runs.flatMap((run) => run.worlds.filter((w) => w.judge).map((w) => judgement(r, run, w)));
  return `<section id="judge"><h2>Policy judge</h2><dl>${facts.join("")}</dl>${matrix}${items.join("")}</section>`;
}

function judgement(r: Results, run: RunResult, w: WorldResult): string {
  const j = w.judge!;
  const item = r.tasks.items.find((i) => i.position === w.position);
  const keyed = item?.keyed ?? false;
  const outcome = j.outcome === "judged" ? `judge ${j.verdict}` : j.outcome === "error" ? `judge error (${j.error?.kind ?? "?"})` : "skipped for budget";
  const key = keyed ? ` · key ${w.verdict ?? "—"}${j.agrees_with_key === false ? " · <b>disagree</b>" : ""}` : " · policy-only";
  const findings = j.findings.length
    ? `<ul class="findings">${j.findings
        .map((f) => `<li class="${f.followed ? "ok" : "bad"}"><b>${f.followed ? "followed" : "broke"}</b> <q>${esc(f.rule)}</q>${f.in_policy ? "" : ' <span class="tag">not in the policy</span>'}<div class="hint">evidence: ${esc(f.evidence)}</div><div>${esc(f.why)}</div></li>`)
        .join("")}</ul>`
    : j.outcome === "judged"
      ? `<p class="hint">No policy rule applies to this ticket.</p>`
      : "";
  const err = j.error ? `<p class="bad">${esc(j.error.message)}</p>${j.error.raw ? `<pre class="reply">${esc(j.error.raw)}</pre>` : ""}` : "";
  const cost = `<span class="hint">${j.cached ? "cached" : `$${(j.cost.dollars ?? 0).toFixed(4)} · ${j.cost.attempts} request${j.cost.attempts === 1 ? "" : "s"}`}</span>`;
  return `<article class="judgement" id="${judgeId(run.index, w.position)}"><h3>Run ${run.index} · ${esc(w.task)} · ${outcome}<span class="keyword">${key}</span> ${cost}</h3>${findings}${err}</article>`;
}

export const JUDGE_STYLE = `
.v-judge-pass{background:#ddf4ff;color:var(--info)}.v-judge-fail{background:#fff1e5;color:#bc4c00}.v-judge-error{background:#eaeef2;color:var(--muted);border:1px dashed #8c959f}
a.jmark{color:#bc4c00;font-weight:700;text-decoration:none;margin-left:2px}
table.matrix{width:auto;margin:10px 0}table.matrix th,table.matrix td{padding:4px 12px}
.judgement{border:1px solid var(--line);border-radius:8px;padding:10px 14px;margin:10px 0}.judgement:target{box-shadow:0 0 0 3px rgba(9,105,218,.3)}
.judgement h3 .keyword{font-weight:400;color:var(--muted)}
ul.findings{margin:6px 0;padding-left:20px}ul.findings li{margin:4px 0}ul.findings li.bad b{color:var(--bad)}ul.findings li.ok b{color:var(--good)}
.bad{color:var(--bad)}
`;
