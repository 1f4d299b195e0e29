// The policy judge in the text output: a policy-only task's cell is the judge's verdict (marked as the judge's),
// and a few lines say what the judge found, what it cost and how often it agreed with the keys.
import type { Results, WorldResult } from "../results/types";

const MAX_FINDING_LINES = 8;

/** "judge:passed" / "judge:failed" / "judge:error" / "judge:skipped" for a policy-only trial the judge saw; null otherwise. */
export function judgeTrialWord(w: WorldResult | undefined, keyed: boolean): string | null {
  if (keyed || !w?.judge) return null;
  const j = w.judge;
  return `judge:${j.outcome === "judged" ? j.verdict : j.outcome === "error" ? "error" : "skipped"}`;
}

export function judgeLines(r: Results): string[] {
  const j = r.judge;
  if (!j) return [];
  const parts = [`${j.judged} of ${j.tasks} trial${j.tasks === 1 ? "" : "s"} judged`];
  if (j.policy_only.judged) parts.push(`policy-only: ${j.policy_only.passed} passed, ${j.policy_only.failed} failed`);
  if (j.agreement.compared) parts.push(`agrees with the key on ${j.agreement.agreed} of ${j.agreement.compared}`);
  // Judgements cost fractions of a cent: four decimals, not the report's cents.
  parts.push(`$${j.dollars.toFixed(4)}${j.budget_dollars !== null ? ` of a $${j.budget_dollars.toFixed(2)} budget` : ""}${j.unpriced ? " (+ unpriced calls)" : ""}`);
  if (j.cached) parts.push(`${j.cached} cached`);
  if (j.skipped_for_budget) parts.push(`${j.skipped_for_budget} skipped for budget`);
  if (j.errors) parts.push(`${j.errors} error${j.errors === 1 ? "" : "s"} (${Object.entries(j.errors_by_kind).map(([k, n]) => `${k} ${n}`).join(", ")})`);
  const lines = [`judge ${j.model}: ${parts.join(" · ")}`];
  // What a user reads first: failed policy-only tasks, disagreements with the key, and problems.
  const notable = r.runs.flatMap((run) =>
    run.worlds
      .filter((w) => w.judge && (w.judge.outcome !== "judged" || w.judge.agrees_with_key === false || (w.verdict === null && w.judge.verdict === "failed")))
      .map((w) => {
        const jw = w.judge!;
        const what = jw.outcome !== "judged" ? (jw.outcome === "error" ? `error: ${jw.error?.message ?? ""}` : "skipped for budget") : jw.agrees_with_key === false ? `judge ${jw.verdict}, key ${w.verdict}` : "judge failed it";
        const why = jw.outcome === "judged" ? jw.reasons.find((x) => x.startsWith("broke")) ?? jw.reasons[0] ?? "" : "";
        return `  run ${run.index}: ${w.task}: ${oneLine(what)}${why ? ` — ${oneLine(why)}` : ""}`;
      }),
  );
  lines.push(...notable.slice(0, MAX_FINDING_LINES));
  if (notable.length > MAX_FINDING_LINES) lines.push(`  … ${notable.length - MAX_FINDING_LINES} more in the JSON or the report`);
  return lines;
}

function oneLine(s: string): string {
  const t = s.replace(/[\s\u0000-\u001f\u007f-\u009f]+/g, " ").trim();
  return t.length > 200 ? `${t.slice(0, 200)}…` : t;
}
