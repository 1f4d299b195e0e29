// `passk --gate` and `--baseline`, then `worlds compare`, with the real built CLI, a local server it starts itself
// and the reference agents on the selftest tasks: the careful agent's flawless three runs do not clear pass^3 >= 0.8
// on the lower bound (they cannot: three tasks), the reckless agent against the careful one's results is compared
// inline, and compare reads the two files the runs wrote.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { killAllStarted, ROOT, runCli } from "./helpers/cli";
import { assertValidComparison } from "./helpers/validate-compare";
import { assertValidResults } from "./helpers/validate-results";

afterAll(killAllStarted);

const SLOW = 300_000;
const TASKS = "examples/agents/selftest.tasks.yaml";
const agent = (name: string) => ["node", join(ROOT, "examples", "agents", name)];
const passk = (extra: string[], command: string[]) => runCli(["passk", "--tasks", TASKS, "--server", "auto", "--concurrency", "2", "--runs", "3", ...extra, "--", ...command], { timeoutMs: 180_000 });

describe("passk --gate / --baseline and worlds compare, end to end", () => {
  const dir = mkdtempSync(join(tmpdir(), "worlds-gate-"));
  const careful = join(dir, "careful.json");
  const reckless = join(dir, "reckless.json");

  it("a flawless run of three tasks fails pass^3>=0.8 on its lower bound, says how many runs would decide, and passes a money gate", async () => {
    const res = await passk(["--gate", "pass^3>=0.8", "--gate", "dollars_wrong<=0", "--json-file", careful], agent("careful.mjs"));
    expect(res.code, res.stderr).toBe(1);
    expect(res.leftovers).toEqual([]);
    const doc = JSON.parse(readFileSync(careful, "utf8"));
    assertValidResults(doc);
    expect(doc.crash_test.flawless_runs).toBe(3);
    expect(doc.gates.map((g: { outcome: string }) => g.outcome)).toEqual(["undecided", "passed"]);
    // Three tasks at three runs each, all passed: n_eff = 3 blocks of 3, Wilson(3 of 3).low = 3/(3 + 1.96^2).
    expect(doc.gates[0].low).toBeCloseTo(3 / (3 + 1.96 ** 2), 5);
    // n_eff = 3R/3 = R blocks; Wilson(R of R).low >= 0.8 needs R >= 4 * 1.96^2 = 15.4.
    expect(doc.gates[0].runs_needed).toBe(16);
    const lines = res.stdout.trimEnd().split("\n");
    expect(res.stdout).toContain("gates (met only when the interval's bound clears them):\n  ? pass^3>=0.8 undecided — pass^3 100% [43.8%–100%] over 3 tasks");
    expect(lines.at(-2)).toMatch(/^status: policy_failed \(exit 1\) — gate not met: pass\^3>=0\.8 undecided/);
    // A local run's suggestion names no server: with none named, the command runs the local one.
    expect(lines.at(-1)).toMatch(/^next: run enough to decide: worlds passk --tasks examples\/agents\/selftest\.tasks\.yaml --runs 16 --gate 'pass\^3>=0\.8' --gate 'dollars_wrong<=0' -- node /);
  }, SLOW);

  it("--baseline prints the comparison inline and records it; worlds compare reads both files", async () => {
    const res = await passk(["--baseline", careful, "--json-file", reckless], agent("reckless.mjs"));
    expect(res.code, res.stderr).toBe(1);
    const doc = JSON.parse(readFileSync(reckless, "utf8"));
    assertValidResults(doc);
    expect(doc.baseline).toMatchObject({ source: careful });
    expect(res.stdout).toContain(`\nagainst the baseline ${careful}:\ncompare: base ${careful} (3 runs · 3 keyed tasks · policy_failed) → new this run (3 runs · 3 keyed tasks · policy_failed)`);
    expect(res.stdout.trimEnd().split("\n").at(-2)).toMatch(/^status: policy_failed \(exit 1\)/);

    const html = join(dir, "compare.html");
    const cmp = await runCli(["compare", careful, reckless, "--json", "--report", html]);
    const c = JSON.parse(cmp.stdout);
    assertValidComparison(c);
    expect(cmp.code).toBe(c.exit_code);
    expect(c.worse.length).toBeGreaterThan(0);
    expect(readFileSync(html, "utf8")).toMatch(/^<!doctype html>/);
    const same = await runCli(["compare", careful, careful]);
    expect(same.code).toBe(0);
    expect(same.stdout).toMatch(/\nstatus: passed \(exit 0\) — no task got worse/);
  }, SLOW);
});
