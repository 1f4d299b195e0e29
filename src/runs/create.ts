// Starting a hosted run (POST /admin/runs, and every webhook delivery that carries a ticket): compile the tasks,
// store the built seed and rubric under their hashes, write the run and its episodes to D1 in one batch, then
// put one small message per episode on the queue.
import { resolveScenario } from "../scenarios/resolve";
import type { Env } from "../env";
import { DEFAULT_CONCURRENCY, DEFAULT_RUNS, DEFAULT_TIMEOUT_S, episodeId, episodeJobs, planRun, type RunRequest } from "../core/runs/index";
import { randomToken } from "../http/ids";
import { putContent } from "./artifacts";
import { rubricKey, seedKey } from "./keys";
import { sendEpisodes } from "./messages";
import type { RunPlanJson } from "./plan-json";
import { resolveTasks } from "./resolve";
import { database, failRun, insertRun, type NewEpisodeRow } from "./store";
import { openRunBudget, prepareRunJudge } from "./judge";

export type CreateRunOutcome =
  | { ok: true; runId: string; episodes: number; summary: string | null }
  | { ok: false; status: 400 | 404 | 503; code: string; message: string; issues?: unknown };

export const newRunId = () => `run_${randomToken(16)}`;

export interface RunOrigin {
  /** Where agents reach the twin: this server's own origin. */
  origin: string;
  /** "api" or "webhook:<hook id>". */
  source: string;
  trigger?: RunPlanJson["trigger"];
}

export async function createRun(env: Env, req: RunRequest, from: RunOrigin, now = Date.now()): Promise<CreateRunOutcome> {
  const file = req.tasks_file ?? "tasks.yaml";
  const resolved = await resolveTasks(req.tasks, file);
  if (!resolved.ok) return resolved;
  const { seed, rubric, hashes } = resolved.value;
  const mode = req.mode ?? resolved.value.file?.mode ?? "isolated";
  const k = req.runs ?? resolved.value.file?.runs ?? DEFAULT_RUNS;
  const only = req.task ?? [];
  const planned = planRun(seed, { ...rubric, mode }, only);
  if (!planned.ok) return { ok: false, status: 400, code: "unknown_task", message: planned.message };
  const jobs = episodeJobs(mode, k, planned.plan.tasks);
  // A scenario the server does not hold would fail every episode's world; refuse the run before it starts.
  const scenarioRef = req.scenario ?? resolved.value.file?.scenario ?? null;
  const scenario = resolveScenario(scenarioRef);
  if (!scenario.ok) return { ok: false, status: scenario.status === 404 ? 400 : scenario.status, code: scenario.code, message: scenario.message };

  // A judge the server cannot run (no key for its provider) refuses the run before anything is stored.
  const judge = await prepareRunJudge(env, req.judge);
  if (!judge.ok) return judge;

  await Promise.all([putContent(env.ARTIFACTS, seedKey(hashes.seed), seed), putContent(env.ARTIFACTS, rubricKey(hashes.rubric), rubric)]);

  const runId = newRunId();
  const meta: RunPlanJson = {
    file,
    hashes,
    only,
    scenario: scenarioRef,
    replay_flags: [...(req.mode ? ["--mode", req.mode] : []), ...(req.timeout_s ? ["--timeout", String(req.timeout_s)] : [])],
    trigger: from.trigger ?? null,
    judge: judge.stored,
  };
  const rows: NewEpisodeRow[] = jobs.map((job) => ({ id: episodeId(runId, job), runId, repetition: job.repetition, task: job.position, status: "pending", seq: job.seq }));
  const db = database(env.DB);
  await insertRun(
    db,
    {
      id: runId,
      status: "running",
      mode,
      source: from.source,
      k,
      taskCount: planned.plan.tasks.length,
      episodesTotal: jobs.length,
      seedKey: seedKey(hashes.seed),
      rubricKey: rubricKey(hashes.rubric),
      tasksFile: file,
      tasksHash: hashes.file,
      agentUrl: req.agent.url,
      agentSecret: req.agent.secret,
      concurrency: req.concurrency ?? DEFAULT_CONCURRENCY,
      timeoutS: req.timeout_s ?? DEFAULT_TIMEOUT_S,
      createdAt: new Date(now),
      origin: from.origin,
      planJson: JSON.stringify(meta),
    },
    rows,
  );
  await openRunBudget(env, runId, judge.stored);
  try {
    await sendEpisodes(env, rows.map((r) => ({ run: runId, episode: r.id, deferrals: 0 })));
  } catch (e) {
    // Some messages may be out already; their consumers find the run failed and stop.
    await failRun(db, runId, `the episodes could not be queued: ${(e as Error).message}`, Date.now());
    return { ok: false, status: 503, code: "queue_unavailable", message: `Run ${runId} could not be queued: ${(e as Error).message}. Try again.` };
  }
  return { ok: true, runId, episodes: jobs.length, summary: resolved.value.summary };
}
