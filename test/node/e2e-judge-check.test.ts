// `worlds judge check` end to end: the four reference agents on the judge fixture's keyed tasks, judged by a
// scripted model that reads the evidence; the agreement report as text and JSON.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadScript } from "../../src/core/models/scripted/index";
import { startScriptedServer, type ScriptedServer } from "../../src/cli/models/scripted-server";
import { killAllStarted, ROOT, runCli } from "./helpers/cli";

let model: ScriptedServer;
beforeAll(async () => {
  const loaded = loadScript(readFileSync(join(ROOT, "test/fixtures/judge/check.script.yaml"), "utf8"), "check.script.yaml");
  if (!loaded.ok) throw new Error(loaded.problems.join("\n"));
  model = await startScriptedServer(loaded.script);
});
afterAll(async () => {
  killAllStarted();
  await model?.close();
});

describe("worlds judge check", () => {
  it("judges the reference agents' episodes and prints the judge's agreement with the key", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "worlds-check-"));
    const res = await runCli(["judge", "check", "--tasks", join(ROOT, "test/fixtures/judge/judge.tasks.yaml"), "--judge", "openai:gpt-4.1-mini", "--server", "auto", "--concurrency", "2", "--json", "--no-cache"], {
      cwd,
      env: { OPENAI_BASE_URL: model.env.OPENAI_BASE_URL, OPENAI_API_KEY: undefined },
      timeoutMs: 280_000,
    });
    expect(res.code, res.stderr).toBe(0);
    const r = JSON.parse(res.stdout) as { trials: number; judged: number; matrix: Record<string, Record<string, number>>; by_agent: { name: string; trials: number }[]; by_trap_class: { name: string }[]; by_verdict: { name: string }[] };
    expect(r.trials).toBe(12);
    expect(r.judged).toBe(12);
    expect(r.by_agent.map((a) => [a.name, a.trials])).toEqual([["careful", 3], ["reckless", 3], ["liar", 3], ["silent", 3]]);
    expect(r.by_trap_class.map((c) => c.name).sort()).toEqual(["cancellation", "duplicate-charge", "no-action"]);
    // The careful agent passes all three and the scripted judge agrees; every no-reply trial is failed by both.
    expect(r.matrix.key_passed.judge_passed).toBeGreaterThanOrEqual(3);
    expect(r.matrix.key_failed.judge_failed).toBeGreaterThanOrEqual(3);
    expect(model.received().filter((x) => x.rule === "no-reply").length).toBeGreaterThanOrEqual(3);
    expect(res.stderr).toContain("judge check: 3 keyed tasks × 4 reference agents");
  }, 300_000);
});
