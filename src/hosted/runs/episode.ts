// One queue delivery of one episode, the pipeline every kind shares: claim it, prepare it (the kind's), start its
// world, run the agent, end the world, grade it (the kind's, then the judge if asked), record the result and the
// trace, then finish the run if it was the last. Written for at-least-once delivery: every step is keyed by the
// episode id and the claim, so running it twice leaves one result and no world behind.
import type { Env } from "../../env";
import type { AgentOutcome, EpisodeRecordInput } from "../../core/results/index";
import type { AgentRequestBody, Credits, EpisodeHost, EpisodeWork, GradedEnd, WorldEndEvidence } from "../../core/pipeline/index";
import { episodeOf } from "../../core/kinds/index";
import type { PersonState } from "../../../durable-objects/replay/person";
import { sha256Hex } from "../../core/util/canonical";
import { createWorld, type CreatedWorld } from "../worlds/lifecycle";
import { serverModel } from "../models/server-client";
import { callAgent, type AgentCall } from "./agent";
import { backoffSeconds, CLAIM_GRACE_MS, DEFER_SECONDS, EPISODE_MAX_DELIVERIES, INLINE_RECORD_LIMIT } from "./config";
import { runContext, runFacts, type RunContext } from "./context";
import { maybeFinishRun } from "./finish";
import { episodeRecordKey, traceKey } from "./keys";
import type { EpisodeMessage } from "./messages";
import { claimEpisode, database, finishEpisode, getEpisode, isFinished, recordWorld, releaseEpisode, type Db, type EpisodeError, type EpisodeRow } from "./store";
import { discardWorld, worldAlive } from "./worlds";
import { judgeHostedEpisode } from "./judge";
import { traceSteps } from "../../core/results/trace";

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
    return await runClaimed({ env, db, fetcher, ctx, ep, delivery: d, claim }, (id) => (worldId = id));
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

/** The Worker's side of one claimed episode, made once: its bindings, the run, the row and the claim. */
interface Claimed {
  env: Env;
  db: Db;
  fetcher: typeof fetch;
  ctx: RunContext;
  ep: EpisodeRow;
  delivery: Delivery;
  claim: string;
}

/** The pipeline's steps for one claimed episode, in order; each step is a call below. */
async function runClaimed(c: Claimed, onWorld: (id: string) => void): Promise<Disposition> {
  const work = episodeOf(c.ctx, { task: c.ep.task, repetition: c.ep.repetition }, hostOf(c)); // prepare (the kind's)
  const world = await startWorld(c, work);
  onWorld(world.id);
  // Another delivery took the episode over (our claim outlived its lease): leave it to them.
  if (!(await recordWorld(c.db, c.ep.id, c.claim, world.id))) return discarded(c, world, ACK);
  const call = await runAgent(c, work, world);
  if (!call.ok && call.transient && c.delivery.attempts < EPISODE_MAX_DELIVERIES) return retryAgent(c, world, call.error);
  const end = await endWorld(c, work, world, call);
  const graded = await work.grade(end); // grade (the kind's)
  // The judge reads the graded world and the reply; its problems are recorded on the tasks, never thrown.
  if (c.ctx.meta.judge && graded.judgeable) await judgeHostedEpisode(c.env, c.ctx.run.id, c.ctx.meta.judge, graded.judgeable, graded.record, c.fetcher);
  const written = await recordEpisode(c, world, end, graded);
  if (written) await maybeFinishRun(c.env, c.ctx.run.id);
  return ACK;
}

/** What a kind may use of the Worker: models on the server's own keys and base URLs. */
const hostOf = (c: Claimed): EpisodeHost => ({ runId: c.ctx.run.id, model: (name, opts) => serverModel(c.env, name, { ...opts, fetcher: c.fetcher }) });

async function startWorld(c: Claimed, work: EpisodeWork): Promise<CreatedWorld> {
  try {
    return await createWorld(c.env, work.seed, c.ctx.run.origin ?? "", { scenario: c.ctx.meta.scenario, runId: c.ctx.run.id, person: work.person ?? null });
  } catch (e) {
    throw new StageError("world_create", (e as Error).message);
  }
}

async function runAgent(c: Claimed, work: EpisodeWork, world: CreatedWorld): Promise<AgentCall> {
  const { run } = c.ctx;
  const body: AgentRequestBody = {
    ...work.assignment,
    mode: c.ctx.mode,
    world: { id: world.id, stripe_api_base: world.stripe_api_base, key: world.key, zendesk_url: world.zendesk_url, mcp_url: world.mcp_url, tools_url: world.tools_url, ...(world.person_url ? { person_url: world.person_url } : {}) },
    run: { id: run.id, episode: c.ep.id, repetition: c.ep.repetition },
  };
  return callAgent({ url: run.agentUrl, secret: run.agentSecret, timeoutMs: run.timeoutS * 1000, episode: c.ep.id, attempt: c.delivery.attempts }, body, c.fetcher);
}

/** An agent that could not be reached gets a fresh world next time: it may have half-done its work in this one. */
async function retryAgent(c: Claimed, world: CreatedWorld, error: string): Promise<Disposition> {
  console.warn(`worlds: episode ${c.ep.id} attempt ${c.delivery.attempts}: agent ${error}; retrying`);
  await discardWorld(c.env, world.id);
  await releaseEpisode(c.db, c.ep.id, c.claim, { stage: "server", message: `the agent: ${error}` });
  return { kind: "retry", delaySeconds: backoffSeconds(c.delivery.attempts) };
}

/** The world's end as evidence: its diff, its trace and the person's conversation, beside what the agent did. */
async function endWorld(c: Claimed, work: EpisodeWork, world: CreatedWorld, call: AgentCall): Promise<WorldEndEvidence> {
  const agent: AgentOutcome = call.ok
    ? { exit_code: 0, signal: null, timed_out: false, start_error: null, error: null, duration_ms: call.durationMs }
    : { exit_code: null, signal: null, timed_out: call.timedOut, start_error: null, error: call.error, duration_ms: call.durationMs };
  const stub = c.env.WORLD.getByName(world.id);
  const [diff, trace, person] = await Promise.all([stub.diff(), stub.traceRecords(), work.person ? sha256Hex(world.key).then((h) => stub.personConversation(h)) : null]);
  const state = person as PersonState | { none: true } | null;
  const personTurns = state && "conversation" in state ? state.conversation.turns : [];
  return { world: world.id, diff, trace, agent, reply: call.ok ? call.reply : "", replyBytes: call.ok ? call.replyBytes : null, personTurns };
}

/** The trace to R2, the world removed, then the result written under the claim; false when another delivery owns it now. */
async function recordEpisode(c: Claimed, world: CreatedWorld, end: WorldEndEvidence, graded: GradedEnd): Promise<boolean> {
  const { run } = c.ctx;
  const tKey = traceKey(run.id, c.ep.seq);
  const lines = end.trace.map((t) => JSON.stringify(t)).join("\n");
  await c.env.ARTIFACTS.put(tKey, lines ? lines + "\n" : "", { httpMetadata: { contentType: "application/x-ndjson" }, customMetadata: { run: run.id, episode: c.ep.id, world: world.id } });
  // The agent's calls ride with the record (to R2 when large), so the run's results and report show them.
  const stored: StoredEpisode = { record: { ...graded.record, trace: traceSteps(end.trace, end.diff) }, credits: graded.credits };
  let resultJson = JSON.stringify(stored);
  if (resultJson.length > INLINE_RECORD_LIMIT) {
    const key = episodeRecordKey(run.id, c.ep.seq);
    await c.env.ARTIFACTS.put(key, resultJson, { httpMetadata: { contentType: "application/json" } });
    resultJson = JSON.stringify({ r2: key });
  }
  // The world goes before the result is written, so a finished run never has worlds still open; dying in
  // between only means the next delivery runs the episode again in a fresh world.
  await discardWorld(c.env, world.id);
  return finishEpisode(c.db, c.ep.id, c.claim, {
    status: graded.infra ? "infra_error" : "done",
    resultJson,
    passed: graded.passed,
    graded: graded.graded,
    note: graded.note,
    traceKey: tKey,
    worldId: world.id,
    error: graded.infra,
    now: Date.now(),
  });
}

async function discarded(c: Claimed, world: CreatedWorld, d: Disposition): Promise<Disposition> {
  await discardWorld(c.env, world.id);
  return d;
}

/** A delivery for a finished episode: remove a world a crashed attempt may have left, finish the run if due. */
async function settleFinished(env: Env, ep: EpisodeRow): Promise<Disposition> {
  if (ep.worldId && (await worldAlive(env, ep.worldId))) await discardWorld(env, ep.worldId);
  await maybeFinishRun(env, ep.runId);
  return ACK;
}
