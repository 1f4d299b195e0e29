// `passk --agent-url ... --judge` end to end: the CLI sends the policy's text with the run, the local server
// (--server auto, the Worker on Miniflare) judges every episode from its queue with the keys and base URL of its
// own environment, here the scripted model on loopback, and the results carry the judge as a local run's do.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadScript } from "../../src/core/models/scripted/index";
import { startScriptedServer, type ScriptedServer } from "../../src/cli/models/scripted-server";
import { killAllStarted, ROOT, runCli } from "./helpers/cli";
import { assertValidResults } from "./helpers/validate-results";

let model: ScriptedServer;
let agent: Server;
let agentUrl: string;

beforeAll(async () => {
  const loaded = loadScript(readFileSync(join(ROOT, "test/fixtures/judge/judge.script.yaml"), "utf8"), "judge.script.yaml");
  if (!loaded.ok) throw new Error(loaded.problems.join("\n"));
  model = await startScriptedServer(loaded.script);
  // An agent that only answers (no signature check: this test is about the judge).
  agent = createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ reply: "Thanks for writing in. A colleague will follow up." })));
  });
  await new Promise<void>((r) => agent.listen(0, "127.0.0.1", r));
  agentUrl = `http://127.0.0.1:${(agent.address() as AddressInfo).port}/agent`;
});
afterAll(async () => {
  killAllStarted();
  await model?.close();
  await new Promise((r) => agent?.close(r));
});

describe("hosted passk --judge", () => {
  it("judges every episode on the server and reports the judge block", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "worlds-hosted-judge-"));
    const res = await runCli(
      ["passk", "--tasks", join(ROOT, "test/fixtures/judge/judge.tasks.yaml"), "--task", "J-1", "--task", "J-4", "--server", "auto", "--agent-url", agentUrl, "--judge", "--json"],
      { cwd, env: { WORLDS_AGENT_SECRET: "hosted-judge-secret-0123", OPENAI_BASE_URL: model.env.OPENAI_BASE_URL, OPENAI_API_KEY: undefined }, timeoutMs: 240_000 },
    );
    const doc = JSON.parse(res.stdout) as { status: string; judge: Record<string, unknown>; runs: { worlds: { task: string; judge: { outcome: string; verdict: string | null } | null }[] }[] };
    assertValidResults(doc);
    expect(doc.runs[0].worlds.map((w) => [w.task, w.judge?.outcome, w.judge?.verdict])).toEqual([["J-1", "judged", "passed"], ["J-4", "judged", "failed"]]);
    expect(doc.judge).toMatchObject({ model: "openai:gpt-4.1-mini", tasks: 2, judged: 2, policy: { source: "judge.policy" } });
    const sent = model.received().filter((r) => r.status === 200).map((r) => JSON.stringify(r.body));
    expect(sent.some((b) => b.includes("Refund a duplicate charge only once."))).toBe(true);
    const refused = await runCli(["passk", "--tasks", join(ROOT, "test/fixtures/judge/judge.tasks.yaml"), "--server", "auto", "--agent-url", agentUrl, "--judge", "--judge-base-url", "http://x.test/v1"], { cwd, env: { WORLDS_AGENT_SECRET: "hosted-judge-secret-0123" } });
    expect(refused.code).toBe(2);
    expect(refused.stdout).toContain("--judge-base-url does not apply to a hosted run");
  }, 300_000);
});
