// The one-line account of a compiled tasks file, and one line per task for `tasks validate`.
import type { RubricDocument } from "../../../rubric/schema";
import { formatMoney } from "./money";
import type { TaskRecord } from "./task";

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** e.g. "tasks: 12 (7 keyed, 5 policy-only) on my-account · isolated · 2 invariants · budget $150.00" */
export function summaryLine(rubric: RubricDocument, baseSeed: string, count = rubric.tickets.length): string {
  const keyed = rubric.tickets.filter((t) => t.claim !== "policy").length;
  const parts = [`tasks: ${count} (${keyed} keyed, ${count - keyed} policy-only) on ${baseSeed}`, rubric.mode, plural(rubric.invariants.length, "invariant")];
  const b = rubric.budget;
  if (b && (b.credits_total_max !== undefined || b.credits_count_max !== undefined)) {
    const money = b.credits_total_max !== undefined ? formatMoney(b.credits_total_max, rubric.currency) : null;
    const count = b.credits_count_max !== undefined ? `${plural(b.credits_count_max, "credit")} max` : null;
    parts.push(`budget ${[money, count].filter(Boolean).join(", ")}`);
  }
  return parts.join(" · ");
}

/** `ZD-1041  billing@northwind.com -> cus_X: refund $243.00 · duplicate: any one of ch_A, ch_B · decoys: cus_Y` */
export function taskLine(t: TaskRecord): string {
  const who = t.customer ?? `candidates ${t.candidates.join(", ")}`;
  const mapped = t.requester.mapped ? " (via identity map)" : "";
  const what = t.expected === null ? "policy only" : `${t.expected} -> ${t.resolution}`;
  const decoys = t.decoys.length ? ` · decoys: ${t.decoys.join(", ")}` : "";
  return `${t.label}  ${t.requester.email}${mapped} -> ${who}: ${what}${decoys}`;
}
