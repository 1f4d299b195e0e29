// The reference careful agent under every library scenario, through the real CLI (`passk --server auto
// --scenario X`), in both modes; and, on a server the test holds, proof from the worlds' traces that the
// scenario really misbehaved while the agent still passed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import { killAllStarted, ROOT, runCli } from "./helpers/cli";
import { startLocalServer, type LocalServer } from "../../src/cli/server/local";

afterAll(killAllStarted);

const SLOW = 300_000;
const TASKS = "examples/agents/selftest.tasks.yaml";
const CAREFUL = ["node", join(ROOT, "examples", "agents", "careful.mjs")];
const SCENARIOS = ["rate-limit-storm", "slow-api", "flaky-writes", "stale-reads"];

interface Doc {
  status: string;
  exit_code: number;
  runs: Array<{ worlds: Array<{ verdict: string | null }> }>;
}

async function passk(args: string[]): Promise<{ code: number | null; doc: Doc; stderr: string; leftovers: number[] }> {
  const res = await runCli(["passk", "--tasks", TASKS, "--runs", "1", "--concurrency", "2", "--json", ...args, "--", ...CAREFUL], { timeoutMs: 240_000 });
  let doc: Doc;
  try {
    doc = JSON.parse(res.stdout) as Doc;
  } catch {
    throw new Error(`passk printed no results (exit ${res.code})\nstdout:\n${res.stdout}\nstderr:\n${res.stderr}`);
  }
  return { code: res.code, doc, stderr: res.stderr, leftovers: res.leftovers };
}

describe("the careful agent survives every library scenario", () => {
  for (const scenario of SCENARIOS) {
    it(`${scenario}, isolated`, async () => {
      const res = await passk(["--server", "auto", "--scenario", scenario]);
      expect(res.doc.status, res.stderr).toBe("passed");
      expect(res.code).toBe(0);
      expect(res.doc.runs[0].worlds.every((w) => w.verdict === "passed")).toBe(true);
      expect(res.leftovers).toEqual([]);
    }, SLOW);
  }

  // The desk is only read and written in shift mode: the storm and the lag hit it there.
  for (const scenario of ["rate-limit-storm", "stale-reads"]) {
    it(`${scenario}, shift`, async () => {
      const res = await passk(["--server", "auto", "--mode", "shift", "--scenario", scenario]);
      expect(res.doc.status, res.stderr).toBe("passed");
      expect(res.code).toBe(0);
    }, SLOW);
  }
});

describe("the scenario really applied", () => {
  let server: LocalServer;
  beforeAll(async () => {
    server = await startLocalServer();
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  async function traces(worldIds: string[]): Promise<Array<{ service: string; method: string; status: number }>> {
    const out = [];
    for (const id of worldIds) {
      const res = await fetch(`${server.url}/admin/worlds/${id}/trace`, { headers: { authorization: `Bearer ${server.token}` } });
      expect(res.status).toBe(200);
      for (const line of (await res.text()).split("\n").filter(Boolean)) out.push(JSON.parse(line));
    }
    return out;
  }

  async function keptRun(scenario: string, mode: string): Promise<string[]> {
    const res = await runCli(
      ["passk", "--tasks", TASKS, "--runs", "1", "--mode", mode, "--url", server.url, "--token", server.token, "--keep-worlds", "--scenario", scenario, "--", ...CAREFUL],
      { timeoutMs: 240_000 },
    );
    expect(res.code, `${res.stdout}\n${res.stderr}`).toBe(0);
    const kept = /kept worlds \(--keep-worlds\): (.+)/.exec(res.stdout)?.[1]?.trim().split(/\s+/) ?? [];
    expect(kept.length).toBeGreaterThan(0);
    return kept;
  }

  it("rate-limit-storm: the agent met 429s on both APIs and passed", async () => {
    const trace = await traces(await keptRun("rate-limit-storm", "shift"));
    expect(trace.filter((t) => t.service === "stripe" && t.status === 429).length).toBeGreaterThan(0);
    expect(trace.filter((t) => t.service === "helpdesk" && t.status === 429).length).toBeGreaterThan(0);
  }, SLOW);

  it("flaky-writes: every billing write failed once with 503, then went through", async () => {
    const trace = await traces(await keptRun("flaky-writes", "isolated"));
    const writes = trace.filter((t) => t.service === "stripe" && t.method === "POST");
    expect(writes.filter((t) => t.status === 503).length).toBeGreaterThan(0);
    expect(writes.filter((t) => t.status === 503).length).toBe(writes.filter((t) => t.status === 200).length);
  }, SLOW);

  it("an unknown scenario is refused by name, with the library listed", async () => {
    const res = await fetch(`${server.url}/admin/worlds`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.token}`, "content-type": "application/json" },
      body: JSON.stringify({ seed: "acme-small", scenario: "hailstorm" }),
    });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain("rate-limit-storm");
  });
});
