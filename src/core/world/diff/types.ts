// The diff: what an agent changed in a world, folded per object from the world's change log.
// Grading reads only this (never the raw request history), so any path to the right end state passes.
// Documented in docs/diff.md.

/** Collections a world holds. Billing collections use the seed document's names; the desk adds comments. */
export const OBJECT_TYPES = [
  "customers",
  "products",
  "prices",
  "subscriptions",
  "invoices",
  "charges",
  "payment_intents",
  "refunds",
  "credit_notes",
  "balance_transactions",
  "invoice_items",
  "disputes",
  "payment_methods",
  "coupons",
  "promotion_codes",
  /** Coupons applied to a customer or a subscription; the owner's own document carries them too. */
  "discounts",
  "tax_ids",
  "tickets",
  "ticket_comments",
  "users",
  "organizations",
  "groups",
  "macros",
  "ticket_fields",
  /** The desk's record of each ticket write; kept out of the change log (the write's own changes are there). */
  "ticket_audits",
  /** Tools worlds: the records a task's writes move, and the side effects of every other accepted write. */
  "records",
] as const;
export type ObjectType = (typeof OBJECT_TYPES)[number];

export type DiffOp = "created" | "updated" | "deleted";

export interface FieldChange {
  before: unknown;
  after: unknown;
}

export interface DiffEntry {
  type: ObjectType;
  id: string;
  op: DiffOp;
  /** The customer the object belongs to (refunds: the charge's customer; tickets: the requester's), or null. */
  customer: string | null;
  /** Full object before the first change (null when created). */
  before: Record<string, unknown> | null;
  /** Full object after the last change (null when deleted). */
  after: Record<string, unknown> | null;
  /** For updates: dotted field path -> before/after, only fields whose value differs. */
  fields?: Record<string, FieldChange>;
  /** Request ids of the agent requests that touched the object, in order. */
  request_ids: string[];
}

export type DiffCounts = Record<DiffOp, Partial<Record<ObjectType, number>>>;

export interface WorldDiff {
  world: string;
  seed: { name: string; hash: string };
  clock: string;
  /** Ordered by the sequence of each object's first change. */
  entries: DiffEntry[];
  counts: DiffCounts;
}

/** One row of a world's change log. */
export interface ChangeRecord {
  seq: number;
  request_id: string;
  type: ObjectType;
  id: string;
  customer: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}
