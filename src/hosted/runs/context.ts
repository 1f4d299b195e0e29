// What an episode of a run needs besides its own row: the run's settings, its rubric (cut down to the run's
// tasks, with the run's mode) and, to build worlds, its plan (the seed from R2). Cached per isolate: a batch of
// messages of the same run reads R2 once. The facts alone need no seed, so a run whose seed went bad can still
// be finished and reported.
import type { Env } from "../../env";
import { planRun, selectRubric, type RunMode, type RunPlan } from "../../core/pipeline/index";
import type { RubricDocument } from "../../core/rubric/schema";
import { loadEvalsPlan, loadRubric, loadSeed, loadToolsPlan } from "./artifacts";
import { loadTasks } from "../../core/kinds/replay/task-format/index";
import type { KindRun, ReplayRun } from "../../core/kinds/index";
import { runPlanJson, type RunPlanJson } from "./plan-json";
import { database, getRun, type RunRow } from "./store";

export interface RunFacts {
  run: RunRow;
  mode: RunMode;
  meta: RunPlanJson;
  rubric: RubricDocument;
}

/** An account run builds worlds from its seed; a tools run from each task's own block in its plan; an evals run from each task's replay environment. */
export type RunContext = RunFacts & KindRun;

const facts = new Map<string, Omit<RunFacts, "run">>();
const plans = new Map<string, RunPlan>();
const evalsPlans = new Map<string, ReplayRun>();
const LIMIT = 8;

function remember<T>(cache: Map<string, T>, key: string, value: T): T {
  cache.set(key, value);
  while (cache.size > LIMIT) cache.delete(cache.keys().next().value as string);
  return value;
}

export class RunMissing extends Error {}

export async function runFacts(env: Env, runId: string): Promise<RunFacts> {
  const run = await getRun(database(env.DB), runId);
  if (!run) throw new RunMissing(`no run ${runId} in D1`);
  const cached = facts.get(runId);
  if (cached) return { ...cached, run };
  const meta = runPlanJson.parse(JSON.parse(run.planJson));
  const mode: RunMode = run.mode === "shift" ? "shift" : "isolated";
  const rubric = await loadRubric(env, run.rubricKey);
  const selected = selectRubric({ ...rubric, mode }, meta.only);
  if (!selected.ok) throw new Error(`run ${runId}: ${selected.message}`);
  return { ...remember(facts, runId, { mode, meta, rubric: selected.rubric }), run };
}

export async function runContext(env: Env, runId: string): Promise<RunContext> {
  const f = await runFacts(env, runId);
  if (f.meta.kind === "tools") return { ...f, kind: "tools", tools: await loadToolsPlan(env, f.run.seedKey) };
  if (f.meta.kind === "evals") return { ...f, kind: "evals", evals: evalsPlans.get(runId) ?? remember(evalsPlans, runId, await evalsContext(env, f.run.seedKey)) };
  const cached = plans.get(runId);
  if (cached) return { ...f, kind: "account", account: { plan: cached, mode: f.mode } };
  const seed = await loadSeed(env, f.run.seedKey);
  const planned = planRun(seed, f.rubric, []);
  if (!planned.ok) throw new Error(`run ${runId}: ${planned.message}`);
  return { ...f, kind: "account", account: { plan: remember(plans, runId, planned.plan), mode: f.mode } };
}

async function evalsContext(env: Env, key: string): Promise<ReplayRun> {
  const plan = await loadEvalsPlan(env, key);
  const loaded = loadTasks(plan.text, plan.file_name);
  if (!loaded.ok) throw new Error(`${key}: the stored task file no longer reads: ${loaded.problems[0]?.message ?? ""}`);
  const bySlug = new Map(loaded.tasks.map((t) => [t.task.slug, t.task]));
  const tasks = plan.slugs.map((slug) => {
    const task = bySlug.get(slug);
    if (!task) throw new Error(`${key}: the stored task file has no task ${slug}`);
    return task;
  });
  return { plan, tasks };
}
