// How far to trust the judge (`worlds judge check`): its verdicts on keyed trials against the key's, as confusion
// matrices overall, per key verdict and per trap class. Pure: built from results documents.
import type { Results } from "../results/types";

export type JudgeColumn = "judge_passed" | "judge_failed" | "error" | "skipped";
export type Cells = Record<JudgeColumn, number>;

export interface AgreementRow {
  /** A key verdict, a trap class or an agent. */
  name: string;
  trials: number;
  cells: Cells;
  /** Judged trials whose pass/fail is the key's, of those judged. */
  agreed: number;
  judged: number;
  rate: number | null;
}

export interface AgreementReport {
  trials: number;
  matrix: { key_passed: Cells; key_failed: Cells };
  agreed: number;
  judged: number;
  rate: number | null;
  by_verdict: AgreementRow[];
  by_trap_class: AgreementRow[];
  by_agent: AgreementRow[];
  dollars: number;
  cached: number;
}

const empty = (): Cells => ({ judge_passed: 0, judge_failed: 0, error: 0, skipped: 0 });
const rate = (a: number, n: number) => (n ? Math.round((a / n) * 1e6) / 1e6 : null);

interface Trial {
  agent: string;
  verdict: string;
  trapClass: string;
  column: JudgeColumn;
}

export function agreementReport(runs: ReadonlyArray<{ agent: string; results: Results }>): AgreementReport {
  const trials: Trial[] = [];
  let dollars = 0;
  let cached = 0;
  for (const { agent, results } of runs) {
    const items = new Map(results.tasks.items.map((i) => [i.position, i]));
    for (const run of results.runs)
      for (const w of run.worlds) {
        const item = items.get(w.position);
        if (!item?.keyed || !w.judge || w.verdict === null || w.verdict === "infra_error") continue;
        const j = w.judge;
        const column: JudgeColumn = j.outcome === "judged" ? (j.passed ? "judge_passed" : "judge_failed") : j.outcome === "error" ? "error" : "skipped";
        trials.push({ agent, verdict: w.verdict, trapClass: item.trap_class ?? "unclassified", column });
        dollars += j.cost.dollars ?? 0;
        if (j.cached) cached++;
      }
  }
  const agrees = (t: Trial) => (t.column === "judge_passed" && t.verdict === "passed") || (t.column === "judge_failed" && t.verdict !== "passed");
  const judged = (t: Trial) => t.column === "judge_passed" || t.column === "judge_failed";
  const rows = (key: (t: Trial) => string): AgreementRow[] => {
    const order: string[] = [];
    const groups = new Map<string, Trial[]>();
    for (const t of trials) {
      const k = key(t);
      if (!groups.has(k)) groups.set(k, []), order.push(k);
      groups.get(k)!.push(t);
    }
    return order.map((name) => {
      const g = groups.get(name)!;
      const cells = empty();
      for (const t of g) cells[t.column]++;
      const a = g.filter(agrees).length;
      const n = g.filter(judged).length;
      return { name, trials: g.length, cells, agreed: a, judged: n, rate: rate(a, n) };
    });
  };
  const matrix = { key_passed: empty(), key_failed: empty() };
  for (const t of trials) matrix[t.verdict === "passed" ? "key_passed" : "key_failed"][t.column]++;
  const agreed = trials.filter(agrees).length;
  const n = trials.filter(judged).length;
  const byVerdict = rows((t) => t.verdict).sort((a, b) => (a.name === "passed" ? -1 : b.name === "passed" ? 1 : a.name < b.name ? -1 : 1));
  return {
    trials: trials.length,
    matrix,
    agreed,
    judged: n,
    rate: rate(agreed, n),
    by_verdict: byVerdict,
    by_trap_class: rows((t) => t.trapClass),
    by_agent: rows((t) => t.agent),
    dollars: Math.round(dollars * 1e6) / 1e6,
    cached,
  };
}

/** The report as text: the matrix, then one table per grouping. */
export function agreementText(r: AgreementReport): string[] {
  const pct = (x: number | null) => (x === null ? "—" : `${Math.round(x * 100)}%`);
  const table = (head: string[], body: string[][]) => {
    const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
    return [head, ...body].map((row) => row.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ").trimEnd());
  };
  const cols = ["judge passed", "judge failed", "error", "skipped"];
  const cellRow = (c: Cells) => [String(c.judge_passed), String(c.judge_failed), String(c.error), String(c.skipped)];
  const group = (title: string, rows: AgreementRow[]) => [
    "",
    ...table([title, "trials", ...cols, "agreement"], rows.map((x) => [x.name, String(x.trials), ...cellRow(x.cells), `${x.agreed}/${x.judged} ${pct(x.rate)}`])),
  ];
  return [
    ...table(["", ...cols], [["key passed", ...cellRow(r.matrix.key_passed)], ["key failed", ...cellRow(r.matrix.key_failed)]]),
    `agreement with the key: ${r.agreed} of ${r.judged} judged trials (${pct(r.rate)})${r.trials > r.judged ? ` · ${r.trials - r.judged} not judged (errors or budget)` : ""} · $${r.dollars.toFixed(4)}${r.cached ? ` · ${r.cached} cached` : ""}`,
    ...group("key verdict", r.by_verdict),
    ...group("trap class", r.by_trap_class),
    ...group("agent", r.by_agent),
  ];
}
