// Registering a run the CLI drove (POST /admin/runs/import): one run row (source "cli", status done, the
// results document) and one episode row per episode, keyed by the run id the CLI minted, so a retried or
// repeated import writes nothing new. The episodes point at the traces their worlds left in R2 when the CLI
// destroyed them (traces/<world>.jsonl); the rubric goes to R2 under its hash so the episode views can name
// the tasks. A CLI run builds its worlds from the seed it compiled itself, so no seed is stored for it.
import type { Env } from "../../env";
import { canonicalJson, sha256Hex } from "../../core/util/canonical";
import { rubricDocument } from "../../core/rubric/schema";
import { episodeId, selectRubric } from "../../core/pipeline/index";
import { putContent } from "./artifacts";
import { resultsKey, rubricKey } from "./keys";
import type { RunPlanJson } from "./plan-json";
import type { RunImportBody } from "./import-request";
import { database, getRun, insertRun, type NewEpisodeRow } from "./store";

/** Results larger than this go to R2 (D1 values are capped at 2 MB). */
const INLINE_RESULTS_MAX = 1_000_000;

export type ImportOutcome = { ok: true; created: boolean; runId: string } | { ok: false; status: 400; code: string; message: string };

export async function importRun(env: Env, body: RunImportBody, now = Date.now()): Promise<ImportOutcome> {
  const db = database(env.DB);
  if (await getRun(db, body.run_id)) return { ok: true, created: false, runId: body.run_id };

  const r = body.results;
  const hash = await sha256Hex(canonicalJson(body.rubric));
  if (hash !== r.tasks.hashes.rubric)
    return { ok: false, status: 400, code: "rubric_mismatch", message: `rubric hashes to ${hash}, but results.tasks.hashes.rubric says ${r.tasks.hashes.rubric}: send the rubric the run was compiled to.` };
  const rubric = rubricDocument.safeParse(body.rubric);
  if (!rubric.success) return { ok: false, status: 400, code: "invalid_rubric", message: `rubric is not a compiled rubric: ${rubric.error.issues[0]?.path.join(".")}: ${rubric.error.issues[0]?.message}` };
  const selected = selectRubric(rubric.data, body.only);
  if (!selected.ok) return { ok: false, status: 400, code: "unknown_task", message: selected.message };
  const seqs = new Set(body.episodes.map((e) => e.n));
  if (seqs.size !== body.episodes.length) return { ok: false, status: 400, code: "duplicate_episode", message: "episodes: two episodes share a number n." };

  await putContent(env.ARTIFACTS, rubricKey(hash), body.rubric);
  const text = JSON.stringify(r);
  if (text.length > INLINE_RESULTS_MAX) await env.ARTIFACTS.put(resultsKey(body.run_id), text, { httpMetadata: { contentType: "application/json" } });

  const meta: RunPlanJson = { kind: "account", file: r.tasks.file, hashes: { file: r.tasks.hashes.file, seed: r.tasks.hashes.seed, rubric: hash }, only: body.only, scenario: null, replay_flags: [], trigger: null };
  const rows: NewEpisodeRow[] = body.episodes.map((e) => ({
    id: episodeId(body.run_id, { repetition: e.repetition, position: e.position }),
    runId: body.run_id,
    repetition: e.repetition,
    task: e.position,
    status: e.status,
    attempts: 1,
    worldId: e.world,
    traceKey: e.world ? `traces/${e.world}.jsonl` : null,
    finishedAt: new Date(e.finished_at),
    seq: e.n,
    passed: e.passed,
    graded: e.graded,
    note: e.note,
  }));
  try {
    await insertRun(
      db,
      {
        id: body.run_id,
        status: "done",
        mode: r.mode,
        source: "cli",
        k: body.runs,
        taskCount: selected.rubric.tickets.length,
        episodesTotal: rows.length,
        // Not stored for CLI runs (see above); the key records which seed it was.
        seedKey: `seeds/${r.tasks.hashes.seed}.json`,
        rubricKey: rubricKey(hash),
        tasksFile: r.tasks.file,
        tasksHash: r.tasks.hashes.file,
        agentUrl: r.agent.display,
        agentSecret: "",
        concurrency: body.concurrency,
        timeoutS: body.timeout_s,
        createdAt: new Date(now),
        finishedAt: new Date(now),
        resultJson: text.length > INLINE_RESULTS_MAX ? null : text,
        exitCode: r.exit_code,
        origin: null,
        planJson: JSON.stringify(meta),
      },
      rows,
    );
  } catch (e) {
    // Two imports of the same run at once: the loser's batch fails on the run's primary key, the winner's stands.
    if (await getRun(db, body.run_id)) return { ok: true, created: false, runId: body.run_id };
    throw e;
  }
  return { ok: true, created: true, runId: body.run_id };
}
