// `passk --judge` end to end: the built CLI, a local server (--server auto), the careful agent, and the judge
// answered by the scripted model on loopback. One run shows every way a judgement ends (a 429 storm then an
// answer, a malformed answer, a hung model, a failing verdict on a policy-only task); another exhausts the
// budget. Each problem is recorded on its task, the run finishes, and the status and exit code are the key's.
// The key never appears in anything the run writes.
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadScript } from "../../src/core/models/scripted/index";
import { startScriptedServer, type ScriptedServer } from "../../src/cli/models/scripted-server";
import { killAllStarted, ROOT, runCli } from "./helpers/cli";
import { assertValidResults } from "./helpers/validate-results";

const KEY = "sk-e2e-judge-key-0123456789abcdef";
const TASKS = "test/fixtures/judge/judge.tasks.yaml";
const careful = ["node", join(ROOT, "examples", "agents", "careful.mjs")];
let model: ScriptedServer;

beforeAll(async () => {
  const loaded = loadScript(readFileSync(join(ROOT, "test/fixtures/judge/judge.script.yaml"), "utf8"), "judge.script.yaml");
  if (!loaded.ok) throw new Error(loaded.problems.join("\n"));
  model = await startScriptedServer(loaded.script);
});
afterAll(async () => {
  killAllStarted();
  await model?.close();
});

interface Doc {
  status: string;
  exit_code: number;
  judge: Record<string, unknown> & { agreement: Record<string, unknown> };
  runs: { worlds: { task: string; verdict: string | null; judge: { outcome: string; verdict: string | null; cached: boolean; error: { kind: string; raw: string | null } | null; cost: { attempts: number } } | null }[] }[];
}

function passk(cwd: string, extra: string[]) {
  return runCli(["passk", "--tasks", join(ROOT, TASKS), "--server", "auto", "--concurrency", "2", "--json", "--judge", "openai:gpt-4.1-mini", "--judge-timeout", "0.4", ...extra, "--", ...careful], {
    cwd,
    env: { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: model.env.OPENAI_BASE_URL },
    timeoutMs: 180_000,
  });
}

describe("passk --judge", () => {
  it("records every judgement on its task: retried 429s, malformed, hung, a policy-only fail; status and exit code stay the key's", async () => {
    model.model.reset();
    const cwd = mkdtempSync(join(tmpdir(), "worlds-judge-"));
    const res = await passk(cwd, ["--json-file", join(cwd, "r.json"), "--report", join(cwd, "r.html")]);
    expect(res.stderr).toContain("judge: openai:gpt-4.1-mini on policy.md");
    expect(res.code, res.stderr).toBe(0);
    const doc = JSON.parse(res.stdout) as Doc;
    assertValidResults(doc);
    expect(doc.status).toBe("passed");
    const byTask = Object.fromEntries(doc.runs[0].worlds.map((w) => [w.task, w]));
    expect(byTask["J-1"].judge).toMatchObject({ outcome: "judged", verdict: "passed", cost: { attempts: 3 } });
    expect(byTask["J-2"].judge).toMatchObject({ outcome: "error", error: { kind: "malformed", raw: '{"verdict": "pass", "findings": [' } });
    expect(byTask["J-3"].judge).toMatchObject({ outcome: "error", error: { kind: "timeout" } });
    expect(byTask["J-4"]).toMatchObject({ verdict: null, judge: { outcome: "judged", verdict: "failed" } });
    expect(doc.judge).toMatchObject({ model: "openai:gpt-4.1-mini", tasks: 4, judged: 2, errors: 2, errors_by_kind: { malformed: 1, timeout: 1 }, policy_only: { judged: 1, passed: 0, failed: 1 } });
    expect(doc.judge.agreement).toMatchObject({ compared: 1, agreed: 1 });
    const received = model.received().map((r) => r.rule);
    expect(received.filter((r) => r === "storm")).toHaveLength(2);
    expect(received.filter((r) => r === "hang")).toHaveLength(4);
    const html = readFileSync(join(cwd, "r.html"), "utf8");
    expect(html).toContain('<section id="judge">');
    for (const text of [res.stdout, res.stderr, html, readFileSync(join(cwd, "r.json"), "utf8")]) expect(text).not.toContain(KEY);

    // The same judgements again: answered from .worlds/cache in the working directory, at no cost.
    model.model.reset();
    const again = await passk(cwd, ["--task", "J-1", "--task", "J-4"]);
    const doc2 = JSON.parse(again.stdout) as Doc;
    expect(doc2.runs[0].worlds.map((w) => w.judge?.cached)).toEqual([true, true]);
    expect(doc2.judge).toMatchObject({ cached: 2, calls: 0, dollars: 0 });
    expect(model.received()).toHaveLength(0);
    expect(readdirSync(join(cwd, ".worlds", "cache", "models")).length).toBeGreaterThan(1);
    expect(readFileSync(join(cwd, ".worlds", "cache", "models", ".gitignore"), "utf8")).toContain("*");
    const fresh = await passk(cwd, ["--task", "J-4", "--no-cache"]);
    expect((JSON.parse(fresh.stdout) as Doc).runs[0].worlds[0].judge?.cached).toBe(false);
  }, 300_000);

  it("past the budget sends nothing and marks every task skipped for budget; the run still finishes", async () => {
    model.model.reset();
    const cwd = mkdtempSync(join(tmpdir(), "worlds-judge-"));
    const res = await passk(cwd, ["--judge-budget", "0.0005", "--no-cache"]);
    expect(res.code, res.stderr).toBe(0);
    const doc = JSON.parse(res.stdout) as Doc;
    assertValidResults(doc);
    expect(doc.runs[0].worlds.map((w) => w.judge?.outcome)).toEqual(["skipped_for_budget", "skipped_for_budget", "skipped_for_budget", "skipped_for_budget"]);
    expect(doc.judge).toMatchObject({ skipped_for_budget: 4, calls: 0, dollars: 0, budget_dollars: 0.0005 });
    expect(model.received()).toHaveLength(0);
  }, 300_000);

  it("refuses a judge it cannot run before any world exists (exit 2)", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "worlds-judge-"));
    const noKey = await runCli(["passk", "--tasks", join(ROOT, TASKS), "--server", "auto", "--judge", "--", ...careful], { cwd, env: { OPENAI_API_KEY: undefined, OPENAI_BASE_URL: undefined } });
    expect(noKey.code).toBe(2);
    expect(noKey.stdout).toContain("no OPENAI_API_KEY in the environment");
    expect(noKey.stdout).toContain("worlds model serve --script FILE");
    writeFileSync(join(cwd, "t.yaml"), readFileSync(join(ROOT, TASKS), "utf8").replace("policy: policy.md\n", "").replace("seed: acme-small", "seed: acme-small"));
    const noPolicy = await runCli(["passk", "--tasks", join(cwd, "t.yaml"), "--server", "auto", "--judge", "anthropic:claude-haiku-4-5", "--", ...careful], { cwd, env: { ANTHROPIC_BASE_URL: model.env.ANTHROPIC_BASE_URL } });
    expect(noPolicy.code).toBe(2);
    expect(noPolicy.stdout).toContain("the judge needs a policy");
    const stray = await runCli(["passk", "--tasks", join(ROOT, TASKS), "--server", "auto", "--judge-budget", "1", "--", ...careful], { cwd });
    expect(stray.code).toBe(2);
    expect(stray.stdout).toContain("--judge-budget applies to the policy judge, which is off");
  }, 300_000);
});
