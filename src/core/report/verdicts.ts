// The parts of a run's report that say how it was judged beyond its verdicts: the tasks that flip (with their
// pattern of runs) apart from the ones that never pass, the gates on their intervals' bounds, and the comparison
// against a baseline. Shared by the text and the HTML report so both say the same thing.
import { formatMoney } from "../results/money";
import type { Results, TaskStats } from "../results/types";
import type { GateResult } from "../gate/evaluate";
import { esc } from "./escape";

/** Flaky keyed tasks that passed at least once, with their patterns; the ones that never passed come apart. */
export function flakySplit(r: Results): { flaky: TaskStats[]; neverPassed: TaskStats[] } {
  const never = new Set(r.crash_test.always_failing_tasks ?? []);
  const keyed = r.crash_test.tasks.filter((t) => t.keyed);
  return { flaky: keyed.filter((t) => t.flaky && !never.has(t.id)), neverPassed: keyed.filter((t) => never.has(t.id)) };
}

function failingWords(t: TaskStats): string {
  return [...new Set(t.verdicts.filter((v) => v !== null && v !== "passed" && v !== "infra_error"))].join("/");
}

const MARK: Record<GateResult["outcome"], string> = { passed: "✓", failed: "✗", undecided: "?" };

export function verdictLines(r: Results): string[] {
  const lines: string[] = [];
  const { flaky, neverPassed } = flakySplit(r);
  if (flaky.length > 0) lines.push(`flaky (passed in some runs, not in others): ${flaky.map((t) => `${t.id} ${t.pattern}`).join(", ")}`);
  if (neverPassed.length > 0) lines.push(`never passed: ${neverPassed.map((t) => `${t.id} ${t.pattern}${failingWords(t) ? ` (${failingWords(t)})` : ""}`).join(", ")}`);
  if (r.gates && r.gates.length > 0) {
    lines.push("gates (met only when the interval's bound clears them):");
    for (const g of r.gates) lines.push(`  ${MARK[g.outcome]} ${g.gate} ${g.outcome} — ${g.reason}`);
  }
  if (r.baseline) lines.push(baselineLine(r));
  return lines;
}

function baselineLine(r: Results): string {
  const b = r.baseline!;
  const regressions = b.regressions.length ? ` (${b.regressions.join(", ")})` : "";
  return `against the baseline ${b.source}: ${b.status}${regressions} · ${b.worse.length} worse, ${b.better.length} better, ${b.became_flaky.length} became flaky`;
}

export function verdictsHtml(r: Results): string {
  const parts: string[] = [];
  const { flaky, neverPassed } = flakySplit(r);
  const task = (t: TaskStats, words = false) => `<code>${esc(t.id)}</code> <span class="pattern">${esc(t.pattern)}</span>${words && failingWords(t) ? ` <span class="hint">${esc(failingWords(t))}</span>` : ""}`;
  if (flaky.length > 0) parts.push(`<p class="flaky"><b>Flaky</b> (passed in some runs, not in others): ${flaky.map((t) => task(t)).join(", ")}</p>`);
  if (neverPassed.length > 0) parts.push(`<p class="never"><b>Never passed</b>: ${neverPassed.map((t) => task(t, true)).join(", ")}</p>`);
  if (r.gates && r.gates.length > 0) {
    const show = (g: GateResult, x: number | null) => (x === null ? "—" : g.metric === "pass^k" ? `${Math.round(x * 1000) / 10}%` : formatMoney(x, r.currency));
    const rows = r.gates.map(
      (g) =>
        `<tr class="gate-${esc(g.outcome)}"><td><code>${esc(g.gate)}</code></td><td class="outcome">${MARK[g.outcome]} ${esc(g.outcome)}</td><td class="num">${esc(show(g, g.value))}</td><td class="num">${esc(show(g, g.low))}–${esc(show(g, g.high))}</td><td class="num">${g.runs_needed ?? "—"}</td><td>${esc(g.reason)}</td></tr>`,
    );
    parts.push(
      `<div id="gates"><h3>Gates <span class="hint">met only when the interval's bound clears them (the lower for pass^k, the upper for money)</span></h3><table class="gates"><tr><th>gate</th><th>outcome</th><th>value</th><th>95% interval</th><th>runs to decide</th><th>why</th></tr>${rows.join("")}</table></div>`,
    );
  }
  if (r.baseline) {
    const b = r.baseline;
    parts.push(`<div id="baseline" class="baseline-${esc(b.status)}"><h3>Against the baseline <code>${esc(b.source)}</code>: ${esc(b.status)}</h3><p>${esc(b.reason)}</p></div>`);
  }
  return parts.join("");
}

export const VERDICTS_STYLE = `
.pattern{font-family:ui-monospace,monospace;letter-spacing:.08em}.never{margin:6px 0}
#gates,#baseline{margin-top:14px;background:#fff;border:1px solid var(--line);border-radius:8px;padding:12px 14px}
table.gates td{font-size:13px}.gate-passed .outcome{color:var(--good);font-weight:600}.gate-failed .outcome{color:var(--bad);font-weight:600}.gate-undecided .outcome{color:var(--warn);font-weight:600}
.baseline-regressed h3{color:var(--bad)}
`;
