// The comparison document: what `worlds compare --json` prints (schema docs/schemas/compare.schema.json). Like
// the results document it is a contract: fields are added, never renamed or given a new meaning.
import type { Correction } from "../stats/adjust";

export const COMPARE_SCHEMA = "worlds.compare/1" as const;

/** passed 0 (no significant regression), regressed 1, configuration_incomplete 2, setup_failed 3, inconclusive 4. */
export const COMPARE_STATUSES = ["passed", "regressed", "configuration_incomplete", "setup_failed", "inconclusive"] as const;
export type CompareStatus = (typeof COMPARE_STATUSES)[number];

export const COMPARE_EXIT: Record<CompareStatus, number> = { passed: 0, regressed: 1, configuration_incomplete: 2, setup_failed: 3, inconclusive: 4 };

export interface Band {
  value: number;
  low: number;
  high: number;
}

export interface SideSummary {
  /** The file name or run id as given. */
  source: string;
  status: string;
  tasks_file: string;
  tasks_hash: string;
  seed: string;
  mode: string;
  currency: string;
  runs: number;
  keyed_tasks: number;
  generated_at: string | null;
}

export interface TaskSide {
  /** Trials that said something about the agent: infrastructure errors are left out of the comparison. */
  trials: number;
  passed: number;
  infra_errors: number;
  rate: number | null;
  interval: { low: number; high: number } | null;
  /** One mark per run: ✓ passed, ✗ failed, ! infrastructure error, · did not run. */
  pattern: string;
  /** Some runs passed and some failed. */
  flaky: boolean;
  dollars_wrong_per_run_cents: number;
}

export type Presence = "both" | "base_only" | "new_only";

export interface TaskComparison {
  id: string;
  position: number;
  subject: string;
  presence: Presence;
  /** The task's expected line differs between the two runs: the two are not the same test. */
  key_changed: boolean;
  base: TaskSide | null;
  new: TaskSide | null;
  /** Whether the pass rate went down, up, or stayed; null when the task was not compared. */
  change: "worse" | "better" | "same" | null;
  /** new rate minus base rate. */
  delta: number | null;
  /** One-sided Boschloo p-values, raw and adjusted for the number of tests. */
  p_worse: number | null;
  p_better: number | null;
  p_worse_adjusted: number | null;
  p_better_adjusted: number | null;
  /** The direction in which the change is significant at the level after adjustment, if any. */
  significant: "worse" | "better" | null;
  became_flaky: boolean;
  no_longer_flaky: boolean;
}

export interface SuiteComparison {
  /** Keyed tasks that ran in both (the pairs). */
  tasks: number;
  successes: { base: { trials: number; passed: number }; new: { trials: number; passed: number } };
  /** The exact stratified test over those tasks (one more test in the adjusted family). */
  test: { p_worse: number; p_better: number; p_worse_adjusted: number; significant: boolean } | null;
  pass_hat_k: { k: number; base: Band; new: Band; delta: Band }[];
  /** Mean cents wrong per run over the tasks in both; null when the currencies differ. */
  dollars_wrong_per_run: { base: Band; new: Band; delta: Band } | null;
}

export interface Comparison {
  schema: typeof COMPARE_SCHEMA;
  status: CompareStatus;
  reason: string;
  next_action: string;
  exit_code: number;
  level: { alpha: number; correction: Correction; tests: number; confidence: number };
  method: { task_test: string; suite_test: string; rate_interval: string; suite_interval: string; difference_interval: string; resamples: number; key: string };
  base: SideSummary;
  new: SideSummary;
  warnings: string[];
  suite: SuiteComparison;
  tasks: TaskComparison[];
  /** Ids, most evidence first. */
  worse: string[];
  better: string[];
  became_flaky: string[];
  /** The significant regressions: task ids, and "suite" when the suite's test is. */
  regressions: string[];
}

/** A comparison that could not be made (a bad file, no server): only the contract. */
export interface EarlyComparison {
  schema: typeof COMPARE_SCHEMA;
  status: Exclude<CompareStatus, "passed" | "regressed">;
  reason: string;
  next_action: string;
  exit_code: number;
}
