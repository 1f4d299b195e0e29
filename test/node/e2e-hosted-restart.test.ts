// Issue 11 item 4: `worlds serve --persist DIR` stopped (SIGTERM) during a hosted run and started again. The local
// queue holds its messages in memory, so before the fix the run stayed `running` forever and the in-flight
// episode's world stayed open. Now the server re-drives every unfinished episode on start: the run completes,
// each episode has one result, the finished one is not run again, and the orphaned world is gone.
import { mkdtempSync } from "node:fs";
import { createServer as createHttpServer, type ServerResponse } from "node:http";
import { createServer as createNetServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { AgentRequestBody, EpisodeView, RunView } from "../../src/core/pipeline/index";
import { groupMembers, killAllStarted, startCli, waitUntil, type CliProcess } from "./helpers/cli";

afterAll(killAllStarted);

const SECRET = "restart-agent-secret-0123456789";
const TOKEN = "restart-test-token-0123456789";

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createNetServer();
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as AddressInfo).port;
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}

const TASKS = [
  "version: 1",
  "seed: acme-small",
  "mode: isolated",
  "tasks:",
  ...[
    ["R-1", "founders.nimbus@example.com"],
    ["R-2", "ap.fjord@example.com"],
    ["R-3", "billing.iris@example.com"],
  ].flatMap(([id, requester]) => [`  - id: ${id}`, `    requester: ${requester}`, `    subject: Just checking`, `    body: "When is our next renewal? No changes please."`, `    expected: none`]),
].join("\n");

async function serve(dir: string, port: number): Promise<CliProcess> {
  const p = startCli(["serve", "--persist", dir, "--port", String(port), "--token", TOKEN]);
  await p.waitFor(/WORLDS_TOKEN=\S+\n/, 60_000);
  return p;
}

describe("a hosted run across a restart of worlds serve --persist", () => {
  it("completes after the restart with every episode done once and the interrupted episode's world removed", { timeout: 240_000 }, async () => {
    const calls: { episode: string; world: string }[] = [];
    const held: ServerResponse[] = [];
    let onHeld: () => void = () => undefined;
    const heldNow = new Promise<void>((r) => (onHeld = r));
    let holding = true;
    // The second episode to reach the agent is left unanswered: it is the one in flight when the server stops.
    const agent = createHttpServer((req, res) => {
      let raw = "";
      req.on("data", (c) => (raw += c));
      req.on("end", () => {
        const body = JSON.parse(raw) as AgentRequestBody;
        calls.push({ episode: body.run.episode, world: body.world.id });
        if (holding && calls.length === 2) {
          held.push(res);
          onHeld();
          return;
        }
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ reply: "Your plan renews at the end of the period; I changed nothing." }));
      });
    });
    await new Promise<void>((r) => agent.listen(0, "127.0.0.1", r));
    const agentUrl = `http://127.0.0.1:${(agent.address() as AddressInfo).port}/agent`;
    const dir = mkdtempSync(join(tmpdir(), "worlds-restart-"));
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const api = async <T>(path: string, init: RequestInit = {}): Promise<{ status: number; body: T }> => {
      const res = await fetch(`${url}${path}`, { ...init, headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" } });
      return { status: res.status, body: (await res.json()) as T };
    };

    try {
      const first = await serve(dir, port);
      const posted = await api<{ run_id: string }>("/admin/runs", { method: "POST", body: JSON.stringify({ tasks: TASKS, runs: 1, concurrency: 1, agent: { url: agentUrl, secret: SECRET } }) });
      expect(posted.status).toBe(201);
      const runId = posted.body.run_id;
      await heldNow;
      const before = await api<RunView>(`/admin/runs/${runId}`);
      expect(before.body.progress).toMatchObject({ total: 3, done: 1, running: 1, pending: 1 });
      const orphan = calls[1]!.world;
      expect((await api(`/admin/worlds/${orphan}`)).status).toBe(200);

      first.signal("SIGTERM");
      expect((await first.exited).code).toBe(0);
      expect(await waitUntil(() => groupMembers(first.pgid).length === 0)).toBe(true);
      for (const res of held) res.destroy();
      holding = false;

      const second = await serve(dir, port);
      const deadline = Date.now() + 120_000;
      let view = (await api<RunView>(`/admin/runs/${runId}`)).body;
      while (view.status !== "done" && view.status !== "failed") {
        if (Date.now() > deadline) throw new Error(`run still ${view.status} after the restart: ${JSON.stringify(view.progress)}\n${second.stderr()}`);
        await new Promise((r) => setTimeout(r, 250));
        view = (await api<RunView>(`/admin/runs/${runId}`)).body;
      }
      expect(view.status).toBe("done");
      expect(view.progress).toMatchObject({ total: 3, done: 3, infra_errors: 0, finished: 3 });
      expect(second.stderr()).toContain("1 hosted run(s) left unfinished by the last server resumed: 2 episode(s) queued again (1 interrupted");

      const episodes = (await api<{ data: EpisodeView[] }>(`/admin/runs/${runId}/episodes?limit=50`)).body.data;
      expect(episodes.map((e) => e.status)).toEqual(["done", "done", "done"]);
      // The agent saw the interrupted episode twice (the first call never ended) and each other episode once.
      const seen = new Map<string, number>();
      for (const c of calls) seen.set(c.episode, (seen.get(c.episode) ?? 0) + 1);
      expect([...seen.values()].sort()).toEqual([1, 1, 2]);
      expect(seen.get(calls[0]!.episode)).toBe(1); // finished before the stop: not run again
      expect(seen.get(calls[1]!.episode)).toBe(2);
      // Its new world is the one graded; the one the stopped server left is gone.
      const interrupted = episodes.find((e) => e.id === calls[1]!.episode)!;
      expect(interrupted.world).not.toBe(orphan);
      expect((await api(`/admin/worlds/${orphan}`)).status).toBe(404);
      for (const e of episodes) expect((await api(`/admin/worlds/${e.world}`)).status).toBe(404);

      second.signal("SIGTERM");
      expect((await second.exited).code).toBe(0);
    } finally {
      await new Promise((r) => agent.close(r).closeAllConnections());
    }
  });
});
