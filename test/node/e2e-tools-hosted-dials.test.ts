// A hosted tools run of a `measure:` settings document on the real local server: `worlds tools run --server auto
// --agent-url URL` of a config made by `worlds tools init --preset full` runs every dial the set reaches (the
// history dial's tokens counted in workerd), and reports the same task ids with the same verdicts as the process
// run of the same config. The agent is the literal tools agent, which does not retry a failed call: the faults
// dial's levels with a fault fail on both paths alike.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killAllStarted, ROOT, runCli } from "./helpers/cli";
import { assertValidResults } from "./helpers/validate-results";
import { startSignedAgent, type SignedAgent } from "./helpers/signed-agent";

const SECRET = "e2e-tools-dials-secret-0123";
let dir: string;
let agent: SignedAgent;

type Solve = (task: unknown, o: { base: string; key: string }) => Promise<string | null>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "worlds-tools-dials-"));
  cpSync(join(ROOT, "test", "fixtures", "tools", "orders.openai.json"), join(dir, "tools.json"));
  const init = await runCli(["tools", "init", "--own-file", "tools.json", "--own-name", "acme", "--own-read", "get_order", "--own-read", "search_orders", "--own-read", "list_channels", "--own-flow", "get_order.id:refund_order.order_id", "--preset", "full"], { cwd: dir });
  expect(init.code, init.stderr).toBe(0);
  const config = join(dir, "worlds", "tools.yaml");
  writeFileSync(config, readFileSync(config, "utf8").replace("tasks_per_arm: 10", "tasks_per_arm: 1"));
  expect(readFileSync(config, "utf8")).toMatch(/preset: full/);

  const { solveLiterally } = (await import(pathToFileURL(join(ROOT, "examples", "agents", "lib", "literal-tools.mjs")).href)) as { solveLiterally: Solve };
  agent = await startSignedAgent(SECRET, async (body) => {
    if (body.kind !== "tools") throw new Error(`not a tools episode: ${body.kind}`);
    return (await solveLiterally(body.task, { base: body.world.tools_url, key: body.world.key })) ?? "";
  });
});

afterAll(async () => {
  killAllStarted();
  await agent?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Results {
  exit_code: number;
  progress?: unknown;
  runs: Array<{ worlds: Array<{ task: string; verdict: string | null }> }>;
  crash_test: { tasks: Array<{ id: string; infra_errors: number }> };
}

const read = (file: string) => JSON.parse(readFileSync(join(dir, file), "utf8")) as Results;
const verdicts = (r: Results) => Object.fromEntries(r.runs[0].worlds.map((w) => [w.task, w.verdict]).sort(([a], [b]) => String(a).localeCompare(String(b))));

describe("worlds tools run --agent-url with measure: dials", () => {
  it("runs every dial's arms on the server with the process run's task ids and verdicts", async () => {
    const hosted = await runCli(["tools", "run", "--server", "auto", "--agent-url", `${agent.url}/solve`, "--runs", "1", "--json-file", join(dir, "hosted.json")], { cwd: dir, env: { WORLDS_AGENT_SECRET: SECRET }, timeoutMs: 400_000 });
    expect([0, 1], hosted.stderr + hosted.stdout).toContain(hosted.code);
    expect(hosted.stderr + hosted.stdout).not.toMatch(/not a valid tools plan/);
    const h = read("hosted.json");
    assertValidResults(h);
    expect(h.crash_test.tasks.every((t) => t.infra_errors === 0)).toBe(true);
    const sent = agent.calls.flatMap((b) => (b.kind === "tools" ? [b.task] : []));
    expect(sent.some((t) => (t.history?.length ?? 0) > 0)).toBe(true);

    const local = await runCli(["tools", "run", "--server", "auto", "--runs", "1", "--json-file", join(dir, "local.json"), "--", process.execPath, join(ROOT, "examples", "agents", "tools-literal.mjs")], { cwd: dir, timeoutMs: 400_000 });
    expect([0, 1], local.stderr).toContain(local.code);
    const l = read("local.json");
    expect(Object.keys(verdicts(h)).length).toBeGreaterThan(15);
    expect(verdicts(h)).toEqual(verdicts(l));
    expect(h.exit_code).toBe(l.exit_code);
    // Both ways the passed/failed split is the dials' doing, not an error: some of each.
    expect(new Set(Object.values(verdicts(h)))).toContain("passed");
  });
});
