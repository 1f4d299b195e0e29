// The episode consumer under at-least-once delivery, driven batch by batch (createMessageBatch): a redelivered
// message, a consumer that dies midway, two deliveries of one episode at once. Each episode ends with exactly
// one result row and no world left behind.
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import type { Env } from "../../src/env";
import { consumeEpisodes } from "../../queues/episodes";
import { createRun } from "../../src/hosted/runs/create";
import type { EpisodeMessage } from "../../src/hosted/runs/messages";
import { AGENT_SECRET, AGENT_URL, carefulAgent, mockAgent, ORIGIN, replyWith, SELFTEST_TASKS } from "./runs-helpers";

let agent: ReturnType<typeof mockAgent> | null = null;
afterEach(() => agent?.restore());

const realEnv = env as unknown as Env;

/** The Worker's env with the queue producer captured, so the test decides what is delivered and when. */
function capturingEnv(): { env: Env; sent: EpisodeMessage[] } {
  const sent: EpisodeMessage[] = [];
  const producer = {
    send: async (body: EpisodeMessage) => void sent.push(body),
    sendBatch: async (msgs: Iterable<MessageSendRequest<EpisodeMessage>>) => void sent.push(...[...msgs].map((m) => m.body)),
  } as unknown as Queue<unknown>;
  return { env: { ...realEnv, EPISODES: producer }, sent };
}

/** An env whose D1 and world removal start failing when `crash.on` is set: a consumer dying midway. */
function crashingEnv(base: Env, crash: { on: boolean }): Env {
  const db = new Proxy(base.DB, {
    get(target, prop) {
      if (crash.on && (prop === "prepare" || prop === "batch")) return () => { throw new Error("simulated crash: D1 gone"); };
      const v = Reflect.get(target, prop) as unknown;
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  const world = {
    getByName(id: string) {
      const stub = base.WORLD.getByName(id);
      return new Proxy(stub, {
        get(target, prop) {
          if (crash.on && prop === "destroy") return async () => { throw new Error("simulated crash: world removal lost"); };
          return Reflect.get(target, prop) as unknown;
        },
      });
    },
  } as unknown as Env["WORLD"];
  return { ...base, DB: db, WORLD: world };
}

async function deliver(e: Env, queue: string, messages: Array<{ id: string; attempts: number; body: unknown }>) {
  const batch = createMessageBatch(queue, messages.map((m) => ({ ...m, timestamp: new Date() })));
  const ctx = createExecutionContext();
  await consumeEpisodes(batch, e);
  return getQueueResult(batch, ctx);
}

async function newRun(e: Env, extra: Record<string, unknown> = {}): Promise<string> {
  const created = await createRun(e, { tasks: SELFTEST_TASKS, tasks_file: "selftest.tasks.yaml", runs: 1, agent: { url: AGENT_URL, secret: AGENT_SECRET }, ...extra } as never, { origin: ORIGIN, source: "api" });
  if (!created.ok) throw new Error(created.message);
  return created.runId;
}

const rows = (runId: string) =>
  realEnv.DB.prepare("SELECT id, status, attempts, world_id, claim FROM episodes WHERE run_id = ? ORDER BY seq").bind(runId).all<{ id: string; status: string; attempts: number; world_id: string | null; claim: string | null }>().then((r) => r.results);
const liveWorlds = (runId: string) => realEnv.DB.prepare("SELECT id FROM worlds WHERE run_id = ? AND deleted_at IS NULL").bind(runId).all<{ id: string }>().then((r) => r.results.map((x) => x.id));

describe("starting a run", () => {
  it("writes and queues a run of many episodes (multi-row inserts cut to D1's 100 bound parameters)", async () => {
    const { env: e, sent } = capturingEnv();
    const runId = await newRun(e, { runs: 40 });
    expect(sent).toHaveLength(120);
    expect(new Set(sent.map((m) => m.episode)).size).toBe(120);
    const n = await realEnv.DB.prepare("SELECT count(*) AS n, max(seq) AS last FROM episodes WHERE run_id = ? AND status = 'pending'").bind(runId).first<{ n: number; last: number }>();
    expect(n).toEqual({ n: 120, last: 120 });
  });
});

describe("the episode consumer", () => {
  it("acks a redelivered message for a finished episode without a second agent call, row or world", async () => {
    agent = mockAgent(replyWith(carefulAgent));
    const { env: e, sent } = capturingEnv();
    const runId = await newRun(e, { task: ["SELF-3"] });
    expect(sent).toEqual([{ run: runId, episode: `${runId}:1:3`, deferrals: 0 }]);
    const first = await deliver(e, "episodes", [{ id: "m1", attempts: 1, body: sent[0] }]);
    expect(first.explicitAcks).toEqual(["m1"]);
    const again = await deliver(e, "episodes", [{ id: "m1", attempts: 1, body: sent[0] }]);
    expect(again.explicitAcks).toEqual(["m1"]);
    expect(agent.calls).toHaveLength(1);
    const [row] = await rows(runId);
    expect(row.status).toBe("done");
    expect(await liveWorlds(runId)).toEqual([]);
    const run = await realEnv.DB.prepare("SELECT status, exit_code FROM runs WHERE id = ?").bind(runId).first<{ status: string; exit_code: number }>();
    expect(run).toEqual({ status: "done", exit_code: 0 });
  });

  it("takes over an episode whose consumer died midway, removes the world it left, and records one result", async () => {
    const crash = { on: false };
    agent = mockAgent(async (_req, body) => {
      const reply = await carefulAgent(body);
      if (agent!.calls.length === 1) crash.on = true; // the first attempt dies after the agent answered
      return Response.json({ reply });
    });
    const { env: base, sent } = capturingEnv();
    const runId = await newRun(base, { task: ["SELF-1"] });
    const dying = await deliver(crashingEnv(base, crash), "episodes", [{ id: "m7", attempts: 1, body: sent[0] }]);
    expect(dying.retryMessages.map((m: { msgId: string }) => m.msgId)).toEqual(["m7"]);
    const [stuck] = await rows(runId);
    expect(stuck).toMatchObject({ status: "running", claim: "m7#1" });
    const leftover = stuck.world_id!;
    expect(await realEnv.WORLD.getByName(leftover).info()).not.toBeNull();

    crash.on = false;
    const retried = await deliver(base, "episodes", [{ id: "m7", attempts: 2, body: sent[0] }]);
    expect(retried.explicitAcks).toEqual(["m7"]);
    expect(agent.calls).toHaveLength(2);
    const [row] = await rows(runId);
    expect(row).toMatchObject({ status: "done", attempts: 2, claim: "m7#2" });
    expect(row.world_id).not.toBe(leftover);
    expect(await realEnv.WORLD.getByName(leftover).info()).toBeNull();
    expect(await liveWorlds(runId)).toEqual([]);
    const count = await realEnv.DB.prepare("SELECT count(*) AS n FROM episodes WHERE run_id = ?").bind(runId).first<{ n: number }>();
    expect(count?.n).toBe(1);
  });

  it("lets one of two simultaneous deliveries of an episode work it and puts the other back", async () => {
    agent = mockAgent(replyWith(carefulAgent));
    const { env: e, sent } = capturingEnv();
    const runId = await newRun(e, { task: ["SELF-2"] });
    const body = sent[0];
    const both = await deliver(e, "episodes", [
      { id: "a1", attempts: 1, body },
      { id: "b1", attempts: 1, body },
    ]);
    expect(both.explicitAcks.sort()).toEqual(["a1", "b1"]);
    expect(agent.calls).toHaveLength(1);
    // The loser was put back as a fresh message (a wait is not a failure), which then finds the episode done.
    expect(sent.slice(1)).toEqual([{ ...body, deferrals: 1 }]);
    const later = await deliver(e, "episodes", [{ id: "c1", attempts: 1, body: sent[1] }]);
    expect(later.explicitAcks).toEqual(["c1"]);
    expect(agent.calls).toHaveLength(1);
    expect((await rows(runId)).map((r) => r.status)).toEqual(["done"]);
  });

  it("keeps a run within its concurrency: a claim beyond it is put back", async () => {
    agent = mockAgent(replyWith(carefulAgent));
    const { env: e, sent } = capturingEnv();
    const runId = await newRun(e, { concurrency: 1 });
    // Another delivery holds episode 1 (a live claim, not ours).
    await realEnv.DB.prepare("UPDATE episodes SET status = 'running', claim = 'other#1', claimed_at = ? WHERE id = ?").bind(Date.now(), `${runId}:1:1`).run();
    const res = await deliver(e, "episodes", [{ id: "x", attempts: 1, body: sent[1] }]);
    expect(res.explicitAcks).toEqual(["x"]);
    expect(agent.calls).toHaveLength(0);
    expect(sent.at(-1)).toEqual({ ...sent[1], deferrals: 1 });
    expect((await rows(runId)).map((r) => r.status)).toEqual(["running", "pending", "pending"]);
  });

  it("records a dead letter as an infrastructure error with the last failure, and the run still finishes", async () => {
    agent = mockAgent(replyWith(carefulAgent));
    const { env: e, sent } = capturingEnv();
    const runId = await newRun(e, { task: ["SELF-3"] });
    await realEnv.DB.prepare("UPDATE episodes SET error = ? WHERE id = ?").bind(JSON.stringify({ stage: "world_create", message: "the world did not answer" }), sent[0].episode).run();
    const res = await deliver(e, "episodes-dlq", [{ id: "d1", attempts: 1, body: sent[0] }]);
    expect(res.explicitAcks).toEqual(["d1"]);
    const [row] = await rows(runId);
    expect(row.status).toBe("infra_error");
    const run = await realEnv.DB.prepare("SELECT status, result_json FROM runs WHERE id = ?").bind(runId).first<{ status: string; result_json: string }>();
    expect(run?.status).toBe("done");
    const results = JSON.parse(run!.result_json) as { crash_test: { infra_errors: { count: number; by_stage: Record<string, number> } }; runs: Array<{ worlds: Array<{ verdict: string; infra_error: { message: string } }> }> };
    expect(results.crash_test.infra_errors).toEqual({ count: 1, by_stage: { world_create: 1 } });
    expect(results.runs[0].worlds[0].verdict).toBe("infra_error");
    expect(results.runs[0].worlds[0].infra_error.message).toBe("the world did not answer (after 4 deliveries)");
    // A second dead letter for the same episode changes nothing.
    await deliver(e, "episodes-dlq", [{ id: "d1", attempts: 2, body: sent[0] }]);
    expect((await rows(runId)).map((r) => r.status)).toEqual(["infra_error"]);
  });

  it("sends a message that is not an episode message back for retries, and drops it (logged) from the dead-letter queue", async () => {
    const res = await deliver(realEnv, "episodes", [{ id: "p1", attempts: 1, body: { hello: "world" } }]);
    expect(res.retryMessages.map((m: { msgId: string }) => m.msgId)).toEqual(["p1"]);
    const dead = await deliver(realEnv, "episodes-dlq", [{ id: "p1", attempts: 4, body: { hello: "world" } }]);
    expect(dead.explicitAcks).toEqual(["p1"]);
  });
});
