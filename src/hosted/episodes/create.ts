// POST /admin/episodes: a world made from one portable task, its person set up from the task's brief, and the
// surfaces a policy acts through. The task is read with the same reader as `worlds evals`; a kind the server has
// no code for (your own environment or grader) is refused with the reason, never guessed.
import type { Env } from "../../env";
import { loadTasks, isReplayEnvironment, isRubricGrader, isEndStateGrader, type EvalTask, type ReplayEnvironment } from "../../core/kinds/replay/task-format/index";
import { replaySeed } from "../../core/kinds/replay/recorded/index";
import { episodeIdOf, HELD_OUT_WARNING, type EpisodeRequest, type EpisodeSurfaces } from "../../core/episode-api/request";
import { prepareSeed } from "../worlds/seed-cache";
import { createWorld } from "../worlds/lifecycle";
import { serverModel } from "../models/server-client";
import { putEpisode } from "./store";

export type EpisodeStart = { ok: true; surfaces: EpisodeSurfaces } | { ok: false; status: 400; code: string; message: string; issues?: unknown };

export function readTask(raw: Record<string, unknown>): { ok: true; task: EvalTask } | { ok: false; message: string; issues: unknown } {
  const loaded = loadTasks(JSON.stringify(raw), "task");
  if (!loaded.ok) return { ok: false, message: `The task has ${loaded.problems.length} problem(s): ${loaded.problems[0]?.message ?? ""}`, issues: loaded.problems };
  if (loaded.tasks.length !== 1) return { ok: false, message: "Send one task, not a benchmark.", issues: [] };
  return { ok: true, task: loaded.tasks[0]!.task };
}

export async function startEpisode(env: Env, req: EpisodeRequest, origin: string): Promise<EpisodeStart> {
  const read = readTask(req.task);
  if (!read.ok) return { ok: false, status: 400, code: "invalid_task", message: read.message, issues: read.issues };
  const task = read.task;
  if (!isReplayEnvironment(task.environment))
    return { ok: false, status: 400, code: "unsupported_environment", message: `task ${task.slug}: environment kind '${task.environment.kind}' is your own code; the server builds replay environments only. Run it on your side (worlds evals run --environment).` };
  if (!isRubricGrader(task.grader) && !isEndStateGrader(task.grader))
    return { ok: false, status: 400, code: "unsupported_grader", message: `task ${task.slug}: grader kind '${task.grader.kind}' is your own code; the server grades rubric and end_state tasks only.` };
  if (isRubricGrader(task.grader)) {
    const judge = serverModel(env, req.judge, { cache: false });
    if (!judge.ok) return { ok: false, status: 400, code: "judge_unavailable", message: `judge: ${judge.message}` };
  }
  const environment = task.environment as ReplayEnvironment;
  if (environment.person) {
    const person = serverModel(env, req.person, { cache: false });
    if (!person.ok) return { ok: false, status: 400, code: "person_unavailable", message: `person: ${person.message}` };
  }
  const seed = await prepareSeed(replaySeed(task as EvalTask & { environment: ReplayEnvironment }));
  if (!seed.ok) return { ok: false, status: 400, code: "invalid_task", message: `task ${task.slug}: its replay world could not be built: ${seed.issues[0]?.message ?? ""}`, issues: seed.issues };
  const person = environment.person ? { spec: environment.person, model: req.person, opening: task.prompt, turn_limit: req.person_turn_limit, cache: true } : null;
  const world = await createWorld(env, seed.seed, origin, { hash: seed.hash, person });
  const warnings = task.split === "held_out" && req.purpose === "train" ? [HELD_OUT_WARNING] : [];
  const id = episodeIdOf(world.id);
  await putEpisode(env, { id, world_id: world.id, task: req.task, judge: req.judge, purpose: req.purpose, warnings, result: null });
  return {
    ok: true,
    surfaces: {
      id,
      slug: task.slug,
      split: task.split,
      messages: [{ role: "user", content: task.prompt }],
      world: { id: world.id, key: world.key, mcp_url: world.mcp_url, tools_url: world.tools_url, person_url: world.person_url ?? null },
      warnings,
    },
  };
}
