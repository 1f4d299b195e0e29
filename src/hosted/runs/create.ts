// Starting a hosted run (POST /admin/runs, and every webhook delivery that carries a ticket): compile the tasks
// (an account run), generate them from the team's tools (a tools run) or read a portable task file (an evals run), store the seed (or the tools plan) and
// the rubric under their hashes, write the run and its episodes to D1 in one batch, then
// put one small message per episode on the queue.
import { resolveScenario } from "../../scenarios/resolve";
import type { Env } from "../../env";
import { DEFAULT_CONCURRENCY, DEFAULT_RUNS, DEFAULT_TIMEOUT_S, episodeId, episodeJobs, planRun, type EpisodeJob, type RunMode, type RunRequest } from "../../core/pipeline/index";
import type { RubricDocument } from "../../core/rubric/schema";
import type { HostedToolsRequest } from "../../core/kinds/tools/run/request";
import { prepareToolsRun } from "./tools/prepare";
import { prepareEvalsRun } from "./evals/prepare";
import { randomToken } from "../../http/ids";
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

/** What either kind of run stores before its episodes are queued. */
interface PreparedRun {
  kind: "account" | "tools" | "evals";
  file: string;
  hashes: { file: string; seed: string; rubric: string };
  /** Stored at seeds/<hashes.seed>.json: the account seed, or a tools run's plan (its generated tasks). */
  seed: unknown;
  rubric: RubricDocument;
  mode: RunMode;
  k: number;
  only: string[];
  taskCount: number;
  jobs: EpisodeJob[];
  scenario: RunPlanJson["scenario"];
  summary: string | null;
}

type Prepared = { ok: true; value: PreparedRun } | Extract<CreateRunOutcome, { ok: false }>;

export async function createRun(env: Env, req: RunRequest, from: RunOrigin, now = Date.now()): Promise<CreateRunOutcome> {
  const prepared = req.tools ? await prepareTools(req, req.tools) : req.evals ? await prepareEvals(env, req) : await prepareAccount(req);
  if (!prepared.ok) return prepared;
  const p = prepared.value;

  // A judge the server cannot run (no key for its provider) refuses the run before anything is stored.
  const judge = await prepareRunJudge(env, req.judge);
  if (!judge.ok) return judge;

  await Promise.all([putContent(env.ARTIFACTS, seedKey(p.hashes.seed), p.seed), putContent(env.ARTIFACTS, rubricKey(p.hashes.rubric), p.rubric)]);

  const runId = newRunId();
  const meta: RunPlanJson = {
    kind: p.kind,
    file: p.file,
    hashes: p.hashes,
    only: p.only,
    scenario: p.scenario,
    replay_flags: [...(req.mode ? ["--mode", req.mode] : []), ...(req.timeout_s ? ["--timeout", String(req.timeout_s)] : [])],
    trigger: from.trigger ?? null,
    judge: judge.stored,
  };
  const rows: NewEpisodeRow[] = p.jobs.map((job) => ({ id: episodeId(runId, job), runId, repetition: job.repetition, task: job.position, status: "pending", seq: job.seq }));
  const db = database(env.DB);
  await insertRun(
    db,
    {
      id: runId,
      status: "running",
      mode: p.mode,
      source: from.source,
      k: p.k,
      taskCount: p.taskCount,
      episodesTotal: p.jobs.length,
      seedKey: seedKey(p.hashes.seed),
      rubricKey: rubricKey(p.hashes.rubric),
      tasksFile: p.file,
      tasksHash: p.hashes.file,
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
  return { ok: true, runId, episodes: p.jobs.length, summary: p.summary };
}

async function prepareAccount(req: RunRequest): Promise<Prepared> {
  const file = req.tasks_file ?? "tasks.yaml";
  const resolved = await resolveTasks(req.tasks!, file);
  if (!resolved.ok) return resolved;
  const { seed, rubric, hashes } = resolved.value;
  const mode = req.mode ?? resolved.value.file?.mode ?? "isolated";
  const k = req.runs ?? resolved.value.file?.runs ?? DEFAULT_RUNS;
  const only = req.task ?? [];
  const planned = planRun(seed, { ...rubric, mode }, only);
  if (!planned.ok) return { ok: false, status: 400, code: "unknown_task", message: planned.message };
  // A scenario the server does not hold would fail every episode's world; refuse the run before it starts.
  const scenarioRef = req.scenario ?? resolved.value.file?.scenario ?? null;
  const scenario = resolveScenario(scenarioRef);
  if (!scenario.ok) return { ok: false, status: scenario.status === 404 ? 400 : scenario.status, code: scenario.code, message: scenario.message };
  const jobs = episodeJobs(mode, k, planned.plan.tasks);
  return { ok: true, value: { kind: "account", file, hashes, seed, rubric, mode, k, only, taskCount: planned.plan.tasks.length, jobs, scenario: scenarioRef, summary: resolved.value.summary } };
}

/** Every task once per repetition, each in its own world (a tools run is always isolated). */
async function prepareTools(req: RunRequest, tools: HostedToolsRequest): Promise<Prepared> {
  const prepared = await prepareToolsRun(tools, req.task ?? []);
  if (!prepared.ok) return prepared;
  const { file, plan, rubric, hashes, summary } = prepared.value;
  const k = req.runs ?? DEFAULT_RUNS;
  return { ok: true, value: { kind: "tools", file, hashes, seed: plan, rubric, mode: "isolated", k, only: [], taskCount: plan.tasks.length, jobs: isolatedJobs(k, plan.tasks.length), scenario: null, summary } };
}

/** Every task once per repetition, each in its own replay world. */
async function prepareEvals(env: Env, req: RunRequest): Promise<Prepared> {
  const prepared = await prepareEvalsRun(env, req.evals!, req.task ?? []);
  if (!prepared.ok) return prepared;
  const { file, plan, rubric, hashes, summary } = prepared.value;
  const k = req.runs ?? DEFAULT_RUNS;
  return { ok: true, value: { kind: "evals", file, hashes, seed: plan, rubric, mode: "isolated", k, only: [], taskCount: plan.slugs.length, jobs: isolatedJobs(k, plan.slugs.length), scenario: null, summary } };
}

function isolatedJobs(k: number, tasks: number): EpisodeJob[] {
  const jobs: EpisodeJob[] = [];
  for (let repetition = 1; repetition <= k; repetition++) for (let i = 0; i < tasks; i++) jobs.push({ seq: jobs.length + 1, repetition, position: i + 1, tickets: [i + 1] });
  return jobs;
}
