// From a compiled tasks file (its seed and rubric) to the episodes a run is made of. Runtime-neutral: the CLI
// (passk) and the Worker (hosted runs) plan the same episodes from the same input, so both grade alike.
import type { WorldObjects } from "../kinds/account/grader/index";
import type { RubricDocument, RubricTicket } from "../rubric/schema";
import type { SeedDocument, SeedTicket } from "../world/seed/schema";
import { agentTask, type AgentTask } from "./task";

export type RunMode = "isolated" | "shift";

export interface PlannedTask {
  ticket: RubricTicket;
  seedTicket: SeedTicket;
  task: AgentTask;
}

export interface RunPlan {
  /** The rubric cut down to the selected tasks. */
  rubric: RubricDocument;
  /** The compiled seed with only the selected tickets on the desk. */
  seed: SeedDocument;
  tasks: PlannedTask[];
  /** The seeded objects, so the grader can resolve links and plan names the diff does not carry. */
  objects: WorldObjects;
}

export type PlanOutcome = { ok: true; plan: RunPlan } | { ok: false; message: string };

/** The rubric's tickets a `task` filter selects (by id in the file or by position); none given = all. */
export function selectTickets(rubric: RubricDocument, only: readonly string[] = []): { ok: true; tickets: RubricTicket[] } | { ok: false; message: string } {
  const all = rubric.tickets;
  if (only.length === 0) return { ok: true, tickets: all };
  const unknown = only.filter((id) => !all.some((t) => t.label === id || String(t.id) === id));
  if (unknown.length > 0)
    return { ok: false, message: `task ${unknown.map((u) => `'${u}'`).join(", ")} matches no task in the file (its tasks: ${all.map((t) => t.label).join(", ")})` };
  return { ok: true, tickets: all.filter((t) => only.includes(t.label) || only.includes(String(t.id))) };
}

/** The rubric cut down to the selected tickets: what the run is graded and reported against. */
export function selectRubric(rubric: RubricDocument, only: readonly string[] = []): { ok: true; rubric: RubricDocument } | { ok: false; message: string } {
  const sel = selectTickets(rubric, only);
  return sel.ok ? { ok: true, rubric: { ...rubric, tickets: sel.tickets } } : sel;
}

/** Selects tasks as `--task` does, and pairs each with its ticket on the seed's desk. */
export function planRun(seed: SeedDocument, rubric: RubricDocument, only: readonly string[] = []): PlanOutcome {
  const sel = selectTickets(rubric, only);
  if (!sel.ok) return sel;
  const chosen = sel.tickets;
  const seedTickets = new Map(seed.data.tickets.map((t) => [t.id, t]));
  const tasks: PlannedTask[] = [];
  for (const ticket of chosen) {
    const seedTicket = seedTickets.get(ticket.id);
    if (!seedTicket) return { ok: false, message: `the seed has no ticket ${ticket.id} for task ${ticket.label}: the seed and the rubric were not built together` };
    tasks.push({ ticket, seedTicket, task: agentTask(ticket, seedTicket) });
  }
  return {
    ok: true,
    plan: { rubric: { ...rubric, tickets: chosen }, seed: seedWith(seed, new Set(chosen.map((t) => t.id))), tasks, objects: graderObjects(seed) },
  };
}

/** The seed with only these tickets on the desk (the whole account otherwise). */
export function seedWith(seed: SeedDocument, tickets: ReadonlySet<number>): SeedDocument {
  return { ...seed, data: { ...seed.data, tickets: seed.data.tickets.filter((t) => tickets.has(t.id)) } };
}

const GRADER_COLLECTIONS = ["customers", "products", "prices", "subscriptions", "invoices", "charges", "payment_intents", "refunds", "credit_notes"] as const;

/** The billing collections of a seed, as grading context (the CLI grades with the seeded objects too). */
export function graderObjects(seed: SeedDocument): WorldObjects {
  const d = seed.data as unknown as Record<string, unknown[] | undefined>;
  return Object.fromEntries(GRADER_COLLECTIONS.map((k) => [k, d[k] ?? []])) as WorldObjects;
}

/** One world an agent works: a task in one repetition (isolated), or the whole desk in one repetition (shift). */
export interface EpisodeJob {
  /** 1-based, repetition-major then file order: the episode's number within its run. */
  seq: number;
  /** 1-based repetition. */
  repetition: number;
  /** The task's ticket id (its position in the desk); 0 for a shift episode, which holds every task. */
  position: number;
  /** Rubric ticket ids the world holds, in desk order. */
  tickets: number[];
}

export function episodeJobs(mode: RunMode, runs: number, tasks: readonly PlannedTask[]): EpisodeJob[] {
  const jobs: EpisodeJob[] = [];
  for (let repetition = 1; repetition <= runs; repetition++) {
    if (mode === "isolated") for (const t of tasks) jobs.push({ seq: jobs.length + 1, repetition, position: t.ticket.id, tickets: [t.ticket.id] });
    else jobs.push({ seq: jobs.length + 1, repetition, position: 0, tickets: tasks.map((t) => t.ticket.id) });
  }
  return jobs;
}

/** The episode's key in storage: stable across redeliveries, so every write about it is an upsert. */
export function episodeId(runId: string, job: Pick<EpisodeJob, "repetition" | "position">): string {
  return `${runId}:${job.repetition}:${job.position}`;
}

/** The seed an episode's world starts from: its one ticket (isolated) or every selected ticket (shift). */
export function episodeSeed(plan: RunPlan, job: Pick<EpisodeJob, "tickets">, mode: RunMode): SeedDocument {
  return mode === "shift" ? plan.seed : seedWith(plan.seed, new Set(job.tickets));
}
