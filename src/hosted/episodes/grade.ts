// POST /admin/episodes/:id/grade: the world ends (its calls and the person's conversation read from its end), the
// task's grader decides, and the result is kept so the same request answers it again. A policy error ends the
// episode with reward 0 and the error recorded, ungraded; a grader that cannot decide (a judge failure) is reward
// 0 with the grader's record saying why, so a training loop never reads a missing reward as a good one.
import type { Env } from "../../env";
import { gradeTask } from "../../core/kinds/replay/rubric/index";
import { toolCallsOfTrace } from "../../core/kinds/replay/recorded/index";
import type { EpisodeGrade, GradeRequest } from "../../core/episode-api/request";
import { transcriptOf } from "../../core/kinds/replay/person/transcript";
import { destroyWorld, WorldNotFound } from "../worlds/lifecycle";
import { serverModel } from "../models/server-client";
import { getEpisode, putEpisode } from "./store";
import { readTask } from "./create";

export type EpisodeGrading = { ok: true; grade: EpisodeGrade } | { ok: false; status: 404 | 409 | 500; code: string; message: string };

export async function gradeEpisode(env: Env, id: string, req: GradeRequest, fetcher?: typeof fetch): Promise<EpisodeGrading> {
  const stored = await getEpisode(env, id);
  if (!stored) return { ok: false, status: 404, code: "episode_not_found", message: `No episode '${id}' on this server.` };
  if (stored.result) return { ok: true, grade: stored.result };
  const read = readTask(stored.task);
  if (!read.ok) return { ok: false, status: 500, code: "internal_error", message: `the stored task no longer reads: ${read.message}` };
  const task = read.task;
  let ended;
  try {
    ended = await destroyWorld(env, stored.world_id, { diff: false });
  } catch (e) {
    if (e instanceof WorldNotFound) return { ok: false, status: 409, code: "episode_ended", message: `Episode ${id}'s world is gone and no grade was kept; start a new episode.` };
    throw e;
  }
  const output = req.output ?? null;
  const transcript = transcriptOf(ended.person?.conversation.turns ?? [], task.prompt, output);
  const tool_calls = toolCallsOfTrace(ended.trace);
  const base = { id, slug: task.slug, transcript, tool_calls, warnings: stored.warnings };
  let grade: EpisodeGrade;
  if (req.error) {
    grade = { ...base, reward: 0, passed: false, criteria: [], error: req.error, grader: null };
  } else {
    const judge = serverModel(env, stored.judge, { cache: true, ...(fetcher ? { fetcher } : {}) });
    const record = await gradeTask(judge.ok ? judge : null, task, { transcript, tool_calls, output }).catch((e: Error) => e);
    if (record instanceof Error || record === null) {
      const message = record instanceof Error ? record.message : `task ${task.slug}: no grader the server runs`;
      grade = { ...base, reward: 0, passed: false, criteria: [], error: `the grader could not grade: ${message}`, grader: null };
    } else {
      grade = { ...base, reward: record.reward ?? 0, passed: record.passed === true, criteria: record.criteria, error: record.reward === null ? `the grader could not grade: ${record.error?.message ?? record.reasons[0] ?? "no reward"}` : null, grader: record };
    }
  }
  await putEpisode(env, { ...stored, result: grade });
  return { ok: true, grade };
}
