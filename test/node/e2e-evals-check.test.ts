// `worlds evals check` end to end: the example benchmark's reference runs graded by a scripted rubric judge and
// by the end-state checks, OK lines when the grader agrees with expect, DISAGREE and exit 1 naming the task when
// it does not, and a grader of the user's own kind skipped with the reason or run as a process with --grader.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadScript } from "../../src/core/models/scripted/index";
import { startScriptedServer, type ScriptedServer } from "../../src/cli/models/scripted-server";
import { killAllStarted, ROOT, runCli } from "./helpers/cli";

const EXAMPLE = join(ROOT, "examples", "evals", "benchmark.json");
let model: ScriptedServer;
beforeAll(async () => {
  const loaded = loadScript(readFileSync(join(ROOT, "test/fixtures/evals/rubric.script.yaml"), "utf8"), "rubric.script.yaml");
  if (!loaded.ok) throw new Error(loaded.problems.join("\n"));
  model = await startScriptedServer(loaded.script);
});
afterAll(async () => {
  killAllStarted();
  await model?.close();
});

const env = () => ({ OPENAI_BASE_URL: model.env.OPENAI_BASE_URL, OPENAI_API_KEY: undefined });
const judge = ["--judge", "openai:gpt-4.1-mini", "--no-cache"];

/** The example with the game task given a reference run, and optionally the refund's production run expected to pass. */
function variant(dir: string, opts: { refundExpect?: "pass" } = {}): string {
  const b = JSON.parse(readFileSync(EXAMPLE, "utf8"));
  if (opts.refundExpect) b.tasks[0].reference[0].expect = opts.refundExpect;
  b.tasks[2].reference = [{ label: "nightly", expect: "pass", transcript: [{ role: "assistant", content: "The game booted and drew the board." }] }];
  const path = join(dir, "b.json");
  writeFileSync(path, JSON.stringify(b));
  return path;
}

describe("worlds evals check", () => {
  it("grades every reference run with no agent: OK when the grade agrees with expect, exit 0", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "evals-check-"));
    const r = await runCli(["evals", "check", EXAMPLE, ...judge], { cwd, env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split("\n")).toEqual([
      // 1 of 3 criteria and 1 of 2 checks met.
      "OK        duplicate-charge-refund  production  expect fail, got fail (reward 0.4)",
      "OK        cancel-at-period-end  production  expect pass, got pass (reward 1)",
      "2 reference runs checked, 0 disagree with expect.",
      "",
    ]);
  });

  it("says DISAGREE and exits 1 naming the task when the grader contradicts expect", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "evals-check-"));
    const r = await runCli(["evals", "check", variant(cwd, { refundExpect: "pass" }), ...judge], { cwd, env: env() });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("DISAGREE  duplicate-charge-refund  production  expect pass, got fail (reward 0.4)");
    expect(r.stdout).toContain("SKIPPED   game-boots  nightly  expect pass, skipped: grader kind 'play-check' is your own code, and none was given (--grader CMD)");
    expect(r.stdout).toContain("2 reference runs checked, 1 disagree with expect. 1 skipped.");
    expect(r.stderr).toContain("the grader disagrees with expect on task duplicate-charge-refund");
  });

  it("runs a grader of your own kind as a process named on the command line", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "evals-check-"));
    const grader = `node ${join(ROOT, "test/fixtures/evals/play-check.mjs")}`;
    const r = await runCli(["evals", "check", variant(cwd), ...judge, "--grader", grader], { cwd, env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("OK        game-boots  nightly  expect pass, got pass (reward 1)");
    const broken = await runCli(["evals", "check", variant(cwd), ...judge, "--grader", "node -e 'process.stdout.write(\"{}\")'"], { cwd, env: env() });
    expect(broken.code).toBe(4);
    expect(broken.stdout).toMatch(/ERROR     game-boots  nightly  expect pass, not graded: .*answered reward: /);
  });

  it("needs a judge it can reach only when a rubric task has reference runs", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "evals-check-"));
    const r = await runCli(["evals", "check", EXAMPLE, "--judge", "nope"], { cwd, env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--judge: /);
  });
});

describe("a task file written from the document alone", () => {
  let judgeModel: ScriptedServer;
  beforeAll(async () => {
    const loaded = loadScript(readFileSync(join(ROOT, "examples/evals/from-the-document.judge.yaml"), "utf8"), "from-the-document.judge.yaml");
    if (!loaded.ok) throw new Error(loaded.problems.join("\n"));
    judgeModel = await startScriptedServer(loaded.script);
  });
  afterAll(async () => void (await judgeModel?.close()));

  it("passes evals check: its Chat Completions and Anthropic transcripts' calls are the writes, no effect stated", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "evals-check-"));
    const file = join(ROOT, "examples", "evals", "from-the-document.json");
    const r = await runCli(["evals", "check", file, "--no-cache"], { cwd, env: { OPENAI_BASE_URL: judgeModel.env.OPENAI_BASE_URL, OPENAI_API_KEY: undefined } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split("\n")).toEqual([
      "OK        shipping-address-change  production  expect fail, got fail (reward 0.5)",
      "OK        duplicate-charge-refunded  production  expect pass, got pass (reward 1)",
      "2 reference runs checked, 0 disagree with expect.",
      "",
    ]);
    // --task narrows to one task's references; a slug the file does not hold is a flag problem naming the slugs.
    const one = await runCli(["evals", "check", file, "--no-cache", "--task", "duplicate-charge-refunded"], { cwd, env: { OPENAI_BASE_URL: judgeModel.env.OPENAI_BASE_URL, OPENAI_API_KEY: undefined } });
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout).toBe("OK        duplicate-charge-refunded  production  expect pass, got pass (reward 1)\n1 reference run checked, 0 disagree with expect.\n");
    const unknown = await runCli(["evals", "check", file, "--task", "nope"], { cwd });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("--task nope: no such task in");
    expect(unknown.stderr).toContain("(tasks: shipping-address-change, duplicate-charge-refunded)");
  });
});
