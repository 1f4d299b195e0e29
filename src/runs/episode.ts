// One queue delivery of one episode: claim it, create its world, call the agent, grade the world, write the
// result, the trace and the world's removal, then see whether the run is complete. Written for at-least-once
// delivery: every step is keyed by the episode id and the claim, so running it twice leaves one result and no
// world behind.
import type { Env } from "../env";
import type { AgentOutcome } from "../core/results/index";
import { episodeNote, episodeSeed, gradedRecord, gradeEpisode, infraRecord, summarizeTraffic, trialCounts, type AgentRequestBody, type Credits } from "../core/runs/index";
import type { EpisodeRecordInput } from "../core/results/index";
import type { WorldGrade } from "../core/grader/index";
import type { EpisodeWork } from "./work";
import { toolsWork } from "./tools/episode";
import { evalsWork } from "./evals/episode";
import type { PersonState } from "../../durable-objects/person/conversation";
import { sha256Hex } from "../core/util/canonical";
import { createWorld } from "../worlds/lifecycle";
import { callAgent } from "./agent";
import { backoffSeconds, CLAIM_GRACE_MS, DEFER_SECONDS, EPISODE_MAX_DELIVERIES, INLINE_RECORD_LIMIT } from "./config";
import { runContext, runFacts, type RunContext } from "./context";
import { maybeFinishRun } from "./finish";
import { episodeRecordKey, traceKey } from "./keys";
import { traceSteps } from "../core/results/trace";
import type { EpisodeMessage } from "./messages";
import { claimEpisode, database, finishEpisode, getEpisode, isFinished, recordWorld, releaseEpisode, type EpisodeError, type EpisodeRow } from "./store";
import { discardWorld, worldAlive } from "./worlds";
import { judgeHostedEpisode } from "./judge";

export type Disposition = { kind: "ack" } | { kind: "retry"; delaySeconds: number } | { kind: "defer"; delaySeconds: number };

export interface Delivery {
  /** The queue message id: the same on every redelivery of the message. */
  id: string;
  attempts: number;
  body: EpisodeMessage;
}

/** What is stored in episodes.result_json: the record for the results builder, and the world's credits for the budget. */
export interface StoredEpisode {
  record: EpisodeRecordInput;
  credits: Credits | null;
}

const ACK: Disposition = { kind: "ack" };

export async function processEpisode(env: Env, d: Delivery, fetcher: typeof fetch = fetch): Promise<Disposition> {
  const facts = await runFacts(env, d.body.run);
  if (facts.run.status === "failed") return ACK;
  const db = database(env.DB);
  const ep = await getEpisode(db, d.body.episode);
  if (!ep || ep.runId !== facts.run.id) throw new Error(`run ${facts.run.id} has no episode ${d.body.episode}`);
  if (isFinished(ep.status)) return settleFinished(env, ep);

  const claim = `${d.id}#${d.attempts}`;
  const now = Date.now();
  const taken = await claimEpisode(env.DB, {
    episode: ep.id,
    run: facts.run.id,
    claim,
    messageId: d.id,
    concurrency: facts.run.concurrency,
    now,
    leaseMs: facts.run.timeoutS * 1000 + CLAIM_GRACE_MS,
  });
  if (!taken.claimed) {
    const again = await getEpisode(db, ep.id);
    if (again && isFinished(again.status)) return settleFinished(env, again);
    // The run is at its concurrency, or another delivery of this episode is at work: look again shortly.
    return { kind: "defer", delaySeconds: DEFER_SECONDS };
  }

  let worldId: string | null = null;
  try {
    if (taken.staleWorld) await discardWorld(env, taken.staleWorld);
    const ctx = await runContext(env, facts.run.id);
    return await runClaimed(env, ctx, ep, d, claim, fetcher, (id) => (worldId = id));
  } catch (e) {
    const error: EpisodeError = { stage: stageOf(e), message: (e as Error).message ?? String(e) };
    console.error(`worlds: episode ${ep.id} attempt ${d.attempts} failed at ${error.stage}: ${error.message}`);
    if (worldId) await discardWorld(env, worldId).catch(() => undefined);
    await releaseEpisode(db, ep.id, claim, error);
    return { kind: "retry", delaySeconds: backoffSeconds(d.attempts) };
  }
}

class StageError extends Error {
  constructor(readonly stage: EpisodeError["stage"], message: string) {
    super(message);
  }
}
const stageOf = (e: unknown): EpisodeError["stage"] => (e instanceof StageError ? e.stage : "server");

async function runClaimed(env: Env, ctx: RunContext, ep: EpisodeRow, d: Delivery, claim: string, fetcher: typeof fetch, onWorld: (id: string) => void): Promise<Disposition> {
  const db = database(env.DB);
  const { run } = ctx;
  const work = ctx.kind === "tools" ? toolsWork(ctx, ep) : ctx.kind === "evals" ? evalsWork(env, ctx, ep, fetcher) : accountWork(env, ctx, ep, fetcher);
  const origin = run.origin ?? "";

  let world;
  try {
    world = await createWorld(env, work.seed, origin, { scenario: ctx.meta.scenario, runId: run.id, person: work.person ?? null });
  } catch (e) {
    throw new StageError("world_create", (e as Error).message);
  }
  onWorld(world.id);
  if (!(await recordWorld(db, ep.id, claim, world.id))) {
    // Another delivery took the episode over (our claim outlived its lease): leave it to them.
    await discardWorld(env, world.id);
    return ACK;
  }

  const body: AgentRequestBody = {
    ...work.assignment,
    mode: ctx.mode,
    world: { id: world.id, stripe_api_base: world.stripe_api_base, key: world.key, zendesk_url: world.zendesk_url, mcp_url: world.mcp_url, tools_url: world.tools_url, ...(world.person_url ? { person_url: world.person_url } : {}) },
    run: { id: run.id, episode: ep.id, repetition: ep.repetition },
  };
  const call = await callAgent({ url: run.agentUrl, secret: run.agentSecret, timeoutMs: run.timeoutS * 1000, episode: ep.id, attempt: d.attempts }, body, fetcher);
  if (!call.ok && call.transient && d.attempts < EPISODE_MAX_DELIVERIES) {
    // A fresh world next time: the agent may have half-done its work in this one.
    console.warn(`worlds: episode ${ep.id} attempt ${d.attempts}: agent ${call.error}; retrying`);
    await discardWorld(env, world.id);
    await releaseEpisode(db, ep.id, claim, { stage: "server", message: `the agent: ${call.error}` });
    return { kind: "retry", delaySeconds: backoffSeconds(d.attempts) };
  }
  const agent: AgentOutcome = call.ok
    ? { exit_code: 0, signal: null, timed_out: false, start_error: null, error: null, duration_ms: call.durationMs }
    : { exit_code: null, signal: null, timed_out: call.timedOut, start_error: null, error: call.error, duration_ms: call.durationMs };

  const stub = env.WORLD.getByName(world.id);
  const [diff, trace, person] = await Promise.all([stub.diff(), stub.traceRecords(), work.person ? sha256Hex(world.key).then((h) => stub.personConversation(h)) : null]);
  const state = person as PersonState | { none: true } | null;
  const personTurns = state && "conversation" in state ? state.conversation.turns : [];
  const end = await work.grade({ world: world.id, diff, trace, agent, reply: call.ok ? call.reply : "", replyBytes: call.ok ? call.replyBytes : null, personTurns });

  const tKey = traceKey(run.id, ep.seq);
  const lines = trace.map((t) => JSON.stringify(t)).join("\n");
  await env.ARTIFACTS.put(tKey, lines ? lines + "\n" : "", { httpMetadata: { contentType: "application/x-ndjson" }, customMetadata: { run: run.id, episode: ep.id, world: world.id } });

  // The agent's calls ride with the record (to R2 when large), so the run's results and report show them.
  const stored: StoredEpisode = { record: { ...end.record, trace: traceSteps(trace, diff) }, credits: end.credits };
  let resultJson = JSON.stringify(stored);
  if (resultJson.length > INLINE_RECORD_LIMIT) {
    const key = episodeRecordKey(run.id, ep.seq);
    await env.ARTIFACTS.put(key, resultJson, { httpMetadata: { contentType: "application/json" } });
    resultJson = JSON.stringify({ r2: key });
  }
  // The world goes before the result is written, so a finished run never has worlds still open; dying in
  // between only means the next delivery runs the episode again in a fresh world.
  await discardWorld(env, world.id);
  const written = await finishEpisode(db, ep.id, claim, {
    status: end.infra ? "infra_error" : "done",
    resultJson,
    passed: end.passed,
    graded: end.graded,
    note: end.note,
    traceKey: tKey,
    worldId: world.id,
    error: end.infra,
    now: Date.now(),
  });
  if (!written) return ACK;
  await maybeFinishRun(env, run.id);
  return ACK;
}

/** An account episode: its ticket(s) from the run's seed, graded against the key, then judged if the run has a judge. */
function accountWork(env: Env, ctx: Extract<RunContext, { kind: "account" }>, ep: EpisodeRow, fetcher: typeof fetch): EpisodeWork {
  const { plan, mode, run } = ctx;
  const tickets = mode === "isolated" ? [ep.task] : plan.tasks.map((t) => t.ticket.id);
  return {
    tickets,
    seed: episodeSeed(plan, { tickets }, mode),
    assignment: { kind: "account", task: mode === "isolated" ? (plan.tasks.find((t) => t.ticket.id === ep.task)?.task ?? null) : null },
    async grade(end) {
      const traffic = summarizeTraffic(end.trace);
      let grade: WorldGrade | null = null;
      let record: EpisodeRecordInput;
      let infra: EpisodeError | null = null;
      try {
        grade = gradeEpisode(plan.rubric, plan.objects, mode, tickets, end.diff, end.reply);
        record = gradedRecord({ repetition: ep.repetition, tickets, mode, world: end.world, agent: end.agent, reply: end.reply, replyBytes: end.replyBytes, grade, diff: end.diff, traffic });
      } catch (e) {
        infra = { stage: "grade", message: (e as Error).message };
        record = infraRecord(ep.repetition, tickets, end.world, infra, end.agent, traffic);
      }
      // The judge reads the graded world and the reply; its problems are recorded on the tasks, never thrown.
      if (ctx.meta.judge && grade && !infra) await judgeHostedEpisode(env, run.id, ctx.meta.judge, plan, mode, record, grade, end.diff, end.reply, fetcher);
      return { record, credits: grade ? { total: grade.credits.total, count: grade.credits.count } : null, infra, ...trialCounts(grade), note: episodeNote(grade, record) };
    },
  };
}

/** A delivery for a finished episode: remove a world a crashed attempt may have left, finish the run if due. */
async function settleFinished(env: Env, ep: EpisodeRow): Promise<Disposition> {
  if (ep.worldId && (await worldAlive(env, ep.worldId))) await discardWorld(env, ep.worldId);
  await maybeFinishRun(env, ep.runId);
  return ACK;
}
