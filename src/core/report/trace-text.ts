// The agent's calls as text: `passk --explain TASK` prints them for every trial of the task, and a JUnit failure's
// body lists them under the verdict, one line per call with the changes it caused.
import type { Results, WorldResult } from "../results/types";
import type { TraceStep, WorldTrace } from "../results/trace";
import { traceOf, trialWord } from "./format";

/** One call: `#3 billing POST /v1/refunds charge=ch_2 amount=24300 → 200 refund re_1 [created refunds re_1]`. */
export function stepLine(s: TraceStep): string {
  const args = s.args ? ` ${s.args}` : "";
  const changes = s.changes.length ? ` [${s.changes.join("; ")}]` : "";
  return `#${s.seq} ${s.within !== null ? "↳ " : ""}${s.surface} ${s.method} ${s.target}${args} → ${s.status}${s.answer ? ` ${s.answer}` : ""}${changes}`;
}

/** A trial's calls, indented; a line saying when there were none or when the trace was cut. */
export function traceLines(trace: WorldTrace | null, indent: string): string[] {
  if (!trace) return [`${indent}calls: not recorded`];
  if (trace.steps.length === 0) return [`${indent}calls: none`];
  const head = `${indent}calls (${trace.total}${trace.total > trace.steps.length ? `, ${trace.steps.length} shown` : ""}):`;
  return [head, ...trace.steps.map((s) => `${indent}  ${stepLine(s)}`)];
}

/** Every trial of one task (by id, as `--task` takes it): its verdict, why, and the agent's calls in order. */
export function renderExplain(r: Results, task: string): string {
  const item = r.tasks.items.find((i) => i.id === task);
  if (!item) return `--explain ${task}: no such task in ${r.tasks.file} (its tasks: ${r.tasks.items.map((i) => i.id).join(", ")})\n`;
  const lines = [`${item.id} "${item.subject}" · expected ${item.expected ?? "nothing (policy-only)"}`];
  for (const run of r.runs) {
    const w = run.worlds.find((x) => x.position === item.position);
    if (!w) {
      lines.push(`run ${run.index}: did not run`);
      continue;
    }
    lines.push(`run ${run.index} (world ${w.world ?? "none"}): ${trialWord(w, item.keyed)}`);
    lines.push(...whyLines(w), ...traceLines(traceOf(run, w), "  "));
  }
  return lines.join("\n") + "\n";
}

function whyLines(w: WorldResult): string[] {
  const out = w.evidence.notes.map((n) => `  why: ${n}`);
  if (w.infra_error) out.push(`  infrastructure error at ${w.infra_error.stage}: ${w.infra_error.message}`);
  for (const e of w.evidence.diff) out.push(`  diff: ${e.op} ${e.type} ${e.id}${typeof e.customer === "string" ? ` (customer ${e.customer})` : ""}`);
  if (w.reply) out.push(`  reply: ${w.reply.excerpt.replace(/\s+/g, " ").slice(0, 200)}`);
  return out;
}
