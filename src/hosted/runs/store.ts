// D1 access for hosted runs. Every write about an episode is keyed by its id and conditional on who holds it,
// so a redelivered or retried queue message can never add a second result or undo a finished one.
import { and, asc, desc, eq, sql, type SQL } from "drizzle-orm";
import { drizzle, type DrizzleD1Database } from "drizzle-orm/d1";
import * as schema from "../../db/schema";
import { episodes, runs } from "../../db/schema";

export type Db = DrizzleD1Database<typeof schema>;
export const database = (d1: D1Database): Db => drizzle(d1, { schema });

export type RunRow = typeof runs.$inferSelect;
export type EpisodeRow = typeof episodes.$inferSelect;
export type NewEpisodeRow = typeof episodes.$inferInsert;

/** D1 binds at most 100 parameters per statement; multi-row inserts are cut to fit. */
const MAX_PARAMS = 100;

/** The run and its episodes in one atomic batch (D1 has no BEGIN; a batch is a transaction). */
export async function insertRun(db: Db, run: typeof runs.$inferInsert, rows: NewEpisodeRow[]): Promise<void> {
  // Count what drizzle really binds per row (it also binds the columns' defaults), not the keys given.
  const perRow = rows.length ? db.insert(episodes).values(rows[0]).toSQL().params.length : 1;
  const chunk = Math.max(1, Math.floor(MAX_PARAMS / perRow));
  const statements = [db.insert(runs).values(run)];
  for (let i = 0; i < rows.length; i += chunk) statements.push(db.insert(episodes).values(rows.slice(i, i + chunk)).onConflictDoNothing() as never);
  await db.batch(statements as [typeof statements[0], ...typeof statements]);
}

export async function getRun(db: Db, id: string): Promise<RunRow | null> {
  return (await db.select().from(runs).where(eq(runs.id, id)).get()) ?? null;
}

export async function getEpisode(db: Db, id: string): Promise<EpisodeRow | null> {
  return (await db.select().from(episodes).where(eq(episodes.id, id)).get()) ?? null;
}

export async function episodeBySeq(db: Db, runId: string, seq: number): Promise<EpisodeRow | null> {
  return (await db.select().from(episodes).where(and(eq(episodes.runId, runId), eq(episodes.seq, seq))).get()) ?? null;
}

export type ClaimOutcome = { claimed: true; staleWorld: string | null } | { claimed: false };

/**
 * Takes the episode for this delivery when it is pending, or when it is running under an earlier attempt of the
 * same message (that attempt's consumer died) or under a claim older than the lease; and only while fewer than
 * `concurrency` other episodes of the run are running. One conditional UPDATE: D1 runs it atomically.
 */
export async function claimEpisode(d1: D1Database, o: { episode: string; run: string; claim: string; messageId: string; concurrency: number; now: number; leaseMs: number }): Promise<ClaimOutcome> {
  const row = await d1
    .prepare(
      `UPDATE episodes SET status = 'running', attempts = attempts + 1, claim = ?1, claimed_at = ?2
       WHERE id = ?3
         AND (status = 'pending'
              OR (status = 'running' AND (claim IS NULL OR (claim LIKE ?4 ESCAPE '\\' AND claim <> ?1) OR claimed_at < ?5)))
         AND (SELECT count(*) FROM episodes AS e WHERE e.run_id = ?6 AND e.status = 'running' AND e.id <> ?3) < ?7
       RETURNING world_id`,
    )
    .bind(o.claim, o.now, o.episode, likePrefix(o.messageId) + "#%", o.now - o.leaseMs, o.run, o.concurrency)
    .first<{ world_id: string | null }>();
  return row ? { claimed: true, staleWorld: row.world_id } : { claimed: false };
}

function likePrefix(s: string): string {
  return s.replace(/[\\%_]/g, (c) => "\\" + c);
}

/** The world this attempt created, written before the agent is called so a later attempt can find and remove it. */
export async function recordWorld(db: Db, episode: string, claim: string, worldId: string | null): Promise<boolean> {
  const r = await db.update(episodes).set({ worldId }).where(and(eq(episodes.id, episode), eq(episodes.claim, claim), eq(episodes.status, "running"))).run();
  return r.meta.changes === 1;
}

/** Gives the episode back (a transient failure): the message's retry claims it again. */
export async function releaseEpisode(db: Db, episode: string, claim: string, error: EpisodeError): Promise<void> {
  await db
    .update(episodes)
    .set({ status: "pending", claim: null, worldId: null, error: JSON.stringify(error) })
    .where(and(eq(episodes.id, episode), eq(episodes.claim, claim), eq(episodes.status, "running")))
    .run();
}

export interface EpisodeError {
  stage: "world_create" | "agent_start" | "grade" | "server";
  message: string;
}

export interface EpisodeOutcome {
  status: "done" | "infra_error";
  resultJson: string;
  passed: number;
  graded: number;
  note: string;
  traceKey: string | null;
  worldId: string | null;
  error: EpisodeError | null;
  now: number;
}

/** Writes the episode's result if this delivery still holds it (claim = null: whoever holds it, unless finished). */
export async function finishEpisode(db: Db, episode: string, claim: string | null, o: EpisodeOutcome): Promise<boolean> {
  const held: SQL[] = claim === null ? [sql`${episodes.status} NOT IN ('done', 'infra_error')`] : [eq(episodes.claim, claim), eq(episodes.status, "running")];
  const r = await db
    .update(episodes)
    .set({
      status: o.status,
      resultJson: o.resultJson,
      passed: o.passed,
      graded: o.graded,
      note: o.note,
      traceKey: o.traceKey,
      worldId: o.worldId,
      error: o.error ? JSON.stringify(o.error) : null,
      finishedAt: new Date(o.now),
    })
    .where(and(eq(episodes.id, episode), ...held))
    .run();
  return r.meta.changes === 1;
}

export const FINISHED = ["done", "infra_error"] as const;
export const isFinished = (status: string) => (FINISHED as readonly string[]).includes(status);

/**
 * Claims the right to build the run's results: only when every episode is finished, and only once (status
 * running -> finishing); a finisher that died leaves "finishing" behind, which another may take after the lease.
 */
export async function claimRunFinish(d1: D1Database, runId: string, now: number, leaseMs: number): Promise<boolean> {
  const r = await d1
    .prepare(
      `UPDATE runs SET status = 'finishing', finished_at = ?1
       WHERE id = ?2
         AND (status = 'running' OR (status = 'finishing' AND finished_at < ?3))
         AND episodes_total = (SELECT count(*) FROM episodes WHERE run_id = ?2 AND status IN ('done', 'infra_error'))`,
    )
    .bind(now, runId, now - leaseMs)
    .run();
  return r.meta.changes === 1;
}

export async function completeRun(db: Db, runId: string, o: { status: "done" | "failed"; resultJson: string | null; exitCode: number | null; error: string | null; now: number }): Promise<void> {
  await db
    .update(runs)
    .set({ status: o.status, resultJson: o.resultJson, exitCode: o.exitCode, error: o.error, finishedAt: new Date(o.now) })
    .where(and(eq(runs.id, runId), eq(runs.status, "finishing")))
    .run();
}

/** A finisher that hit a transient failure hands the run back so the next delivery can finish it. */
export async function reopenRun(db: Db, runId: string): Promise<void> {
  await db.update(runs).set({ status: "running", finishedAt: null }).where(and(eq(runs.id, runId), eq(runs.status, "finishing"))).run();
}

export async function failRun(db: Db, runId: string, error: string, now: number): Promise<void> {
  await db.update(runs).set({ status: "failed", error, finishedAt: new Date(now) }).where(eq(runs.id, runId)).run();
}

/** Episodes of a run in seq order, a page at a time (a thousand records need not be one D1 response). */
export async function episodePage(db: Db, runId: string, afterSeq: number, limit: number): Promise<EpisodeRow[]> {
  return db.select().from(episodes).where(and(eq(episodes.runId, runId), sql`${episodes.seq} > ${afterSeq}`)).orderBy(asc(episodes.seq)).limit(limit).all();
}

/** Episodes finished after `sinceMs`, oldest first (what a follower has not seen yet). */
export async function episodesFinishedAfter(db: Db, runId: string, sinceMs: number, limit: number): Promise<EpisodeRow[]> {
  return db
    .select()
    .from(episodes)
    .where(and(eq(episodes.runId, runId), sql`${episodes.finishedAt} > ${sinceMs}`))
    .orderBy(asc(episodes.finishedAt), asc(episodes.seq))
    .limit(limit)
    .all();
}

export interface ProgressRow {
  status: string;
  n: number;
  passed: number;
  graded: number;
}

export async function progressRows(db: Db, runId: string): Promise<ProgressRow[]> {
  return db
    .select({ status: episodes.status, n: sql<number>`count(*)`, passed: sql<number>`coalesce(sum(${episodes.passed}), 0)`, graded: sql<number>`coalesce(sum(${episodes.graded}), 0)` })
    .from(episodes)
    .where(eq(episodes.runId, runId))
    .groupBy(episodes.status)
    .all();
}

/** Newest first; the cursor is the last row's "<created ms>:<id>". */
export async function listRuns(db: Db, o: { status?: string; before?: { createdAt: number; id: string }; limit: number }): Promise<RunRow[]> {
  const where: SQL[] = [];
  if (o.status) where.push(eq(runs.status, o.status));
  if (o.before) where.push(sql`(${runs.createdAt} < ${o.before.createdAt} OR (${runs.createdAt} = ${o.before.createdAt} AND ${runs.id} < ${o.before.id}))`);
  return db
    .select()
    .from(runs)
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(runs.createdAt), desc(runs.id))
    .limit(o.limit)
    .all();
}

