// Finishing a run, exactly once: the delivery whose conditional UPDATE moves the run from running to finishing
// (possible only when every episode is finished) builds the results from the episode rows, stores them in D1 and
// R2 with the HTML report, and marks the run done. A finisher that fails hands the run back to the next one.
import type { Env } from "../../env";
import { hostedResults } from "../../core/pipeline/index";
import { serializeResults, type Results } from "../../core/results/index";
import { renderHtml } from "../../core/report/index";
import { FINISH_LEASE_MS } from "./config";
import { runFacts, type RunFacts } from "./context";
import type { StoredEpisode } from "./episode";
import { reportKey, resultsKey } from "./keys";
import { judgeRunInput } from "./judge";
import { claimRunFinish, completeRun, database, episodePage, reopenRun, type EpisodeRow } from "./store";

/** D1 values are capped at 2 MB; larger results documents live in R2 only. */
const INLINE_RESULTS_LIMIT = 1_000_000;
const PAGE = 200;

export async function maybeFinishRun(env: Env, runId: string): Promise<boolean> {
  if (!(await claimRunFinish(env.DB, runId, Date.now(), FINISH_LEASE_MS))) return false;
  const db = database(env.DB);
  let rows: EpisodeRow[];
  let ctx: RunFacts;
  try {
    ctx = await runFacts(env, runId);
    rows = await allEpisodes(env, runId);
  } catch (e) {
    await reopenRun(db, runId).catch(() => undefined);
    throw e;
  }
  let results: Results;
  try {
    const stored = await Promise.all(rows.map((r) => storedEpisode(env, r)));
    results = hostedResults({
      runId,
      kind: ctx.meta.kind,
      origin: ctx.run.origin ?? "",
      agentUrl: ctx.run.agentUrl,
      mode: ctx.mode,
      runsRequested: ctx.run.k,
      file: ctx.meta.file,
      hashes: ctx.meta.hashes,
      rubric: ctx.rubric,
      episodes: stored.map((s) => s.record),
      credits: stored.flatMap((s) => (s.credits ? [{ repetition: s.record.run, credits: s.credits }] : [])),
      replayFlags: ctx.meta.replay_flags,
      judge: judgeRunInput(ctx.meta.judge),
      generatedAt: new Date().toISOString(),
    });
  } catch (e) {
    // The same rows would fail the same way on every retry: the run ends failed, with the reason.
    console.error(`worlds: run ${runId} could not be finished`, e);
    await completeRun(db, runId, { status: "failed", resultJson: null, exitCode: null, error: `the results could not be built: ${(e as Error).message}`, now: Date.now() });
    return true;
  }
  const doc = serializeResults(results);
  try {
    await env.ARTIFACTS.put(resultsKey(runId), doc, { httpMetadata: { contentType: "application/json" } });
    await env.ARTIFACTS.put(reportKey(runId), renderHtml(results), { httpMetadata: { contentType: "text/html; charset=utf-8" } });
  } catch (e) {
    await reopenRun(db, runId).catch(() => undefined);
    throw e;
  }
  await completeRun(db, runId, { status: "done", resultJson: doc.length <= INLINE_RESULTS_LIMIT ? doc : null, exitCode: results.exit_code, error: null, now: Date.now() });
  return true;
}

async function allEpisodes(env: Env, runId: string): Promise<EpisodeRow[]> {
  const db = database(env.DB);
  const out: EpisodeRow[] = [];
  for (let after = 0; ; ) {
    const page = await episodePage(db, runId, after, PAGE);
    out.push(...page);
    if (page.length < PAGE) return out;
    after = page[page.length - 1].seq;
  }
}

async function storedEpisode(env: Env, row: EpisodeRow): Promise<StoredEpisode> {
  if (!row.resultJson) throw new Error(`episode ${row.id} is ${row.status} but has no result`);
  const parsed = JSON.parse(row.resultJson) as StoredEpisode | { r2: string };
  if ("r2" in parsed) {
    const obj = await env.ARTIFACTS.get(parsed.r2);
    if (!obj) throw new Error(`episode ${row.id}'s record ${parsed.r2} is missing from R2`);
    return JSON.parse(await obj.text()) as StoredEpisode;
  }
  return parsed;
}

