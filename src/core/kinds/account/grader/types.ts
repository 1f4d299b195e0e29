// The grader's vocabulary and results. Documented in docs/grading.md; passk, selftest and hosted runs read these
// shapes, so a change here is a change to the results contract.
import type { DiffOp, ObjectType } from "../../../world/diff/types";

/**
 * Per-task verdicts, worst first. A task gets exactly one: the worst that applies (the order is the precedence).
 * Policy-only tasks get null instead.
 */
export const VERDICTS = [
  "false_claim",
  "overreach",
  "wrong_target",
  "wrong_amount",
  "wrong_action",
  "missed",
  "no_reply",
  "unresolved",
  "passed",
] as const;
export type Verdict = (typeof VERDICTS)[number];

/** What the agent did, read from the diff. The first six are the kinds a key line can ask for. */
export const AGENT_ACTION_KINDS = [
  "refund",
  "credit",
  "void",
  "cancel",
  "cancel_at_period_end",
  "plan_change",
  /** A positive customer balance adjustment: the customer now owes more. */
  "debit",
  /** A charge or a succeeded payment created by the agent. */
  "charge",
  /** Money recorded as returned outside the billing system (credit note out_of_band_amount). */
  "out_of_band",
  /** An open invoice marked paid without a payment in the world (the amount is forgiven). */
  "mark_paid",
  "mark_uncollectible",
  /** A scheduled cancellation taken back. */
  "resume",
  "create_subscription",
  "delete_customer",
] as const;
export type AgentActionKind = (typeof AGENT_ACTION_KINDS)[number];

/** Kinds that move money; their amount counts in dollars. The others change state and count zero dollars. */
export const MONEY_KINDS: ReadonlySet<AgentActionKind> = new Set(["refund", "credit", "void", "debit", "charge", "out_of_band", "mark_paid"]);

/** A diff entry named as evidence (the full objects stay in the diff; evidence points at them). */
export interface EntryRef {
  type: ObjectType;
  id: string;
  op: DiffOp;
  /** Changed field paths for updates. */
  fields?: string[];
}

export interface AgentAction {
  kind: AgentActionKind;
  /** The customer it landed on (null when the diff could not say). */
  customer: string | null;
  /** The object acted on: the charge refunded, the customer credited, the invoice voided, the subscription changed. */
  object: string;
  /** Every id this action touches (refund, charge, payment intent, invoice, credit note...), for matching targets. */
  touches: string[];
  /** Cents; 0 for kinds that move no money. */
  amount: number;
  /** How it was done when not the direct route, e.g. "credit_note cn_123". */
  via: string | null;
  /** Plan changes: the prices before and after, and the names read off the new price. */
  plan?: { from: string[]; to: string[]; to_names: string[] };
  /** Refunds: whether it returned everything that was left on the charge (null when the diff cannot say). */
  full?: boolean | null;
  entries: EntryRef[];
  /** One human sentence. */
  summary: string;
}

/**
 * A change that is not an action. `edit`: fields of an existing object changed (an email, an address, a default
 * payment method); `annotation`: only notes changed (metadata, description); `other`: an object created or removed
 * that no action accounts for (often the follow-on of one). docs/grading.md says how each counts, by account.
 */
export type ChangeKind = "edit" | "annotation" | "other";

export interface OtherChange {
  customer: string | null;
  entry: EntryRef;
  summary: string;
  kind: ChangeKind;
}

/** A change placed on a task through the account it landed on. */
export interface AttributedChange extends OtherChange {
  role: Role;
}

export type ClaimKind = "refund" | "credit" | "cancel" | "void" | "plan_change";

export interface Claim {
  kind: ClaimKind;
  /** Cents named in the same clause, or null. */
  amount: number | null;
  /** Plan named (plan changes). */
  plan: string | null;
  /** The sentence it was read from. */
  sentence: string;
  /** Whether an action attributed to the task backs it. */
  backed: boolean;
  /** Why it is (not) backed. */
  reason: string;
}

export type Role = "owner" | "candidate" | "decoy";

export interface AttributedAction extends AgentAction {
  role: Role;
}

export interface TaskEvidence {
  /** The diff entries that decided the verdict. */
  entries: EntryRef[];
  /** Reply sentences that decided it (claims, the hand-off sentence). */
  sentences: string[];
  /** Short notes on each step of the decision, in order. */
  notes: string[];
}

export interface TaskGrade {
  /** The ticket id in the world (the task's position). */
  ticket: number;
  label: string;
  /** The key line as written, or null for a policy-only task. */
  expected: string | null;
  /** null for policy-only tasks. */
  verdict: Verdict | null;
  /** false for policy-only tasks: excluded from tallies. */
  graded: boolean;
  /** Cents moved that the key did not ask for (overreach, wrong target or action, excess over the amount). */
  dollars_wrong: number;
  /** Cents the key asked for that were not moved. */
  dollars_missing: number;
  /** One human sentence on why. */
  reason: string;
  reply: { present: boolean; chars: number; source: "stdout" | "desk" | "both" | "none" };
  /** Shift mode: whether the ticket ended in one of the rubric's terminal statuses; null in isolated mode. */
  terminal_status: { reached: boolean | null; status: string | null; allowed: string[] };
  /** Whether a hand-off was recognised (see docs/grading.md), for any task. */
  escalated: boolean;
  actions: AttributedAction[];
  claims: Claim[];
  evidence: TaskEvidence;
  /** The world the task was graded in. */
  world: string;
}

export interface HarmEntry {
  world: string;
  customer: string;
  /** The action, or null when the change is not an action (an edit, a created object). */
  action: AgentAction | null;
  change: OtherChange | null;
  amount: number;
  summary: string;
}

export interface InvariantResult {
  world: string;
  invariant: string;
  actual: number;
  ok: boolean;
}

export interface BudgetResult {
  credits_total: number;
  credits_count: number;
  credits_total_max: number | null;
  credits_count_max: number | null;
  ok: boolean;
}

export interface WorldGrade {
  world: string;
  mode: "isolated" | "shift";
  tasks: TaskGrade[];
  harm: HarmEntry[];
  invariants: InvariantResult[];
  /** Credits made in this world (the run asserts the budget over every world). */
  credits: { total: number; count: number };
  /** Changes on no customer (products, prices...): listed, not harm. */
  unattributed: OtherChange[];
  /** Every action read from the diff, attributed or not. */
  actions: AgentAction[];
}

export type RunFailureCode = "task" | "harm" | "invariant" | "budget" | "agent";

export interface RunFailure {
  code: RunFailureCode;
  message: string;
  world?: string;
  ticket?: number;
}

export interface RunGrade {
  passed: boolean;
  mode: "isolated" | "shift";
  /** Every graded task, in rubric order. */
  tasks: TaskGrade[];
  tally: { keyed: number; passed: number; failed: number; policy: number; by_verdict: Partial<Record<Verdict, number>> };
  dollars: { wrong: number; missing: number; harm: number };
  harm: HarmEntry[];
  invariants: InvariantResult[];
  budget: BudgetResult;
  /** Rubric tickets that no world held. */
  not_graded: number[];
  failures: RunFailure[];
  worlds: string[];
}
