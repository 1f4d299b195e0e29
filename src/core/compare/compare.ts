// Two crash tests of the same tasks, before and after a change: which tasks got worse, better or flaky, by how
// much the suite's pass^k and money wrong moved, and whether any of it is more than the noise of k runs.
//
// What pairing means here: run i of the base and run i of the new share nothing but their number (fresh worlds,
// separate agent processes), so episodes are not paired. Within a task the two sides are independent binomial
// samples (Boschloo's exact test). Across tasks the comparison is paired by task: the suite's test conditions on
// each task's total successes (the exact stratified test), and the bootstrap draws the same tasks for both sides.
import { adjustPValues, type Correction } from "../stats/adjust";
import { drawTasks, percentileInterval, resampled, BOOTSTRAP_KEY, BOOTSTRAP_RESAMPLES } from "../stats/bootstrap";
import { suitePassHatInterval } from "../stats/cluster";
import { boschlooWorse, stratifiedExact, type Count } from "../stats/exact";
import { passHatK } from "../stats/passk";
import { wilson } from "../stats/wilson";
import { mixedPattern } from "../results/pattern";
import { meanPerRun, trialTable, type TaskRecord } from "../results/trials";
import { shellQuote } from "../results/shell";
import type { ResultsDocument } from "./input";
import { COMPARE_EXIT, COMPARE_SCHEMA, type Band, type Comparison, type SideSummary, type SuiteComparison, type TaskComparison, type TaskSide } from "./types";
import { formatP, ratio } from "./words";

export interface CompareOptions {
  /** The significance level a regression must reach after adjustment (default 0.05). */
  alpha?: number;
  correction?: Correction;
  /** The bootstrap's key and size: the same key and inputs give the same bytes. */
  key?: string;
  resamples?: number;
}

export interface Side {
  source: string;
  doc: ResultsDocument;
}

const CONFIDENCE = 0.95;

export function compareResults(base: Side, next: Side, options: CompareOptions = {}): Comparison {
  const alpha = options.alpha ?? 0.05;
  const correction = options.correction ?? "holm";
  const key = options.key ?? BOOTSTRAP_KEY;
  const resamples = options.resamples ?? BOOTSTRAP_RESAMPLES;
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`compareResults: alpha must lie in (0, 1), got ${alpha}`);

  const tb = trialTable(base.doc);
  const tn = trialTable(next.doc);
  const warnings = sideWarnings(base, next);
  const newById = new Map(tn.tasks.map((t) => [t.id, t]));
  const baseIds = new Set(tb.tasks.map((t) => t.id));

  const rows: TaskComparison[] = [];
  const pairs: { row: TaskComparison; base: Count; next: Count }[] = [];
  for (const b of tb.tasks) {
    const n = newById.get(b.id);
    const row = taskRow(b, n ?? null);
    rows.push(row);
    if (!n) continue;
    if (b.keyed !== n.keyed) warnings.push(`${b.id} is keyed in one run and policy-only in the other: not compared`);
    else if (row.key_changed) warnings.push(`${b.id}'s expected line changed (${JSON.stringify(b.expected)} → ${JSON.stringify(n.expected)}): compared, but it is not the same test`);
    if (b.keyed && n.keyed && row.base!.trials > 0 && row.new!.trials > 0) pairs.push({ row, base: count(row.base!), next: count(row.new!) });
  }
  for (const n of tn.tasks) if (!baseIds.has(n.id)) rows.push(taskRow(null, n));
  const onlyBase = rows.filter((r) => r.presence === "base_only" && tb.tasks.find((t) => t.id === r.id)?.keyed).map((r) => r.id);
  const onlyNew = rows.filter((r) => r.presence === "new_only" && tn.tasks.find((t) => t.id === r.id)?.keyed).map((r) => r.id);
  if (onlyBase.length) warnings.push(`${onlyBase.length} keyed task${onlyBase.length === 1 ? "" : "s"} only in the base (${onlyBase.join(", ")}): not compared`);
  if (onlyNew.length) warnings.push(`${onlyNew.length} keyed task${onlyNew.length === 1 ? "" : "s"} only in the new run (${onlyNew.join(", ")}): not compared`);
  if (pairs.length > 0 && pairs.length < 5) warnings.push(`only ${pairs.length} task${pairs.length === 1 ? "" : "s"} in both: the suite's intervals rest on few tasks and are rough`);

  // Each pair's one-sided tests; the suite's test joins the regression family when there is more than one task.
  for (const p of pairs) {
    p.row.p_worse = boschlooWorse(p.base, p.next);
    p.row.p_better = boschlooWorse(p.next, p.base);
  }
  const suiteTest = pairs.length > 1 ? stratifiedExact(pairs.map((p) => ({ base: p.base, next: p.next }))) : null;
  const family = [...pairs.map((p) => p.row.p_worse!), ...(suiteTest ? [suiteTest.worse] : [])];
  const adjustedWorse = adjustPValues(family, correction);
  const adjustedBetter = adjustPValues(pairs.map((p) => p.row.p_better!), correction);
  pairs.forEach((p, i) => {
    p.row.p_worse_adjusted = adjustedWorse[i];
    p.row.p_better_adjusted = adjustedBetter[i];
    p.row.significant = adjustedWorse[i] < alpha ? "worse" : adjustedBetter[i] < alpha ? "better" : null;
  });
  const suiteAdjusted = suiteTest ? adjustedWorse[adjustedWorse.length - 1] : null;

  const suite = suiteBlock(pairs, suiteTest, suiteAdjusted, alpha, tb.tasks, tn.tasks, tb.residual_per_run, tn.residual_per_run, base.doc.currency === next.doc.currency, key, resamples);
  if (base.doc.currency !== next.doc.currency) warnings.push(`the runs are in different currencies (${base.doc.currency}, ${next.doc.currency}): money is not compared`);

  const compared = pairs.map((p) => p.row);
  const worse = compared.filter((r) => r.change === "worse").sort((a, b) => a.p_worse! - b.p_worse! || a.delta! - b.delta! || a.position - b.position);
  const better = compared.filter((r) => r.change === "better").sort((a, b) => a.p_better! - b.p_better! || b.delta! - a.delta! || a.position - b.position);
  const flaky = compared.filter((r) => r.became_flaky).sort((a, b) => a.p_worse! - b.p_worse! || a.position - b.position);
  const regressions = [...worse.filter((r) => r.significant === "worse").map((r) => r.id), ...(suite.test?.significant ? ["suite"] : [])];

  const status = pairs.length === 0 ? "inconclusive" : regressions.length > 0 ? "regressed" : "passed";
  const { reason, next_action } = explain(status, { worse, regressions, suite, alpha, correction, tests: family.length, next });
  for (const r of rows) roundRow(r);
  return {
    schema: COMPARE_SCHEMA,
    status,
    reason,
    next_action,
    exit_code: COMPARE_EXIT[status],
    level: { alpha, correction, tests: family.length, confidence: CONFIDENCE },
    method: {
      task_test: "Boschloo's exact unconditional test, one-sided, per task (infrastructure errors left out)",
      suite_test: "exact stratified conditional test (exact Cochran-Mantel-Haenszel), strata = tasks",
      rate_interval: "Wilson score, 95%",
      suite_interval: "Wilson score over the effective number of trials (cluster-robust variance, clustered by task), 95%",
      difference_interval: "paired cluster bootstrap over tasks, percentile, 95%",
      resamples,
      key,
    },
    base: summary(base),
    new: summary(next),
    warnings,
    suite,
    tasks: rows,
    worse: worse.map((r) => r.id),
    better: better.map((r) => r.id),
    became_flaky: flaky.map((r) => r.id),
    regressions,
  };
}

function count(s: TaskSide): Count {
  return { n: s.trials, c: s.passed };
}

function taskSide(t: TaskRecord): TaskSide {
  const trials = t.keyed ? t.trials - t.infra_errors : 0;
  const passed = t.keyed ? t.passed : 0;
  const band = t.keyed && trials > 0 ? wilson(passed, trials) : null;
  return {
    trials,
    passed,
    infra_errors: t.infra_errors,
    rate: band ? passed / trials : null,
    interval: band,
    pattern: t.pattern,
    flaky: mixedPattern(t.pattern),
    dollars_wrong_per_run_cents: meanPerRun(t.dollars_per_run),
  };
}

function taskRow(b: TaskRecord | null, n: TaskRecord | null): TaskComparison {
  const any = (b ?? n)!;
  const base = b ? taskSide(b) : null;
  const next = n ? taskSide(n) : null;
  const both = base !== null && next !== null && base.rate !== null && next.rate !== null && b!.keyed === n!.keyed;
  const delta = both ? next.rate! - base.rate! : null;
  return {
    id: any.id,
    position: any.position,
    subject: any.subject,
    presence: b && n ? "both" : b ? "base_only" : "new_only",
    key_changed: b !== null && n !== null && b.expected !== n.expected,
    base,
    new: next,
    change: delta === null ? null : delta < 0 ? "worse" : delta > 0 ? "better" : "same",
    delta,
    p_worse: null,
    p_better: null,
    p_worse_adjusted: null,
    p_better_adjusted: null,
    significant: null,
    became_flaky: both && !base.flaky && next.flaky,
    no_longer_flaky: both && base.flaky && !next.flaky,
  };
}

function suiteBlock(
  pairs: { row: TaskComparison; base: Count; next: Count }[],
  test: ReturnType<typeof stratifiedExact> | null,
  adjusted: number | null,
  alpha: number,
  baseTasks: TaskRecord[],
  newTasks: TaskRecord[],
  baseResidual: number[],
  newResidual: number[],
  sameCurrency: boolean,
  key: string,
  resamples: number,
): SuiteComparison {
  const T = pairs.length;
  const draws = drawTasks(T, resamples, key);
  const kMax = T === 0 ? 0 : Math.min(...pairs.map((p) => Math.min(p.base.n, p.next.n)));
  const passHat: SuiteComparison["pass_hat_k"] = [];
  for (let k = 1; k <= kMax; k++) {
    const b = suitePassHatInterval(pairs.map((p) => p.base), k)!;
    const n = suitePassHatInterval(pairs.map((p) => p.next), k)!;
    const d = pairs.map((p) => passHatK(p.next.n, p.next.c, k) - passHatK(p.base.n, p.base.c, k));
    const band = percentileInterval(resampled(d, draws, "mean"), CONFIDENCE);
    passHat.push({ k, base: prob(b), new: prob(n), delta: { value: round6(n.value - b.value), low: round6(band.low), high: round6(band.high) } });
  }

  // Money: every task in both runs (policy-only tasks' worlds can do harm too), paired by task the same way.
  let dollars: SuiteComparison["dollars_wrong_per_run"] = null;
  if (sameCurrency) {
    const newById = new Map(newTasks.map((t) => [t.id, t]));
    const shared = baseTasks.filter((t) => newById.has(t.id));
    const mb = shared.map((t) => meanPerRun(t.dollars_per_run));
    const mn = shared.map((t) => meanPerRun(newById.get(t.id)!.dollars_per_run));
    const rb = meanPerRun(baseResidual);
    const rn = meanPerRun(newResidual);
    const moneyDraws = drawTasks(shared.length, resamples, `${key}|money`);
    const side = (m: number[], r: number): Band => {
      const value = sum(m) + r;
      if (m.length === 0) return cents({ value, low: value, high: value });
      const i = percentileInterval(resampled(m, moneyDraws, "sum"), CONFIDENCE);
      return cents({ value, low: i.low + r, high: i.high + r });
    };
    const d = mn.map((x, i) => x - mb[i]);
    const dv = sum(d) + rn - rb;
    const di = d.length ? percentileInterval(resampled(d, moneyDraws, "sum"), CONFIDENCE) : { low: 0, high: 0 };
    dollars = { base: side(mb, rb), new: side(mn, rn), delta: cents({ value: dv, low: di.low + rn - rb, high: di.high + rn - rb }) };
  }
  const bTrials = sum(pairs.map((p) => p.base.n));
  const nTrials = sum(pairs.map((p) => p.next.n));
  return {
    tasks: T,
    successes: { base: { trials: bTrials, passed: sum(pairs.map((p) => p.base.c)) }, new: { trials: nTrials, passed: sum(pairs.map((p) => p.next.c)) } },
    test: test && adjusted !== null ? { p_worse: sig(test.worse), p_better: sig(test.better), p_worse_adjusted: sig(adjusted), significant: adjusted < alpha } : null,
    pass_hat_k: passHat,
    dollars_wrong_per_run: dollars,
  };
}

function sideWarnings(base: Side, next: Side): string[] {
  const out: string[] = [];
  const b = base.doc;
  const n = next.doc;
  if (b.tasks.hashes.file !== n.tasks.hashes.file) out.push(`the tasks files differ (${b.tasks.file} sha256 ${b.tasks.hashes.file.slice(0, 12)}…, ${n.tasks.file} sha256 ${n.tasks.hashes.file.slice(0, 12)}…): tasks are matched by id`);
  if (b.tasks.seed.hash !== n.tasks.seed.hash) out.push(`the seeds differ (${b.tasks.seed.name}, ${n.tasks.seed.name}): the same task may not be the same test`);
  if (b.mode !== n.mode) out.push(`the modes differ (${b.mode}, ${n.mode}): shift and isolated runs of a task are not the same test`);
  for (const [label, side] of [["base", base], ["new", next]] as const) {
    const infra = side.doc.crash_test.tasks.reduce((s, t) => s + (t.keyed ? t.infra_errors : 0), 0);
    if (infra > 0) out.push(`${label}: ${infra} infrastructure error${infra === 1 ? "" : "s"} left out of the counts (they say nothing about the agent)`);
    if (side.doc.status !== "passed" && side.doc.status !== "policy_failed") out.push(`${label} run is ${side.doc.status}: ${side.doc.reason}`);
  }
  return out;
}

function explain(
  status: Comparison["status"],
  f: { worse: TaskComparison[]; regressions: string[]; suite: SuiteComparison; alpha: number; correction: Correction; tests: number; next: Side },
): { reason: string; next_action: string } {
  const how = f.correction === "none" ? `at ${f.alpha}, unadjusted` : `at ${f.alpha}, ${f.correction === "holm" ? "Holm" : "Benjamini-Hochberg"} over ${f.tests} test${f.tests === 1 ? "" : "s"}`;
  if (status === "inconclusive") return { reason: "no keyed task ran in both runs, so nothing could be compared", next_action: "compare two results files of the same tasks file (worlds passk --json-file)" };
  const line = (r: TaskComparison) => `${r.id} ${ratio(r.base!)} → ${ratio(r.new!)} (p = ${formatP(r.p_worse!)}, adjusted ${formatP(r.p_worse_adjusted!)})`;
  if (status === "regressed") {
    const tasks = f.worse.filter((r) => r.significant === "worse");
    const parts = tasks.slice(0, 3).map(line);
    if (tasks.length > 3) parts.push(`${tasks.length - 3} more`);
    const s = f.suite;
    if (s.test?.significant)
      parts.push(`the suite ${s.successes.base.passed}/${s.successes.base.trials} → ${s.successes.new.passed}/${s.successes.new.trials} over ${s.tasks} tasks (p = ${formatP(s.test.p_worse)}, adjusted ${formatP(s.test.p_worse_adjusted)})`);
    // A suite-only regression has no single task to blame: the tasks with the most evidence are where to look.
    const look = (tasks.length ? tasks : f.worse).slice(0, 3).map((r) => r.id);
    const rerun = rerunLine(f.next, look, 10);
    const where = look.length ? look.join(", ") : "the tasks named above";
    return {
      reason: `significant regression ${how}: ${parts.join("; ")}`,
      next_action: rerun ? `read ${where} in the new run's report, then rerun ${look.length === 1 ? "it" : "them"} to confirm: ${rerun}` : `read ${where} in the new run's report`,
    };
  }
  if (f.worse.length === 0) return { reason: `no task got worse (${f.suite.tasks} compared; ${how})`, next_action: "nothing to do" };
  const first = f.worse[0];
  const rerun = rerunLine(f.next, f.worse.slice(0, 3).map((r) => r.id), 10);
  return {
    reason: `no significant regression ${how}: ${f.worse.length} task${f.worse.length === 1 ? "" : "s"} worse within the noise of the runs, most evidence ${line(first)}`,
    next_action: rerun ? `to settle it, run ${f.worse.length === 1 ? "that task" : "those tasks"} more often: ${rerun}` : "run the tasks that got worse more often (--runs 10) to settle it",
  };
}

/**
 * The new run's replay line for its worst task, turned into one that reruns `ids` with `runs` runs: the results
 * do not keep the server flags any other way.
 */
function rerunLine(next: Side, ids: string[], runs: number): string | null {
  const worst = next.doc.crash_test.worst_task;
  if (!worst || ids.length === 0) return null;
  const marker = ` --task ${shellQuote(worst.id)} --runs 1`;
  const at = worst.replay.indexOf(marker);
  if (at < 0) return null;
  return `${worst.replay.slice(0, at)} ${ids.map((id) => `--task ${shellQuote(id)}`).join(" ")} --runs ${runs}${worst.replay.slice(at + marker.length)}`;
}

function summary(s: Side): SideSummary {
  const d = s.doc;
  return {
    source: s.source,
    status: d.status,
    tasks_file: d.tasks.file,
    tasks_hash: d.tasks.hashes.file,
    seed: d.tasks.seed.name,
    mode: d.mode,
    currency: d.currency,
    runs: d.crash_test.runs,
    keyed_tasks: d.crash_test.tasks.filter((t) => t.keyed).length,
    generated_at: d.generated_at,
  };
}

function roundRow(r: TaskComparison): void {
  for (const side of [r.base, r.new]) {
    if (!side) continue;
    if (side.rate !== null) side.rate = round6(side.rate);
    if (side.interval) side.interval = { low: round6(side.interval.low), high: round6(side.interval.high) };
    side.dollars_wrong_per_run_cents = Math.round(side.dollars_wrong_per_run_cents);
  }
  if (r.delta !== null) r.delta = round6(r.delta);
  for (const k of ["p_worse", "p_better", "p_worse_adjusted", "p_better_adjusted"] as const) if (r[k] !== null) r[k] = sig(r[k]!);
}

function prob(i: { value: number; low: number; high: number }): Band {
  return { value: round6(i.value), low: round6(i.low), high: round6(i.high) };
}

function cents(b: Band): Band {
  return { value: Math.round(b.value), low: Math.round(b.low), high: Math.round(b.high) };
}

function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

/** p-values keep six significant digits: 1e-9 must not round to 0. */
function sig(p: number): number {
  return p === 0 ? 0 : Number(p.toPrecision(6));
}

function sum(xs: readonly number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return s;
}
