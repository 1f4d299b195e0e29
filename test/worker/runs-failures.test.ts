// Failures through the real local queue (retries with backoff, then the dead-letter queue): an agent that answers
// 500 or never answers ends as a recorded agent error after the retries; a message that keeps failing ends as an
// infrastructure-error episode; in every case the run still finishes.
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import type { Env } from "../../src/env";
import { createRun } from "../../src/hosted/runs/create";
import { sendEpisodes, type EpisodeMessage } from "../../src/hosted/runs/messages";
import { EPISODE_MAX_DELIVERIES } from "../../src/hosted/runs/config";
import { AGENT_SECRET, AGENT_URL, carefulAgent, mockAgent, ORIGIN, postRun, SELFTEST_TASKS, twinOf, waitForRun } from "./runs-helpers";

let agent: ReturnType<typeof mockAgent> | null = null;
afterEach(() => agent?.restore());
const realEnv = env as unknown as Env;

describe("hosted runs when things fail", () => {
  it("retries an agent that answers 500 and records its error after the last delivery", { timeout: 60_000 }, async () => {
    agent = mockAgent(async () => new Response("upstream exploded", { status: 500 }));
    const posted = await postRun({ tasks: SELFTEST_TASKS, runs: 1, task: ["SELF-3"] });
    const done = await waitForRun(posted.body.run_id!);
    expect(agent.calls).toHaveLength(EPISODE_MAX_DELIVERIES);
    const world = done.results.runs[0].worlds[0];
    expect(world.agent).toMatchObject({ exit_code: null, timed_out: false, error: "HTTP 500: upstream exploded" });
    expect(world.passed).toBe(false);
    expect(done.progress).toMatchObject({ done: 1, infra_errors: 0 });
    // The agent never reached the twin, so the verdicts say nothing: inconclusive, exit 4.
    expect(done.results.status).toBe("inconclusive");
    const live = await realEnv.DB.prepare("SELECT count(*) AS n FROM worlds WHERE run_id = ? AND deleted_at IS NULL").bind(done.id).first<{ n: number }>();
    expect(live?.n).toBe(0);
  });

  it("passes when the agent recovers on a retry, with one result", { timeout: 60_000 }, async () => {
    let failures = 2;
    agent = mockAgent(async (_req, body) => (failures-- > 0 ? new Response("busy", { status: 503 }) : Response.json({ reply: await carefulAgent(body) })));
    const posted = await postRun({ tasks: SELFTEST_TASKS, runs: 1, task: ["SELF-1"] });
    const done = await waitForRun(posted.body.run_id!);
    expect(agent.calls).toHaveLength(3);
    expect(done.results.status).toBe("passed");
    expect(done.results.runs[0].worlds[0]).toMatchObject({ verdict: "passed", passed: true });
    // Each failed attempt's world was removed before the next one got a fresh world.
    expect(new Set(agent.calls.map((c) => c.world.id)).size).toBe(3);
    const live = await realEnv.DB.prepare("SELECT count(*) AS n FROM worlds WHERE run_id = ? AND deleted_at IS NULL").bind(done.id).first<{ n: number }>();
    expect(live?.n).toBe(0);
  });

  it("records a timeout when the agent never answers in time", { timeout: 60_000 }, async () => {
    agent = mockAgent(async (_req, body) => {
      await twinOf(body.world).get("/v1/customers?limit=1");
      await new Promise((r) => setTimeout(r, 2_500));
      return Response.json({ reply: "too late" });
    });
    const posted = await postRun({ tasks: SELFTEST_TASKS, runs: 1, task: ["SELF-3"], timeout_s: 1 });
    const done = await waitForRun(posted.body.run_id!);
    expect(agent.calls).toHaveLength(EPISODE_MAX_DELIVERIES);
    const world = done.results.runs[0].worlds[0];
    expect(world.agent).toMatchObject({ timed_out: true, error: "no answer within 1 s" });
    expect(world.passed).toBe(false);
    expect(done.results.status).toBe("policy_failed");
    expect(done.results.reason).toContain("the agent timed out");
  });

  it("sends a message that fails every delivery to the dead-letter queue, whose consumer records an infrastructure error", { timeout: 60_000 }, async () => {
    agent = mockAgent(async (_req, body) => Response.json({ reply: await carefulAgent(body) }));
    const sent: EpisodeMessage[] = [];
    const capture = { ...realEnv, EPISODES: { sendBatch: async (m: Iterable<MessageSendRequest<EpisodeMessage>>) => void sent.push(...[...m].map((x) => x.body)) } as unknown as Queue<unknown> };
    const created = await createRun(capture, { tasks: SELFTEST_TASKS, runs: 1, agent: { url: AGENT_URL, secret: AGENT_SECRET } } as never, { origin: ORIGIN, source: "api" });
    if (!created.ok) throw new Error(created.message);
    // Poison one episode's run: its seed cannot be read, so every delivery of any of its messages fails.
    await realEnv.DB.prepare("UPDATE runs SET seed_key = 'seeds/gone.json' WHERE id = ?").bind(created.runId).run();
    await sendEpisodes(realEnv, sent);
    const done = await waitForRun(created.runId);
    expect(agent.calls).toHaveLength(0);
    expect(done.progress).toMatchObject({ total: 3, infra_errors: 3 });
    expect(done.results.crash_test.infra_errors).toEqual({ count: 3, by_stage: { server: 3 } });
    expect(done.results.runs[0].worlds.map((w) => w.infra_error?.message)).toEqual(
      Array(3).fill(`seeds/gone.json is missing from the artifacts bucket (after ${EPISODE_MAX_DELIVERIES} deliveries)`),
    );
    const attempts = await realEnv.DB.prepare("SELECT attempts FROM episodes WHERE run_id = ?").bind(created.runId).all<{ attempts: number }>();
    expect(attempts.results.map((r) => r.attempts)).toEqual([EPISODE_MAX_DELIVERIES, EPISODE_MAX_DELIVERIES, EPISODE_MAX_DELIVERIES]);
  });
});
