// D1: the registry of worlds, hosted runs and their episodes, webhook hooks and deliveries.
// Generated into migrations/ by drizzle-kit. Every write a queue consumer makes is keyed (episode id,
// delivery event id) so at-least-once delivery never creates a second row.
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const worlds = sqliteTable("worlds", {
  id: text("id").primaryKey(),
  seedName: text("seed_name").notNull(),
  seedHash: text("seed_hash").notNull(),
  objects: integer("objects").notNull(),
  createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  deletedAt: integer("deleted_at", { mode: "timestamp_ms" }),
  runId: text("run_id"),
});

export const runs = sqliteTable(
  "runs",
  {
    id: text("id").primaryKey(),
    /** queued -> running -> done | failed (set exactly once, by the episode that completes the run) */
    status: text("status").notNull(),
    mode: text("mode").notNull(),
    source: text("source").notNull(),
    k: integer("k").notNull(),
    taskCount: integer("task_count").notNull(),
    episodesTotal: integer("episodes_total").notNull(),
    seedKey: text("seed_key").notNull(),
    rubricKey: text("rubric_key").notNull(),
    tasksFile: text("tasks_file"),
    tasksHash: text("tasks_hash"),
    agentUrl: text("agent_url").notNull(),
    agentSecret: text("agent_secret").notNull(),
    concurrency: integer("concurrency").notNull(),
    timeoutS: integer("timeout_s").notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    finishedAt: integer("finished_at", { mode: "timestamp_ms" }),
    resultJson: text("result_json"),
    exitCode: integer("exit_code"),
    /** The server origin agents reach the twin at (the admin request's or the webhook's own origin). */
    origin: text("origin"),
    /** JSON: what the results need besides the rubric (tasks file name and hashes, task filter, scenario, trigger). */
    planJson: text("plan_json").notNull().default("{}"),
    /** Why the run could not start or finish (status failed). */
    error: text("error"),
  },
  (t) => [index("runs_by_status").on(t.status, t.createdAt), index("runs_by_created").on(t.createdAt)],
);

export const episodes = sqliteTable(
  "episodes",
  {
    /** `${run}:${repetition}:${task position}` (position 0 = the whole desk, shift mode) */
    id: text("id").primaryKey(),
    runId: text("run_id").notNull(),
    repetition: integer("repetition").notNull(),
    task: integer("task").notNull(),
    /** pending -> running -> done | infra_error */
    status: text("status").notNull(),
    attempts: integer("attempts").notNull().default(0),
    claimedAt: integer("claimed_at", { mode: "timestamp_ms" }),
    worldId: text("world_id"),
    resultJson: text("result_json"),
    error: text("error"),
    traceKey: text("trace_key"),
    finishedAt: integer("finished_at", { mode: "timestamp_ms" }),
    /** 1-based number in the run (repetition-major, then file order): the n of /admin/runs/:id/episodes/:n. */
    seq: integer("seq").notNull().default(0),
    /** Which delivery holds the episode: "<queue message id>#<attempt>"; a later attempt of the same message may take it over. */
    claim: text("claim"),
    /** Keyed task trials in this episode that passed / were graded (progress without reading result_json). */
    passed: integer("passed").notNull().default(0),
    graded: integer("graded").notNull().default(0),
    /** One line for the progress view (verdicts per task, or the infrastructure error). */
    note: text("note"),
  },
  (t) => [index("episodes_by_run").on(t.runId, t.status), index("episodes_by_seq").on(t.runId, t.seq)],
);

export const hooks = sqliteTable("hooks", {
  id: text("id").primaryKey(),
  provider: text("provider").notNull(),
  secret: text("secret").notNull(),
  /** JSON: {seed} or {tasks} the runs use, plus the agent and k. */
  configJson: text("config_json").notNull(),
  createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
});

export const deliveries = sqliteTable(
  "deliveries",
  {
    hookId: text("hook_id").notNull(),
    eventId: text("event_id").notNull(),
    runId: text("run_id"),
    outcome: text("outcome").notNull(),
    receivedAt: integer("received_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.hookId, t.eventId] })],
);

/**
 * A hosted run's judge budget (src/hosted/runs/judge-budget.ts), in micro-dollars: settled spend and what calls in flight
 * have reserved. One row per run with a budget; a conditional UPDATE reserves, so isolates never overspend together.
 */
export const judgeSpend = sqliteTable("judge_spend", {
  runId: text("run_id").primaryKey(),
  limitMicros: integer("limit_micros").notNull(),
  spentMicros: integer("spent_micros").notNull().default(0),
  reservedMicros: integer("reserved_micros").notNull().default(0),
});
