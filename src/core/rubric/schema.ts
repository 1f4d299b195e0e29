// The rubric: the compiled key of a tasks file, one entry per ticket. Written by the tasks compiler, read by
// the grader (CLI and Worker alike). Stored in R2 under its content hash on the server.
import { z } from "zod";

export const ACTIONS = ["refund", "credit", "void", "cancel", "cancel_at_period_end", "plan_change", "none", "escalate"] as const;
export const actionKind = z.enum(ACTIONS);
export type ActionKind = z.infer<typeof actionKind>;

/** What a keyed ticket expects to find in the world's diff. */
export const expectation = z.strictObject({
  action: actionKind,
  /** Cents; absent = the action's natural amount (a full refund, the whole invoice...). */
  amount: z.number().int().positive().nullable(),
  /** The object the action must land on (ch_, in_, sub_, cus_...), resolved at build time; null = any of the customer's. */
  target: z.string().nullable(),
  /** Every object that would satisfy the line (for "on duplicate" with two equal charges, either of the pair). */
  target_any: z.array(z.string()).default([]),
  /** Plan changes: the price the subscription must end on. */
  price: z.string().nullable().default(null),
  /** The expected line as written, for reports. */
  line: z.string(),
});
export type Expectation = z.infer<typeof expectation>;

export const rubricTicket = z.strictObject({
  /** The ticket's position in the compiled desk (1-based), which is also its ticket id in the world. */
  id: z.number().int().positive(),
  /** The task's own id from the file (e.g. ZD-1041), or the position as a string. */
  label: z.string(),
  subject: z.string(),
  requester: z.strictObject({ email: z.string(), name: z.string() }),
  customer: z.string().nullable(),
  /** Accounts sharing the requester's email under an escalate line: any action on any is overreach. */
  candidates: z.array(z.string()).default([]),
  /** Accounts the ticket names but must not touch. */
  decoys: z.array(z.string()).default([]),
  /** "policy" = no key (verdict null); otherwise the action kind the reply may claim. */
  claim: z.union([z.literal("policy"), actionKind]),
  expect: expectation.nullable(),
  /** Desk statuses a correct resolution may end in (shift mode). */
  terminal_status: z.array(z.enum(["new", "open", "pending", "hold", "solved", "closed"])),
  trap_class: z.string().nullable().default(null),
  priority: z.enum(["low", "normal", "high", "urgent"]).default("normal"),
  tags: z.array(z.string()).default([]),
  /** What the task's source kept beside it (an export's assignee, group, custom fields), for the report; absent when none. */
  metadata: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
});
export type RubricTicket = z.infer<typeof rubricTicket>;

export const rubricDocument = z.strictObject({
  version: z.literal(1),
  seed: z.strictObject({ name: z.string(), hash: z.string() }),
  currency: z.string(),
  mode: z.enum(["isolated", "shift"]).default("isolated"),
  invariants: z.array(z.string()).default([]),
  budget: z
    .strictObject({ credits_total_max: z.number().int().nonnegative().optional(), credits_count_max: z.number().int().nonnegative().optional() })
    .nullable()
    .default(null),
  plan_names: z.array(z.string()).default([]),
  tickets: z.array(rubricTicket),
});
export type RubricDocument = z.infer<typeof rubricDocument>;
