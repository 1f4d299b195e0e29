// `worlds evals run` end to end: the built CLI, a local server (--server auto), a real process agent reaching the
// replay worlds over /tools/v1 and the person over /person/v1, the person and the judge on the scripted model.
// One task passes (end-state checks), one fails (a rubric criterion unmet), an environment and a grader of the
// user's own run a third; the results validate against the schema and are the same bytes again (world ids and
// durations aside). A judge rate limited then malformed leaves its run ungraded (infra_error), never a verdict.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadScript } from "../../src/core/models/scripted/index";
import { startScriptedServer, type ScriptedServer } from "../../src/cli/models/scripted-server";
import { killAllStarted, ROOT, runCli } from "./helpers/cli";
import { assertValidResults } from "./helpers/validate-results";

const BENCH = join(ROOT, "examples", "evals", "benchmark.json");
const agent = ["node", join(ROOT, "test", "fixtures", "evals", "literal-agent.mjs")];
const KEY = "sk-e2e-evals-key-0123456789abcdef";
let dir: string;

async function scripted(path: string): Promise<ScriptedServer> {
  const loaded = loadScript(readFileSync(join(ROOT, path), "utf8"), path);
  if (!loaded.ok) throw new Error(loaded.problems.join("\n"));
  return startScriptedServer(loaded.script);
}

function evalsRun(model: ScriptedServer, args: string[]) {
  return runCli(["evals", "run", BENCH, "--server", "auto", "--person", "openai:person-model", "--judge", "openai:judge-model", ...args], {
    cwd: dir,
    env: { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: model.env.OPENAI_BASE_URL },
    timeoutMs: 240_000,
  });
}

interface Doc {
  status: string;
  exit_code: number;
  runs: Array<{ worlds: Array<{ task: string; world: string | null; verdict: string | null; evidence: { notes: string[] }; infra_error: { stage: string; message: string } | null; agent: { duration_ms: number | null } | null }> }>;
}

/** The results with what differs between two runs by design taken out: world and record ids, durations. */
const stable = (text: string) => text.replace(/"(w|rec)_[A-Za-z0-9]+"/g, '"$1_"').replace(/"duration_ms": \d+/g, '"duration_ms": 0');

beforeAll(() => void (dir = mkdtempSync(join(tmpdir(), "worlds-evals-run-"))));
afterAll(() => {
  killAllStarted();
  rmSync(dir, { recursive: true, force: true });
});

describe("worlds evals run", () => {
  let model: ScriptedServer;
  beforeAll(async () => void (model = await scripted("test/fixtures/person/episode.script.yaml")));
  afterAll(() => model?.close());

  it("passes one task and fails another by its rubric, in the shared results (schema-valid, the same bytes twice), with a file per trial", async () => {
    const res = await evalsRun(model, ["--trials", "2", "--json-file", "out/r.json", "--junit", "out/r.xml", "--report", "out/r.html", "--", ...agent]);
    expect(res.code, res.stderr).toBe(1);
    expect(res.stderr).toMatch(/SKIPPED +\S+benchmark\.json:\d+: task game-boots: environment kind 'game-workspace' is your own code, and none was given \(--environment CMD\)/);
    expect(res.stderr).toMatch(/\[\d\/4\] \S+benchmark\.json:\d+: task duplicate-charge-refund: trial 1: criteria_unmet, reward 0\.8 by rubric/);
    expect(res.stdout).toContain("run 1: duplicate-charge-refund: criteria_unmet — not met fee-explained: The agent never said what the February fee is.");
    const text = readFileSync(join(dir, "out", "r.json"), "utf8");
    const doc = JSON.parse(text) as Doc;
    assertValidResults(doc);
    expect(doc.status).toBe("policy_failed");
    expect(doc.runs.map((r) => r.worlds.map((w) => [w.task, w.verdict]))).toEqual([
      [["duplicate-charge-refund", "criteria_unmet"], ["cancel-at-period-end", "passed"]],
      [["duplicate-charge-refund", "criteria_unmet"], ["cancel-at-period-end", "passed"]],
    ]);
    expect(doc.runs[0].worlds[1].evidence.notes).toContain("calls: 2 (exact 2, near 0, unrecorded 0, writes 1, refused 0)");
    const junit = readFileSync(join(dir, "out", "r.xml"), "utf8");
    expect(junit).toMatch(/<failure[^>]*type="criteria_unmet"/);
    expect(readFileSync(join(dir, "out", "r.html"), "utf8")).toContain("criteria unmet");
    const trial = JSON.parse(readFileSync(join(dir, "out", "r.trial-2.json"), "utf8")) as { trial: number; episodes: Array<{ task: string; reward: number; criteria: Array<{ id: string; met: boolean }>; transcript: Array<{ role: string; content: string }>; tool_calls: Array<{ tool: string }> }> };
    expect(trial.trial).toBe(2);
    expect(trial.episodes.map((e) => [e.task, e.reward])).toEqual([["duplicate-charge-refund", 0.8], ["cancel-at-period-end", 1]]);
    expect(trial.episodes[0].criteria.find((c) => c.id === "fee-explained")?.met).toBe(false);
    expect(trial.episodes[0].transcript.slice(1, 3)).toEqual([{ role: "assistant", content: "What is the email on the account?" }, { role: "user", content: "It's dana@example.com." }]);
    expect(trial.episodes[0].tool_calls.map((c) => c.tool)).toEqual(["orders__get", "refunds__create"]);
    for (const t of [res.stdout, res.stderr, text, junit]) expect(t).not.toContain(KEY);

    const again = await evalsRun(model, ["--trials", "2", "--json-file", "out/again.json", "--", ...agent]);
    expect(again.code, again.stderr).toBe(1);
    expect(stable(readFileSync(join(dir, "out", "again.json"), "utf8"))).toBe(stable(text));
    expect(res.leftovers).toEqual([]);
  }, 480_000);

  it("scores a crashing agent's trial 0 with its exit code and last stderr line, and never asks the judge", async () => {
    const before = model.received().length;
    const crash = ["node", "-e", "process.stderr.write('reading the task\\nError: boom at step 2\\n'); process.exit(7)"];
    const res = await evalsRun(model, ["--trials", "1", "--task", "duplicate-charge-refund", "--json-file", "crash/r.json", "--", ...crash]);
    expect(res.code, res.stderr).toBe(1);
    expect(res.stderr).toMatch(/task duplicate-charge-refund: trial 1: criteria_unmet, reward 0 by rubric/);
    const doc = JSON.parse(readFileSync(join(dir, "crash", "r.json"), "utf8")) as Doc;
    assertValidResults(doc);
    const w = doc.runs[0].worlds[0];
    expect(w).toMatchObject({ task: "duplicate-charge-refund", verdict: "criteria_unmet", infra_error: null, reward: 0 });
    expect(w.evidence.notes).toContain("not graded: the agent exited 7; its last stderr line: Error: boom at step 2");
    const trial = JSON.parse(readFileSync(join(dir, "crash", "r.trial-1.json"), "utf8")) as { episodes: Array<{ reward: number; passed: boolean; error: string | null }> };
    expect(trial.episodes[0]).toMatchObject({ reward: 0, passed: false, error: "the agent exited 7; its last stderr line: Error: boom at step 2" });
    // Neither the judge nor the person was asked anything.
    expect(model.received().slice(before)).toEqual([]);
  }, 240_000);

  it("--agent FILE.mjs:handle calls the function with the conversation while worlds runs the person loop; its last message is recorded once", async () => {
    const handle = join(ROOT, "test", "fixtures", "evals", "handle-agent.mjs");
    const res = await evalsRun(model, ["--trials", "1", "--task", "duplicate-charge-refund", "--json-file", "code/r.json", "--agent", `${handle}:handle`]);
    expect(res.code, res.stderr).toBe(1);
    const doc = JSON.parse(readFileSync(join(dir, "code", "r.json"), "utf8")) as Doc;
    assertValidResults(doc);
    expect(doc.runs[0].worlds[0]).toMatchObject({ task: "duplicate-charge-refund", verdict: "criteria_unmet", reward: 0.8 });
    // The results JSON carries the reward per trial and its mean per task.
    expect((doc as unknown as { crash_test: { tasks: Array<{ id: string; mean_reward: number }> } }).crash_test.tasks[0]).toMatchObject({ id: "duplicate-charge-refund", mean_reward: 0.8 });
    const trial = JSON.parse(readFileSync(join(dir, "code", "r.trial-1.json"), "utf8")) as { episodes: Array<{ reward: number; transcript: Array<{ role: string; content: string }>; tool_calls: Array<{ tool: string }> }> };
    expect(trial.episodes[0].reward).toBe(0.8);
    expect(trial.episodes[0].tool_calls.map((c) => c.tool)).toEqual(["orders__get", "refunds__create"]);
    expect(trial.episodes[0].transcript.slice(1)).toEqual([
      { role: "assistant", content: "What is the email on the account?" },
      { role: "user", content: "It's dana@example.com." },
      { role: "assistant", content: "I have refunded the duplicate charge." },
      { role: "user", content: "Thank you!" },
    ]);
    // A function that raises is a failed agent; a name the module does not export is refused before any world.
    const crash = await evalsRun(model, ["--trials", "1", "--task", "duplicate-charge-refund", "--json-file", "code/c.json", "--agent", `${handle}:crash`]);
    expect(crash.code, crash.stderr).toBe(1);
    const crashed = JSON.parse(readFileSync(join(dir, "code", "c.trial-1.json"), "utf8")) as { episodes: Array<{ reward: number; error: string }> };
    expect(crashed.episodes[0]).toMatchObject({ reward: 0, error: "the agent failed (the agent raised: the agent's tool loop hit an unknown tool)" });
    const missing = await evalsRun(model, ["--agent", `${handle}:nope`]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("has no function 'nope' (its functions: crash, handle)");
  }, 240_000);

  it("runs a task of your own kind with --environment and --grader, and names the task file's line for an unknown task", async () => {
    const env = `node ${join(ROOT, "test", "fixtures", "evals", "game-env.mjs")}`;
    const grader = `node ${join(ROOT, "test", "fixtures", "evals", "play-check.mjs")}`;
    const res = await evalsRun(model, ["--trials", "1", "--task", "game-boots", "--environment", env, "--grader", grader, "--json-file", "own/r.json", "--", ...agent]);
    expect(res.code, res.stderr + res.stdout).toBe(0);
    const doc = JSON.parse(readFileSync(join(dir, "own", "r.json"), "utf8")) as Doc;
    assertValidResults(doc);
    expect(doc.runs[0].worlds.map((w) => [w.task, w.verdict])).toEqual([["game-boots", "passed"]]);
    const trial = JSON.parse(readFileSync(join(dir, "own", "r.trial-1.json"), "utf8")) as { episodes: Array<{ transcript: unknown[]; tool_calls: Array<{ tool: string; result: unknown }> }> };
    expect(trial.episodes[0].tool_calls).toEqual([{ tool: "build", arguments: {}, result: { built: 1, files: ["index.html", "main.js"] } }]);
    expect(trial.episodes[0].transcript).toEqual([
      { role: "user", content: "Please build the game and tell me when it runs." },
      { role: "assistant", content: "Done: Please build the game and tell me when it runs." },
      { role: "user", content: "It runs, thanks!" },
      { role: "assistant", content: "The game booted." },
    ]);

    const unknown = await evalsRun(model, ["--task", "no-such-task", "--", ...agent]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("--task no-such-task: no such task in");
    expect(unknown.stderr).toContain("(tasks: duplicate-charge-refund, cancel-at-period-end, game-boots)");
    const none = await evalsRun(model, ["--task", "game-boots", "--", ...agent]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/no task of \S+ can run with what was given/);
  }, 480_000);
});

describe("worlds evals run with a failing judge", () => {
  let model: ScriptedServer;
  beforeAll(async () => void (model = await scripted("test/fixtures/evals/judge-fails.script.yaml")));
  afterAll(() => model?.close());

  it("retries a rate limit, then records a malformed answer as ungraded (infra_error at grade), inconclusive", async () => {
    const res = await evalsRun(model, ["--trials", "1", "--split", "held_out", "--json", "--json-file", "fail/r.json", "--", ...agent]);
    expect(res.code, res.stderr).toBe(4);
    const doc = JSON.parse(res.stdout) as Doc;
    assertValidResults(doc);
    expect(doc.status).toBe("inconclusive");
    const w = doc.runs[0].worlds[0];
    expect(w).toMatchObject({ task: "duplicate-charge-refund", verdict: "infra_error", infra_error: { stage: "grade" } });
    expect(w.infra_error!.message).toMatch(/^the judge could not grade \(malformed\)/);
    expect(model.received().filter((r) => r.rule === "storm")).toHaveLength(2);
  }, 240_000);
});

describe("worlds evals run with the built-in model agent", () => {
  let model: ScriptedServer;
  beforeAll(async () => void (model = await scripted("test/fixtures/evals/model-agent.script.yaml")));
  afterAll(() => model?.close());

  it("--model runs the agent on the scripted model and passes an end-state task", async () => {
    const res = await evalsRun(model, ["--trials", "1", "--task", "cancel-at-period-end", "--model", "openai:agent-model", "--json", "--json-file", "model/r.json"]);
    expect(res.code, res.stdout.match(/"reason": "[^"]*"/)?.[0]).toBe(0);
    const doc = JSON.parse(res.stdout) as Doc;
    assertValidResults(doc);
    expect(doc.runs[0].worlds.map((w) => [w.task, w.verdict])).toEqual([["cancel-at-period-end", "passed"]]);
    expect(model.received().map((r) => r.rule).filter((r) => r !== "person")).toEqual(["find", "cancel", "done"]);
    // The baseline runs on the task's own instructions (agent.instructions), not a generic prompt.
    const first = model.received().find((r) => r.rule === "find")!.body as { messages: Array<{ role: string; content: string }>; tools: Array<{ function: { name: string } }> };
    expect(first.messages[0]).toEqual({ role: "system", content: "You are the billing assistant of a software company. Cancel plans only as the customer asks, and say when access ends." });
    expect(first.tools.map((t) => t.function.name)).toEqual(["subscriptions__find", "subscriptions__cancel", "refunds__create"]);
  }, 240_000);
});
