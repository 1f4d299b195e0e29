// A hosted tools run end to end: `worlds tools run --server auto --agent-url URL` sends the settings and the tool
// file to the real local server, whose queue runs every task against a real HTTP agent on 127.0.0.1 (the literal
// tools agent's rules behind a signed endpoint). Its verdicts are the process agent's: all passed, and a
// repeated write is collateral_mutation (exit 1) with a replay line for the hosted run.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killAllStarted, ROOT, runCli } from "./helpers/cli";
import { assertValidResults } from "./helpers/validate-results";
import { startSignedAgent, type SignedAgent } from "./helpers/signed-agent";

const SECRET = "e2e-tools-agent-secret-0123";
let dir: string;
let agent: SignedAgent;
let agentUrl: string;

type Solve = (task: unknown, o: { base: string; key: string; twice?: boolean }) => Promise<string | null>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "worlds-tools-hosted-"));
  cpSync(join(ROOT, "test", "fixtures", "tools", "orders.openai.json"), join(dir, "tools.json"));
  const init = await runCli(["tools", "init", "--own-file", "tools.json", "--own-name", "acme", "--own-read", "get_order", "--own-read", "search_orders", "--own-read", "list_channels", "--own-flow", "get_order.id:refund_order.order_id"], { cwd: dir });
  expect(init.code, init.stderr).toBe(0);
  const config = join(dir, "worlds", "tools.yaml");
  writeFileSync(config, readFileSync(config, "utf8").replace("tasks_per_arm: 10", "tasks_per_arm: 2"));

  const { solveLiterally } = (await import(pathToFileURL(join(ROOT, "examples", "agents", "lib", "literal-tools.mjs")).href)) as { solveLiterally: Solve };
  agent = await startSignedAgent(SECRET, async (body, req) => {
    if (body.kind !== "tools") throw new Error(`not a tools episode: ${body.kind}`);
    return (await solveLiterally(body.task, { base: body.world.tools_url, key: body.world.key, twice: req.url === "/twice" })) ?? "";
  });
  agentUrl = agent.url;
});

afterAll(async () => {
  killAllStarted();
  await agent?.close();
  rmSync(dir, { recursive: true, force: true });
});

const env = { WORLDS_AGENT_SECRET: SECRET };

describe("worlds tools run --agent-url", () => {
  it("runs every form on the server against the HTTP agent and passes, like the process agent does", async () => {
    const res = await runCli(["tools", "run", "--server", "auto", "--agent-url", `${agentUrl}/solve`, "--runs", "2", "--json-file", join(dir, "hosted.json")], { cwd: dir, env, timeoutMs: 300_000 });
    expect(res.code, res.stderr + res.stdout).toBe(0);
    expect(res.stdout).toMatch(/status: passed \(exit 0\)/);
    expect(res.stdout).toContain("acme: 5 tools: 3 read");
    const results = JSON.parse(readFileSync(join(dir, "hosted.json"), "utf8")) as { exit_code: number; tasks: { file: string }; runs: Array<{ worlds: Array<{ verdict: string }> }> };
    assertValidResults(results);
    expect(results.tasks.file).toBe("worlds/tools.yaml");
    expect(results.runs.flatMap((r) => r.worlds.map((w) => w.verdict))).toEqual(Array(12).fill("passed"));
    expect(agent.calls.every((b) => b.kind === "tools")).toBe(true);
    expect(res.leftovers).toEqual([]);

    const local = await runCli(["tools", "run", "--server", "auto", "--runs", "1", "--json-file", join(dir, "local.json"), "--", process.execPath, join(ROOT, "examples", "agents", "tools-literal.mjs")], { cwd: dir, timeoutMs: 240_000 });
    expect(local.code, local.stderr).toBe(0);
    const ids = (file: string) => (JSON.parse(readFileSync(join(dir, file), "utf8")) as { crash_test: { tasks: Array<{ id: string }> } }).crash_test.tasks.map((t) => t.id).sort();
    expect(ids("hosted.json")).toEqual(ids("local.json"));
  });

  it("a repeated write is collateral_mutation (exit 1), and the replay line reruns the task on the same server and agent", async () => {
    const res = await runCli(["tools", "run", "--server", "auto", "--agent-url", `${agentUrl}/twice`, "--runs", "1", "--json"], { cwd: dir, env, timeoutMs: 300_000 });
    expect(res.code, res.stderr).toBe(1);
    const results = JSON.parse(res.stdout) as { status: string; runs: Array<{ worlds: Array<{ verdict: string }> }>; crash_test: { worst_task: { replay: string } | null } };
    expect(results.status).toBe("policy_failed");
    expect(new Set(results.runs.flatMap((r) => r.worlds.map((w) => w.verdict)))).toEqual(new Set(["collateral_mutation"]));
    expect(results.crash_test.worst_task?.replay).toMatch(/^worlds tools run --config worlds\/tools\.yaml --url http:\/\/127\.0\.0\.1:\d+ --agent-url http:\/\/127\.0\.0\.1:\d+\/twice --task \S+ --runs 1$/);
  });

  it("says what a hosted run needs before starting anything", async () => {
    const res = await runCli(["tools", "run", "--agent-url", `${agentUrl}/solve`], { cwd: dir, env: { WORLDS_AGENT_SECRET: "", WORLDS_URL: "", WORLDS_TOKEN: "" } });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/needs the server \(--url or WORLDS_URL\), its admin token \(--token or WORLDS_TOKEN\), WORLDS_AGENT_SECRET/);
  });
});
