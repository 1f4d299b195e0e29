// POST /admin/runs/recover (src/hosted/runs/recover.ts): what the local server calls on start, because its queue lost
// every message when it stopped (issue 11 item 4). The stranded state is built directly: a run stored with no
// message sent, one episode held by a delivery that died with a world open, another world a delivery made but
// never recorded.
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import type { Env } from "../../src/env";
import { createRun } from "../../src/hosted/runs/create";
import { runRequest } from "../../src/core/pipeline/index";
import { admin, call, carefulAgent, json, mockAgent, ORIGIN, AGENT_URL, AGENT_SECRET, replyWith, SELFTEST_TASKS, waitForRun, getRunView } from "./runs-helpers";

let agent: ReturnType<typeof mockAgent> | null = null;
afterEach(() => agent?.restore());
const realEnv = env as unknown as Env;
/** The run is stored, but its messages go nowhere: as after a restart of a server whose queue was in memory. */
const lostQueue = { ...realEnv, EPISODES: { sendBatch: async () => undefined, send: async () => undefined } as unknown as Env["EPISODES"] };

async function strandedRun(): Promise<string> {
  const made = await createRun(lostQueue, runRequest.parse({ tasks: SELFTEST_TASKS, runs: 1, agent: { url: AGENT_URL, secret: AGENT_SECRET } }), { origin: ORIGIN, source: "api" });
  if (!made.ok) throw new Error(made.message);
  return made.runId;
}

async function worldOfRun(runId: string): Promise<string> {
  const w = await json<{ id: string }>(await call("/admin/worlds", { method: "POST", headers: admin, body: JSON.stringify({ seed: "acme-small" }) }));
  await realEnv.DB.prepare("UPDATE worlds SET run_id = ?, created_at = 1000 WHERE id = ?").bind(runId, w.id).run();
  return w.id;
}

const recover = async (before: number) => json<{ runs: number; requeued: number; interrupted: number; worlds_removed: number; finished: number }>(await call("/admin/runs/recover", { method: "POST", headers: admin, body: JSON.stringify({ before }) }));
const worldStatus = async (id: string) => (await call(`/admin/worlds/${id}`, { headers: admin })).status;

describe("recovering runs a stopped server left unfinished", () => {
  it("gives back the dead delivery's episode, removes the worlds it left, and runs every unfinished episode once", { timeout: 60_000 }, async () => {
    const runId = await strandedRun();
    const recorded = await worldOfRun(runId);
    const unrecorded = await worldOfRun(runId);
    await realEnv.DB.prepare("UPDATE episodes SET status = 'running', claim = 'dead-message#1', claimed_at = 1000, attempts = 1, world_id = ? WHERE run_id = ? AND seq = 1").bind(recorded, runId).run();
    expect((await getRunView(runId)).progress).toMatchObject({ pending: 2, running: 1 });

    agent = mockAgent(replyWith(carefulAgent));
    // A recovery that only knows of deliveries from before the run was made leaves it alone.
    expect(await recover(1)).toMatchObject({ runs: 0, requeued: 0 });
    const out = await recover(Date.now());
    expect(out).toMatchObject({ requeued: 3, interrupted: 1, worlds_removed: 2 });
    const done = await waitForRun(runId);
    expect(done.progress).toMatchObject({ total: 3, done: 3, infra_errors: 0 });
    expect(done.results.status).toBe("passed");
    expect(agent.calls.map((c) => c.run.episode).sort()).toEqual([`${runId}:1:1`, `${runId}:1:2`, `${runId}:1:3`]);
    expect(await worldStatus(recorded)).toBe(404);
    expect(await worldStatus(unrecorded)).toBe(404);
    const live = await realEnv.DB.prepare("SELECT count(*) AS n FROM worlds WHERE run_id = ? AND deleted_at IS NULL").bind(runId).first<{ n: number }>();
    expect(live?.n).toBe(0);

    // Once done, a second recovery finds nothing to do: nothing runs twice.
    const calls = agent.calls.length;
    expect(await recover(Date.now())).toMatchObject({ requeued: 0 });
    expect(agent.calls.length).toBe(calls);
  });

  it("finishes a run whose episodes had all finished when its finisher died", { timeout: 60_000 }, async () => {
    agent = mockAgent(replyWith(carefulAgent));
    const runId = await strandedRun();
    await recover(Date.now());
    await waitForRun(runId);
    // As if the server stopped between the last result and the results: every episode done, the run not.
    await realEnv.DB.prepare("UPDATE runs SET status = 'finishing', finished_at = 1000, result_json = NULL WHERE id = ?").bind(runId).run();
    expect((await getRunView(runId)).status).toBe("finishing");
    expect(await recover(Date.now())).toMatchObject({ runs: 1, requeued: 0, finished: 1 });
    expect((await getRunView(runId)).status).toBe("done");
  });
});
