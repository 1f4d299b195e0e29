// The built-in model agent (`--model provider:model`) end to end through the real CLI and the real local server,
// against the scripted model (test/fixtures/models/model-agent.script.yaml), never a provider: a quickstart refund
// ticket solved with the account world's own tools under passk (a 429 on the way, usage and dollars in the notes);
// tools tasks solved under `tools run`; a model that never stops calling tools is turn_limit; arguments that are
// not JSON are the tool's invalid_arguments (a malformed_call) and the run finishes; a hung model ends on the client's timeout with
// the reason on the episode. The model key (OPENAI_API_KEY) appears in no output at all.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadScript } from "../../src/core/models/scripted/index";
import { startScriptedServer, type ScriptedServer } from "../../src/cli/models/scripted-server";
import { killAllStarted, ROOT, runCli } from "./helpers/cli";
import { assertValidResults } from "./helpers/validate-results";

const KEY = "sk-test-secret";
let model: ScriptedServer;
let dir: string;
const outputs: string[] = [];

type World = { task: string; verdict: string; reply: { excerpt: string } | null; agent: { exit_code: number | null; error: string | null }; evidence: { notes: string[] } };
type Doc = { status: string; agent: { command: string[] }; runs: Array<{ worlds: World[] }>; crash_test: { worst_task: { replay: string } | null } };

const env = () => ({ OPENAI_BASE_URL: model.env.OPENAI_BASE_URL, OPENAI_API_KEY: KEY });

async function cli(args: string[], cwd: string) {
  const res = await runCli(args, { cwd, env: env(), timeoutMs: 240_000 });
  outputs.push(res.stdout, res.stderr);
  return res;
}

/** passk's results are checked against the published schema (whose replay pattern is passk's). */
function readResults(path: string, validate = false): Doc {
  const text = readFileSync(path, "utf8");
  outputs.push(text);
  const doc = JSON.parse(text) as Doc;
  if (validate) assertValidResults(doc);
  return doc;
}

beforeAll(async () => {
  const loaded = loadScript(readFileSync(join(ROOT, "test/fixtures/models/model-agent.script.yaml"), "utf8"), "model-agent.script.yaml");
  if (!loaded.ok) throw new Error(loaded.problems.join("\n"));
  model = await startScriptedServer(loaded.script);
  dir = mkdtempSync(join(tmpdir(), "worlds-model-agent-"));
  cpSync(join(ROOT, "test", "fixtures", "tools", "orders.openai.json"), join(dir, "tools.json"));
  const init = await runCli(["tools", "init", "--own-file", "tools.json", "--own-name", "acme", "--own-read", "get_order", "--own-read", "search_orders", "--own-read", "list_channels"], { cwd: dir });
  expect(init.code, init.stderr).toBe(0);
  const config = join(dir, "worlds", "tools.yaml");
  writeFileSync(config, readFileSync(config, "utf8").replace("tasks_per_arm: 10", "tasks_per_arm: 2"));
  expect((await runCli(["tools", "generate"], { cwd: dir })).code).toBe(0);
});

afterAll(async () => {
  killAllStarted();
  await model?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The call-form tasks (one refund_order, one notify_customer): the ones the `orders` script solves. */
function callTasks(): string[] {
  const rows = readFileSync(join(dir, "worlds", "tasks", "call.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { id: string });
  return rows.map((r) => r.id);
}

const toolsRun = (m: string, extra: string[] = []) => [
  "tools", "run", "--server", "auto", "--runs", "1", ...callTasks().flatMap((t) => ["--task", t]), "--model", `openai:${m}`, "--yes", ...extra, "--json-file", join(dir, `${m}.json`),
];

describe("the built-in model agent", () => {
  it("passk --model: a scripted model refunds the duplicate with the account's own tools and replies; passed, with its calls and spend in the notes", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "worlds-model-passk-"));
    writeFileSync(join(cwd, "prices.json"), JSON.stringify({ version: 1, models: { "openai:support": { input: 1, output: 2 } } }));
    const res = await cli(["passk", "--server", "auto", "--tasks", join(ROOT, "examples/quickstart.tasks.yaml"), "--task", "QS-1", "--runs", "1", "--model", "openai:support", "--model-prices", "prices.json", "--model-budget", "1", "--json-file", "r.json"], cwd);
    expect(res.code, res.stderr + res.stdout).toBe(0);
    expect(res.stdout).toMatch(/status: passed \(exit 0\)/);
    expect(res.stderr).toMatch(/model agent openai:support: 1 episode, 5 model requests, \d+ tokens in \/ \d+ out, \$0\.\d{4} \(budget \$1\.00\)/);
    const doc = readResults(join(cwd, "r.json"), true);
    expect(doc.agent.command).toEqual(["--model", "openai:support"]);
    const w = doc.runs[0]!.worlds[0]!;
    expect(w.verdict).toBe("passed");
    expect(w.reply?.excerpt).toContain("refunded the duplicate September charge of $99.00");
    expect(w.agent).toMatchObject({ exit_code: 0, error: null });
    expect(w.evidence.notes).toContain("model agent openai:support: answered after 4 turns");
    expect(w.evidence.notes).toContain("tool calls (3): find_customers 200, list_charges 200, refund_charge 200");
    expect(w.evidence.notes.find((n) => n.startsWith("model usage: "))).toMatch(/^model usage: 5 model requests, \d+ tokens in \/ \d+ out, \$0\.\d{4}$/);
    // The tools offered were the twin's own operations, in Chat Completions' shape.
    const first = model.received().find((r) => r.rule === "support-find")!.body as { tools: Array<{ function: { name: string } }> };
    expect(first.tools.map((t) => t.function.name)).toEqual(expect.arrayContaining(["find_customers", "refund_charge", "reply_to_ticket"]));
    rmSync(cwd, { recursive: true, force: true });
  }, 300_000);

  it("tools run --model: the scripted model solves the call tasks (passed), replayable with --model", async () => {
    const res = await cli(toolsRun("orders"), dir);
    expect(res.code, res.stderr + res.stdout).toBe(0);
    const doc = readResults(join(dir, "orders.json"));
    expect(doc.runs[0]!.worlds.map((w) => w.verdict)).toEqual(["passed", "passed"]);
    expect(doc.runs[0]!.worlds[0]!.evidence.notes).toContain("model agent openai:orders: answered after 2 turns");
  }, 300_000);

  it("a model that keeps calling tools hits the turn limit: verdict turn_limit, said on the agent", async () => {
    const res = await cli(toolsRun("looper", ["--turn-limit", "3"]), dir);
    expect(res.code, res.stderr + res.stdout).toBe(1);
    const doc = readResults(join(dir, "looper.json"));
    for (const w of doc.runs[0]!.worlds) {
      expect(w.verdict).toBe("turn_limit");
      expect(w.agent.error).toBe("the model agent reached its turn limit (3 turns) without a final answer");
      expect(w.evidence.notes).toContain("tool calls (3): list_channels 200, list_channels 200, list_channels 200");
    }
    expect(doc.crash_test.worst_task?.replay).toMatch(/^worlds tools run --config \S+ --task t_\w+ --runs 1 --model openai:looper --turn-limit 3$/);
  }, 300_000);

  it("arguments that are not JSON are the tool's invalid_arguments, the model is told, and the run finishes", async () => {
    const res = await cli(toolsRun("broken"), dir);
    expect(res.code, res.stderr + res.stdout).toBe(1);
    const doc = readResults(join(dir, "broken.json"));
    for (const w of doc.runs[0]!.worlds) {
      // The world answered and traced the unreadable call itself, so the grader sees the schema broken.
      expect(w.verdict).toBe("malformed_call");
      expect(w.evidence.notes.some((n) => /^broke the tool's schema: refund_order\(/.test(n))).toBe(true);
      expect(w.evidence.notes).toContain("tool calls (1): refund_order 422 invalid_arguments");
      expect(w.evidence.notes).toContain("tool call refund_order: the model's arguments were not JSON; the world answered invalid_arguments");
      expect(w.reply?.excerpt).toContain("My call was refused");
    }
  }, 300_000);

  it("a hung model ends the episode on the client's timeout, recorded on the episode; the run finishes with a replay line naming --model", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "worlds-model-hang-"));
    const res = await cli(["passk", "--server", "auto", "--tasks", join(ROOT, "examples/quickstart.tasks.yaml"), "--task", "QS-3", "--runs", "1", "--model", "openai:hang", "--model-timeout", "0.5", "--json-file", "r.json"], cwd);
    // It never reached the twin, so the run says nothing about the twin: inconclusive, pointing at the agent's error.
    expect(res.code, res.stderr + res.stdout).toBe(4);
    expect(res.stdout).toContain("the model agent's own errors are each world's agent.error");
    const doc = readResults(join(cwd, "r.json"), true);
    const w = doc.runs[0]!.worlds[0]!;
    expect(w.agent.exit_code).toBe(1);
    expect(w.agent.error).toMatch(/^the model call failed \(timeout\): openai did not answer within 500 ms \(after 4 attempts\)$/);
    expect(w.evidence.notes.some((n) => n.includes("stopped at turn 1"))).toBe(true);
    expect(res.stdout).toContain("agent error");
    expect(doc.crash_test.worst_task?.replay).toMatch(/ --task QS-3 --runs 1 --model openai:hang --model-timeout 0.5$/);
    rmSync(cwd, { recursive: true, force: true });
  }, 300_000);

  it("refuses before any server starts (exit 2): --model with a command, its settings without it, a model with no key", async () => {
    const tasks = join(ROOT, "examples/quickstart.tasks.yaml");
    const both = await cli(["passk", "--tasks", tasks, "--model", "openai:support", "--", "node", "agent.mjs"], dir);
    expect([both.code, both.stderr]).toEqual([2, expect.stringContaining("--model and an agent command after '--' name two agents")]);
    const stray = await cli(["tools", "run", "--turn-limit", "3", "--", "node", "agent.mjs"], dir);
    expect([stray.code, stray.stderr]).toEqual([2, expect.stringContaining("--turn-limit applies to the built-in model agent")]);
    const keyless = await runCli(["passk", "--tasks", tasks, "--model", "openai:gpt-4.1-mini"], { cwd: dir, env: { OPENAI_BASE_URL: undefined, OPENAI_API_KEY: undefined } });
    expect([keyless.code, keyless.stderr]).toEqual([2, expect.stringContaining("the model agent: no OPENAI_API_KEY in the environment")]);
  }, 120_000);

  it("the model key is in no output: stdout, stderr, results files", () => {
    expect(outputs.length).toBeGreaterThan(0);
    for (const f of readdirSync(dir).filter((n) => n.endsWith(".json"))) outputs.push(readFileSync(join(dir, f), "utf8"));
    for (const o of outputs) expect(o).not.toContain(KEY);
    // It did reach the model, as the key a real provider would need.
    expect(model.received().every((r) => r.credentials)).toBe(true);
  });
});
