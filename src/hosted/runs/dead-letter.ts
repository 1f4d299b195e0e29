// The dead-letter queue's consumer: a message that failed every delivery ends here, and its episode is recorded
// as an infrastructure error (with the last failure seen) so the run still completes and nothing is lost.
import type { Env } from "../../env";
import { infraRecord } from "../../core/pipeline/index";
import { EPISODE_MAX_DELIVERIES } from "./config";
import { runFacts } from "./context";
import type { StoredEpisode } from "./episode";
import { maybeFinishRun } from "./finish";
import type { EpisodeMessage } from "./messages";
import { database, finishEpisode, getEpisode, isFinished, type EpisodeError } from "./store";
import { discardWorld, worldAlive } from "./worlds";

export async function recordDeadLetter(env: Env, body: EpisodeMessage): Promise<void> {
  const db = database(env.DB);
  const ep = await getEpisode(db, body.episode);
  if (!ep) {
    console.error(`worlds: dead letter for unknown episode ${body.episode} (run ${body.run}); nothing to record`);
    return;
  }
  if (!isFinished(ep.status)) {
    if (ep.worldId && (await worldAlive(env, ep.worldId))) await discardWorld(env, ep.worldId);
    const error = lastError(ep.error);
    const tickets = await ticketsOf(env, ep.runId, ep.task);
    const stored: StoredEpisode = { record: infraRecord(ep.repetition, tickets, null, error), credits: null };
    await finishEpisode(db, ep.id, null, {
      status: "infra_error",
      resultJson: JSON.stringify(stored),
      passed: 0,
      graded: 0,
      note: `infrastructure error (${error.stage}): ${error.message}`,
      traceKey: null,
      worldId: ep.worldId,
      error,
      now: Date.now(),
    });
  }
  await maybeFinishRun(env, ep.runId);
}

function lastError(raw: string | null): EpisodeError {
  const fallback: EpisodeError = { stage: "server", message: `the episode failed on all ${EPISODE_MAX_DELIVERIES} deliveries` };
  if (!raw) return fallback;
  try {
    const e = JSON.parse(raw) as Partial<EpisodeError>;
    if (e.stage && e.message) return { stage: e.stage, message: `${e.message} (after ${EPISODE_MAX_DELIVERIES} deliveries)` };
  } catch {
    // an unreadable note still leaves the fallback
  }
  return fallback;
}

/** The tickets the episode's world held: its task (isolated), or every task of the run (shift). */
async function ticketsOf(env: Env, runId: string, position: number): Promise<number[]> {
  if (position > 0) return [position];
  return (await runFacts(env, runId)).rubric.tickets.map((t) => t.id);
}
