// Re-driving hosted runs whose queue messages were lost. The local server's queue lives in memory, so a
// `worlds serve --persist DIR` stopped during a run left it `running` forever after a restart: its episodes
// pending with no message to drive them, the one in flight `running` under a claim nobody holds, and that
// episode's world open. On start the local server calls this with the moment it started: every delivery that
// claimed an episode or made a world before then is dead. Their worlds are removed, their episodes given back,
// and one message is sent per unfinished episode, so a restart loses no episode; finished episodes are left as
// they are (no episode runs twice), and a run whose episodes had all finished is finished.
import { and, eq, inArray, isNull, lt, sql } from "drizzle-orm";
import type { Env } from "../../env";
import { episodes, runs, worlds } from "../../db/schema";
import { maybeFinishRun } from "./finish";
import { sendEpisodes } from "./messages";
import { database } from "./store";
import { discardWorld } from "./worlds";

export interface Recovery {
  runs: number;
  /** Episodes given a new queue message (pending ones, and running ones whose delivery died). */
  requeued: number;
  /** Of those, episodes that were running when the server stopped. */
  interrupted: number;
  /** Worlds dead deliveries had left open. */
  worlds_removed: number;
  /** Runs whose episodes had all finished, finished now. */
  finished: number;
}

/** `before`: epoch ms; claims, worlds and finishers from before it belong to deliveries that are gone. */
export async function recoverRuns(env: Env, before: number): Promise<Recovery> {
  const db = database(env.DB);
  const out: Recovery = { runs: 0, requeued: 0, interrupted: 0, worlds_removed: 0, finished: 0 };
  // Runs started since are driven by their own messages.
  const open = await db
    .select({ id: runs.id, status: runs.status, finishedAt: runs.finishedAt })
    .from(runs)
    .where(and(inArray(runs.status, ["running", "finishing"]), lt(runs.createdAt, new Date(before))))
    .all();
  for (const run of open) {
    out.runs++;
    // A finisher that died with the server: the run goes back to running, to be finished below or by its episodes.
    if (run.status === "finishing" && (run.finishedAt?.getTime() ?? 0) < before)
      await db.update(runs).set({ status: "running", finishedAt: null }).where(and(eq(runs.id, run.id), eq(runs.status, "finishing"))).run();

    const interrupted = await db
      .update(episodes)
      .set({ status: "pending", claim: null, worldId: null, error: JSON.stringify({ stage: "server", message: "the server stopped during this episode; it ran again in a fresh world" }) })
      .where(and(eq(episodes.runId, run.id), eq(episodes.status, "running"), sql`coalesce(${episodes.claimedAt}, 0) < ${before}`))
      .run();
    out.interrupted += interrupted.meta.changes;

    // Every world of the run made before the restart and still open is an orphan: finished episodes removed theirs
    // before writing their result, and no delivery from before the restart is alive to use one.
    const orphans = await db
      .select({ id: worlds.id })
      .from(worlds)
      .where(and(eq(worlds.runId, run.id), isNull(worlds.deletedAt), lt(worlds.createdAt, new Date(before))))
      .all();
    for (const w of orphans) await discardWorld(env, w.id);
    out.worlds_removed += orphans.length;

    const unfinished = await db.select({ id: episodes.id }).from(episodes).where(and(eq(episodes.runId, run.id), eq(episodes.status, "pending"))).all();
    if (unfinished.length > 0) {
      await sendEpisodes(env, unfinished.map((e) => ({ run: run.id, episode: e.id, deferrals: 0 })));
      out.requeued += unfinished.length;
    } else if (await maybeFinishRun(env, run.id)) out.finished++;
  }
  return out;
}
