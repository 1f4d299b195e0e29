// The tasks file (worlds/tasks.yaml) and the identity map, as zod schemas. Every object is strict: an unknown
// field is an error, as in every other worlds document. Defaults are applied by the compiler, not here, so the
// schema describes exactly what a user may write.
import { z } from "zod";
import { ticketPriority, ticketStatus } from "../../../world/seed/schema";

const text = z.string().trim().min(1);
const email = z.email();
/** Whole cents, as every amount in worlds. */
const cents = z.number().int().nonnegative();

export const TASK_FIELDS = [
  "id",
  "requester",
  "requester_name",
  "subject",
  "body",
  "priority",
  "tags",
  "expected",
  "trap_class",
  "decoys",
  "terminal_status",
  "metadata",
] as const;

export const taskEntry = z.strictObject({
  /** The user's own reference (ZD-1041); tasks without one are labelled by position. */
  id: z.union([text.max(100).regex(/^[^\r\n]+$/), z.number().int().nonnegative()]).optional(),
  requester: email,
  requester_name: text.optional(),
  subject: text,
  body: text,
  priority: ticketPriority.optional(),
  tags: z.array(text).optional(),
  /** One line of the expected grammar; null or absent = policy-only. */
  expected: z.string().nullable().optional(),
  trap_class: text.nullable().optional(),
  decoys: z.array(email).optional(),
  terminal_status: z.array(ticketStatus).min(1).optional(),
  /** Kept for reports (an import's unmapped columns); never handed to the agent. */
  metadata: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
});
export type TaskEntry = z.infer<typeof taskEntry>;

export const TASKS_FILE_FIELDS = [
  "version",
  "seed",
  "policy",
  "identity_map",
  "scenario",
  "runs",
  "mode",
  "currency",
  "budget",
  "invariants",
  "plan_names",
  "tasks",
] as const;

export const tasksMode = z.enum(["isolated", "shift"]);
export type TasksMode = z.infer<typeof tasksMode>;

export const tasksBudget = z.strictObject({
  credits_total_max: cents.optional(),
  credits_count_max: z.number().int().nonnegative().optional(),
});

export const tasksFile = z.strictObject({
  version: z.literal(1),
  seed: text,
  policy: text.nullable().optional(),
  identity_map: text.nullable().optional(),
  scenario: text.nullable().optional(),
  runs: z.number().int().min(1).max(100).optional(),
  mode: tasksMode.optional(),
  currency: z.string().regex(/^[a-z]{3}$/).optional(),
  budget: tasksBudget.nullable().optional(),
  invariants: z.array(z.string()).optional(),
  plan_names: z.array(text).optional(),
  tasks: z.array(taskEntry).min(1),
});
export type TasksFile = z.infer<typeof tasksFile>;

/** Real emails to the seed's pseudonyms, written by `worlds seed import --identity-map` (mode 0600, never shared). */
const identity = z.strictObject({ id: z.string(), email: z.string().nullable(), name: z.string().nullable() });
export const identityMapDocument = z.strictObject({
  version: z.literal(1),
  seed: z.string(),
  seed_hash: z.string(),
  customers: z.array(identity.extend({ pseudonym: identity })),
});
export type IdentityMap = z.infer<typeof identityMapDocument>;

/** The file with its tasks left unchecked, so each task can be validated (and reported) on its own. */
export const tasksFileHeader = tasksFile.extend({ tasks: z.array(z.unknown()).min(1) });
export type TasksFileHeader = z.infer<typeof tasksFileHeader>;
