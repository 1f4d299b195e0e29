// Money on a `tools run --model` run, against the scripted model server: without --model-budget the run stops at
// $1.00 (the plan says so); with no terminal and no --yes it is refused in one line naming --yes and the cap's flag,
// and nothing is sent or written; on a terminal it asks first, and a "no" spends nothing. Each call reserves from
// the plan's estimate, not its whole max_tokens, so a cap smaller than one call's worst case still keeps episodes.
import { existsSync } from "node:fs";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, runCli } from "./helpers/cli";
import { plannerFolder } from "./helpers/tools-plan-setup";

let dir: string;
let model: Awaited<ReturnType<typeof plannerFolder>>["model"];
let env: () => Record<string, string>;
let close: () => Promise<void>;

beforeAll(async () => void ({ dir, model, env, close } = await plannerFolder("worlds-tools-spend-")));
afterAll(() => close());
const MODEL = ["--model", "openai:planner", "--model-prices", "prices.json"];

describe("worlds tools run --model: the cap and the question", () => {
  it("the plan names the default $1.00 cap; --yes without --model is refused", async () => {
    const plan = await runCli(["tools", "run", "--dry-run", "--runs", "2", ...MODEL], { cwd: dir, env: env() });
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toMatch(/^plan {2}8 episodes against openai:planner: about \$0\.\d{4}, and the run stops at \$1\.00 \(the default; --model-budget USD sets another\)\n/);
    const yes = await runCli(["tools", "run", "--yes", "--", "node", "agent.mjs"], { cwd: dir });
    expect(yes.code).toBe(2);
    expect(yes.stderr).toMatch(/^worlds tools run: --yes applies to the built-in model agent: add --model P:M \(or drop it\)\./);
  });

  it("no terminal and no --yes: one line naming --yes and --model-budget, exit 2, nothing sent or written", async () => {
    const before = model.received().length;
    const r = await runCli(["tools", "run", "--server", "auto", "--runs", "2", ...MODEL], { cwd: dir, env: env() });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(
      /^worlds tools run: a --model run spends money: 8 episodes against openai:planner, about \$0\.\d{4} expected, the run stops at \$1\.00 \(the default; --model-budget USD sets another\); there is no terminal to ask on, so add --yes to run it without asking \(--model-budget USD sets the cap\)\n$/,
    );
    expect(model.received().length).toBe(before);
    expect(existsSync(join(dir, "worlds", "runs"))).toBe(false);
  });

  it("on a terminal it asks first; answering no spends nothing", async () => {
    // `script` gives the CLI a real terminal (stdin and stderr are TTYs), as a user's shell does.
    const before = model.received().length;
    const cmd = [process.execPath, BIN, "tools", "run", "--server", "auto", "--runs", "2", ...MODEL].map((a) => `'${a}'`).join(" ");
    const child = spawn("script", ["-qec", cmd, "/dev/null"], { cwd: dir, env: { ...process.env, ...env() }, stdio: ["pipe", "pipe", "pipe"] });
    let seen = "";
    child.stdout.on("data", (c: Buffer) => {
      seen += c.toString("utf8");
      if (seen.includes("Go on? [y/N]")) child.stdin.write("n\n");
    });
    const code = await new Promise<number | null>((r) => child.on("close", r));
    expect(seen).toMatch(/a --model run spends money: 8 episodes against openai:planner, about \$0\.\d{4} expected, the run stops at \$1\.00/);
    expect(seen).toContain("worlds tools run: not started: nothing was spent (--yes skips this question)");
    expect(code).toBe(1);
    expect(model.received().length).toBe(before);
    expect(existsSync(join(dir, "worlds", "runs"))).toBe(false);
  });

  it("a cap below one call's worst case still keeps episodes: calls reserve from the plan's estimate", { timeout: 480_000 }, async () => {
    // One call's worst case is its whole max_tokens (1024 at $8/M, over $0.008) plus its input: a $0.006 cap let
    // no call through when that was what each call reserved.
    const res = await runCli(["tools", "run", "--server", "auto", "--yes", "--runs", "2", "--concurrency", "1", ...MODEL, "--model-budget", "0.006"], { cwd: dir, env: env(), timeoutMs: 400_000 });
    const kept = Number(/kept (\d+) of 8 episodes/.exec(res.stderr)?.[1]);
    expect(kept, res.stderr).toBeGreaterThan(0);
    const spent = Number(/model agent openai:planner: \d+ episodes?, .*?\$([0-9.]+)/.exec(res.stderr)?.[1]);
    expect(spent, res.stderr).toBeGreaterThan(0);
    expect(spent, res.stderr).toBeLessThanOrEqual(0.006);
  });
});
