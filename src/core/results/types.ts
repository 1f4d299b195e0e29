// The results document: what `worlds passk --json` prints and what a hosted run returns. This is a public
// contract (docs/results.md, docs/schemas/results.schema.json): add fields, never rename or repurpose them.
import type { AgentOutcome, Check, Evidence, InfraError, Traffic, Verdict } from "./input";
import type { JudgeRecord } from "../policy-judge/record";
import type { BaselineBlock } from "../compare/baseline";
import type { GateResult } from "../gate/evaluate";
import type { WorldTrace } from "./trace";

export const RESULTS_SCHEMA = "worlds.results/1" as const;

export const STATUSES = ["passed", "policy_failed", "configuration_incomplete", "setup_failed", "inconclusive", "interrupted"] as const;
export type Status = (typeof STATUSES)[number];

export interface Results {
  schema: typeof RESULTS_SCHEMA;
  status: Status;
  reason: string;
  next_action: string;
  /** 0 passed, 1 policy_failed, 2 configuration_incomplete, 3 setup_failed, 4 inconclusive, 128+signal interrupted. */
  exit_code: number;
  generated_at: string | null;
  mode: "isolated" | "shift";
  currency: string;
  agent: { command: string[]; display: string };
  tasks: TasksBlock;
  crash_test: CrashTest;
  /** The policy judge's run block; null when the run had no judge (docs/judge.md). */
  judge: JudgeRunBlock | null;
  runs: RunResult[];
  /** passk --gate: each gate on its interval's bound; absent without gates (docs/results.md, "Gates"). */
  gates?: GateResult[];
  /** passk --baseline: the comparison against an earlier run, summarised; absent without one. */
  baseline?: BaselineBlock;
  /** What made the run (its kind) and the command that runs it again, every task and repetition. */
  rerun: { kind: RunKind; command: string };
}

export const RUN_KINDS = ["account", "tools", "evals", "family"] as const;
export type RunKind = (typeof RUN_KINDS)[number];

export interface TasksBlock {
  file: string;
  hashes: { file: string; seed: string; rubric: string };
  seed: { name: string; hash: string };
  pack: string | null;
  count: number;
  keyed: number;
  policy_only: number;
  invariants: string[];
  budget: { credits_total_max?: number; credits_count_max?: number } | null;
  items: TaskItem[];
}

export interface TaskItem {
  /** The task's id in the file (its position as a string when it has none): what `--task` takes. */
  id: string;
  position: number;
  subject: string;
  keyed: boolean;
  /** Whether the key grades it: false for a policy-only task, whose verdict is null (the judge's is its only grade). */
  graded: boolean;
  /** The expected line as written; null for a policy-only task. */
  expected: string | null;
  trap_class: string | null;
  /** What the task's source kept beside it (an export's assignee, tags as written, custom fields); null when none. */
  metadata: Record<string, string | number | boolean | null> | null;
}

export interface RunResult {
  index: number;
  flawless: boolean;
  dollars_wrong_cents: number;
  /** Why the run was not flawless, one line each, in a fixed order (tasks in file order, then checks). */
  problems: string[];
  checks: Check[];
  worlds: WorldResult[];
}

/** One task in one run. In shift mode every task of a run shares the world, the agent outcome and the traffic. */
export interface WorldResult {
  task: string;
  position: number;
  world: string | null;
  verdict: Verdict | null;
  /** Whether this trial counts as a success (see crash_test.success_rule); null for a policy-only task. */
  passed: boolean | null;
  dollars_wrong_cents: number;
  /** The grader's reward, 0 to 1; absent for a grader that only passes or fails, or a trial not graded. */
  reward?: number;
  reply: ReplyExcerpt | null;
  status_after: string | null;
  evidence: Evidence;
  agent: AgentOutcome | null;
  traffic: Traffic | null;
  checks: Check[];
  infra_error: InfraError | null;
  /** The policy judge's second opinion on this trial (the verdict of a policy-only task); null without --judge. */
  judge: WorldJudge | null;
  /**
   * The agent's calls in this world, in order, each with the diff entries it caused; null when the world's end
   * was not read. A shift's world is shared by its tasks: the first task of the world carries it, the others null.
   */
  trace: WorldTrace | null;
}

export type WorldJudge = JudgeRecord & {
  /** On a keyed task: whether the judge's pass/fail matches the key's verdict; null when either has none. */
  agrees_with_key: boolean | null;
};

export interface JudgeRunBlock {
  model: string;
  prompt_version: string;
  policy: { source: string; sha256: string; chars: number };
  budget_dollars: number | null;
  /** Trials the judge was asked about. */
  tasks: number;
  judged: number;
  errors: number;
  errors_by_kind: Record<string, number>;
  skipped_for_budget: number;
  /** Requests sent to the model, retries included. */
  calls: number;
  /** Judgements answered from the cache. */
  cached: number;
  tokens: { input: number; output: number };
  /** Wall time of the judgements: their sum and the mean per trial (they overlap each other and the episodes). */
  duration_ms: { total: number; mean: number | null };
  dollars: number;
  /** Some judgement used a model the price table does not hold (its cost is not in dollars). */
  unpriced: boolean;
  /** The judge's verdicts on tasks with no key: the only grade they get. */
  policy_only: { judged: number; passed: number; failed: number };
  /** Keyed trials both graded: how often the judge's pass/fail was the key's, as a confusion matrix. */
  agreement: {
    compared: number;
    agreed: number;
    rate: number | null;
    key_passed: { judge_passed: number; judge_failed: number };
    key_failed: { judge_passed: number; judge_failed: number };
  };
}

export interface ReplyExcerpt {
  excerpt: string;
  bytes: number;
  truncated: boolean;
}

export interface PassHatPoint {
  k: number;
  value: number;
}

export interface PassHatBand extends PassHatPoint {
  low: number;
  high: number;
}

export interface TaskStats {
  /** The mean reward over the trials that have one (portable tasks); absent when none has. */
  mean_reward?: number;
  id: string;
  position: number;
  keyed: boolean;
  /** As the task item's: false for a policy-only task. */
  graded: boolean;
  trials: number;
  passed: number;
  infra_errors: number;
  accuracy: number | null;
  interval: { low: number; high: number } | null;
  pass_hat_k: PassHatPoint[] | null;
  /** The verdict of each run in run order (null: policy-only, or the task did not run in that repetition). */
  verdicts: (Verdict | null)[];
  dollars_wrong_cents: number;
  flaky: boolean;
  /** One mark per run in run order: ✓ succeeded, ✗ failed, ! infrastructure error, · did not run; "" for a policy-only task. */
  pattern: string;
}

export interface TrapClassStats {
  trap_class: string;
  tasks: number;
  trials: number;
  passed: number;
  accuracy: number | null;
  interval: { low: number; high: number } | null;
  dollars_wrong_cents: number;
}

export interface WorstTask {
  id: string;
  position: number;
  subject: string;
  accuracy: number;
  dollars_wrong_cents: number;
  verdicts: (Verdict | null)[];
  /** The shell line that reruns just this task once. */
  replay: string;
}

export interface CrashTest {
  runs: number;
  runs_requested: number;
  flawless_runs: number;
  dollars_wrong_per_run: number[];
  dollars_wrong_total_cents: number;
  success_rule: string;
  trials: { keyed: number; passed: number; failed: number; infra_errors: number; policy_only: number };
  infra_errors: { count: number; by_stage: Record<string, number> };
  tasks: TaskStats[];
  suite: { tasks: number; k_max: number; accuracy: { value: number; low: number; high: number } | null; pass_hat_k: PassHatBand[] };
  flaky_tasks: string[];
  /** Keyed tasks that never succeeded in a run that said anything about the agent (listed apart from the flaky ones). */
  always_failing_tasks: string[];
  worst_task: WorstTask | null;
  by_trap_class: TrapClassStats[];
}

/** A run that stopped before its tasks compiled: only the contract (schema $defs/early). */
export interface EarlyResults {
  schema: typeof RESULTS_SCHEMA;
  status: "configuration_incomplete" | "setup_failed" | "inconclusive" | "interrupted";
  reason: string;
  next_action: string;
  exit_code: number;
  generated_at: string | null;
}
