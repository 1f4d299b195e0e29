// examples/agents/llm-agent.mjs end to end under passk, with no key and no network: the scripted model plays the
// agent's model (tool calls through the real Stripe client against the twin, a rate limit on the way) and the
// policy judge; the key grades the world it left.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadScript } from "../../src/core/models/scripted/index";
import { startScriptedServer, type ScriptedServer } from "../../src/cli/models/scripted-server";
import { killAllStarted, ROOT, runCli } from "./helpers/cli";
import { assertValidResults } from "./helpers/validate-results";

let model: ScriptedServer;
beforeAll(async () => {
  const loaded = loadScript(readFileSync(join(ROOT, "test/fixtures/models/llm-agent.script.yaml"), "utf8"), "llm-agent.script.yaml");
  if (!loaded.ok) throw new Error(loaded.problems.join("\n"));
  model = await startScriptedServer(loaded.script);
});
afterAll(async () => {
  killAllStarted();
  await model?.close();
});

describe("llm-agent.mjs", () => {
  it("works the selftest's refund and question tickets through its tools and passes, judged by the scripted judge", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "worlds-llm-"));
    const res = await runCli(
      ["passk", "--tasks", join(ROOT, "examples/agents/selftest.tasks.yaml"), "--task", "SELF-1", "--task", "SELF-3", "--server", "auto", "--concurrency", "1", "--json", "--judge", "--policy", join(ROOT, "examples/policy.md"), "--no-cache", "--", "node", join(ROOT, "examples/agents/llm-agent.mjs")],
      { cwd, env: { OPENAI_BASE_URL: model.env.OPENAI_BASE_URL, OPENAI_API_KEY: undefined, OPENAI_MODEL: "gpt-4.1-mini" }, timeoutMs: 240_000 },
    );
    expect(res.code, res.stderr).toBe(0);
    const doc = JSON.parse(res.stdout) as { status: string; runs: { worlds: { task: string; verdict: string; reply: { excerpt: string } | null; judge: { verdict: string } | null }[] }[] };
    assertValidResults(doc);
    expect(doc.status).toBe("passed");
    const worlds = doc.runs[0].worlds;
    expect(worlds.map((w) => [w.task, w.verdict, w.judge?.verdict])).toEqual([["SELF-1", "passed", "passed"], ["SELF-3", "passed", "passed"]]);
    expect(worlds[0].reply?.excerpt).toContain("refunded the duplicate");
    const rules = model.received().map((r) => r.rule);
    // The first agent request of the run is refused with a 429 and retried. Both worlds are made ahead, so which
    // episode's agent runs first depends on which world is ready first: each episode's own requests are in order.
    const agentRules = rules.filter((r) => r !== "judge");
    expect(agentRules[0]).toBe("agent-429");
    expect(agentRules.filter((r) => r !== "question" && r !== "agent-429")).toEqual(["find-customer", "list-charges", "refund-duplicate", "refunded"]);
    expect(agentRules.filter((r) => r === "question")).toHaveLength(1);
    expect(rules.filter((r) => r === "judge")).toHaveLength(2);
    // The agent sent its tools the way Chat Completions takes them.
    const first = model.received().find((r) => r.rule === "find-customer")!.body as { tools: { type: string; function: { name: string } }[] };
    expect(first.tools.map((t) => t.function.name)).toContain("refund_charge");
  }, 300_000);
});
