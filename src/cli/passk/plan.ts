// From the compiled file to what the run needs: the tasks selected by --task (by id or position), the rubric
// and seed cut down to them, each task's agent JSON, and the seed for a world holding a given set of tickets.
import type { RubricDocument, RubricTicket } from "../../core/rubric/schema";
import type { SeedDocument, SeedTicket } from "../../core/seed/schema";
import type { WorldObjects } from "../../core/grader/index";
import type { CompiledTasks } from "../../core/tasks/index";
import { taskJson } from "../agent/contract";

export interface PlannedTask {
  ticket: RubricTicket;
  seedTicket: SeedTicket;
  /** What the agent gets on stdin and in WORLDS_TASK_JSON (isolated mode). */
  taskJson: string;
}

export interface Plan {
  rubric: RubricDocument;
  seed: SeedDocument;
  tasks: PlannedTask[];
  /** The seeded objects, so the grader can resolve links and plan names the diff does not carry. */
  objects: WorldObjects;
}

export type PlanResult = { ok: true; plan: Plan } | { ok: false; message: string };

export function planTasks(compiled: CompiledTasks, only: readonly string[] = []): PlanResult {
  const all = compiled.rubric.tickets;
  let chosen = all;
  if (only.length > 0) {
    const unknown = only.filter((id) => !all.some((t) => t.label === id || String(t.id) === id));
    if (unknown.length > 0) {
      const known = all.map((t) => t.label).join(", ");
      return { ok: false, message: `--task ${unknown.map((u) => `'${u}'`).join(", ")} matches no task in the file (its tasks: ${known})` };
    }
    chosen = all.filter((t) => only.includes(t.label) || only.includes(String(t.id)));
  }
  const seedTickets = new Map(compiled.seed.data.tickets.map((t) => [t.id, t]));
  const tasks: PlannedTask[] = [];
  for (const ticket of chosen) {
    const seedTicket = seedTickets.get(ticket.id);
    if (!seedTicket) return { ok: false, message: `the compiled seed has no ticket ${ticket.id} for task ${ticket.label} (a compiler bug: please report it)` };
    tasks.push({
      ticket,
      seedTicket,
      taskJson: taskJson({ id: ticket.id, label: ticket.label, subject: seedTicket.subject, body: seedTicket.description, requester: ticket.requester, priority: ticket.priority, tags: ticket.tags }),
    });
  }
  const ids = new Set(chosen.map((t) => t.id));
  const rubric: RubricDocument = { ...compiled.rubric, tickets: chosen };
  const seed = seedWith(compiled.seed, ids);
  const d = compiled.seed.data as unknown as Record<string, unknown[]>;
  const objects = Object.fromEntries(
    ["customers", "products", "prices", "subscriptions", "invoices", "charges", "payment_intents", "refunds", "credit_notes"].map((k) => [k, d[k] ?? []]),
  ) as WorldObjects;
  return { ok: true, plan: { rubric, seed, tasks, objects } };
}

/** The compiled seed with only these tickets on the desk (the whole account otherwise). */
export function seedWith(seed: SeedDocument, tickets: ReadonlySet<number>): SeedDocument {
  return { ...seed, data: { ...seed.data, tickets: seed.data.tickets.filter((t) => tickets.has(t.id)) } };
}
