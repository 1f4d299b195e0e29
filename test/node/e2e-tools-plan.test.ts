// The plan of a tools run against what a run then costs: `--dry-run` estimates the dollars of the call-form tasks
// from their shortest conversations; the same tasks run on the scripted model, whose usage figures the CLI sums,
// must cost within a factor of two of it. A budget below the run's cost stops it at the cap, and it says how many
// episodes it kept; the run folder records the same.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./helpers/cli";
import { plannerFolder } from "./helpers/tools-plan-setup";

let dir: string;
let env: () => Record<string, string>;
let close: () => Promise<void>;

beforeAll(async () => void ({ dir, env, close } = await plannerFolder("worlds-tools-plan-")));
afterAll(() => close());

const dollarsIn = (text: string, re: RegExp) => Number(re.exec(text)?.[1]);

describe("worlds tools run: the plan and the cap", () => {
  it("--dry-run's estimate is within 2x of what the scripted model reports for the real run", { timeout: 480_000 }, async () => {
    const flags = ["--runs", "2", "--model", "openai:planner", "--model-prices", "prices.json"];
    const plan = await runCli(["tools", "run", "--dry-run", ...flags], { cwd: dir, env: env() });
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toMatch(/^plan {2}8 episodes against openai:planner: about \$0\.\d{4}, and the run stops at \$1\.00 \(the default; --model-budget USD sets another\)/);
    expect(plan.stdout).toMatch(/calls {7}8 if every task is solved the shortest way · about 8 expected · at most 256 \(32 per episode\)/);
    expect(plan.stdout).toMatch(/folder {6}worlds\/runs\/forms-openai-planner-bf34e029 \(a new run\)/);
    const estimate = dollarsIn(plan.stdout, /cost {8}about \$([0-9.]+) expected/);
    const run = await runCli(["tools", "run", "--server", "auto", "--yes", ...flags, "--json-file", "r.json"], { cwd: dir, env: env(), timeoutMs: 400_000 });
    expect(run.code, run.stderr + run.stdout).toBe(0);
    const spent = dollarsIn(run.stderr, /model agent openai:planner: 8 episodes, .*?\$([0-9.]+)/);
    expect(spent, run.stderr).toBeGreaterThan(0);
    expect(estimate / spent, `estimate $${estimate}, spent $${spent}`).toBeGreaterThan(0.5);
    expect(estimate / spent, `estimate $${estimate}, spent $${spent}`).toBeLessThan(2);
    const record = JSON.parse(readFileSync(join(dir, "worlds", "runs", "forms-openai-planner-bf34e029", "run.json"), "utf8")) as { episodes: { kept: number; total: number }; dollars: number };
    expect(record.episodes).toEqual({ kept: 8, total: 8 });
    expect(record.dollars).toBeCloseTo(spent, 4);
    const again = await runCli(["tools", "run", "--dry-run", ...flags], { cwd: dir, env: env() });
    // Each run its own folder: the next one is numbered, and the first stays as the card read it.
    expect(again.stdout).toMatch(/folder {6}worlds\/runs\/forms-openai-planner-bf34e029-2 \(a new run\)/);
  });

  it("a run stops at its cap and says how many episodes it kept", { timeout: 480_000 }, async () => {
    const res = await runCli(["tools", "run", "--server", "auto", "--yes", "--runs", "2", "--concurrency", "1", "--model", "openai:planner", "--model-prices", "prices.json", "--model-budget", "0.02"], { cwd: dir, env: env(), timeoutMs: 400_000 });
    const m = /the run stopped at its \$0\.0200 cap: kept (\d+) of 8 episodes/.exec(res.stderr);
    expect(m, res.stderr).not.toBeNull();
    const kept = Number(m![1]);
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(8);
    const record = JSON.parse(readFileSync(join(dir, "worlds", "runs", "forms-openai-planner-bf34e029-2", "run.json"), "utf8")) as { episodes: { kept: number; total: number } };
    expect(record.episodes).toEqual({ kept, total: 8 });
    expect((JSON.parse(readFileSync(join(dir, "worlds", "runs", "forms-openai-planner-bf34e029", "run.json"), "utf8")) as { episodes: { kept: number } }).episodes.kept).toBe(8);
  });
});
