// Stripe's own OpenAPI document (2024-04-10: 365 paths, 533 operations; test/fixtures/tools/corpus/README.md),
// selected as a support team would: refunds, charges and customers. Before expandable fields were kept as ids, the
// selection was refused whole at the 200,000-node guard (path:/v1/refunds alone was); the import itself is timed in
// bench/tools-import.mjs --stripe, not here.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { killAllStarted, ROOT, runCli } from "./helpers/cli";

const SPEC = join(ROOT, "test", "fixtures", "tools", "corpus", "stripe-spec3-2024-04-10.json.gz");
const SELECTION = ["--own-include", "path:/v1/refunds*", "--own-include", "path:/v1/charges*", "--own-include", "path:/v1/customers*"];
const dir = mkdtempSync(join(tmpdir(), "worlds-stripe-spec-"));

afterAll(() => {
  killAllStarted();
  rmSync(dir, { recursive: true, force: true });
});

describe("Stripe's real OpenAPI document, a chosen subset", () => {
  it("imports the refunds, charges and customers operations with every refusal named, and a literal agent passes its tasks", { timeout: 300_000 }, async () => {
    writeFileSync(join(dir, "spec3.json"), gunzipSync(readFileSync(SPEC)));
    const init = await runCli(["tools", "init", "--own-file", "spec3.json", ...SELECTION], { cwd: dir });
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain(": 66 tools: 27 read, 16 write, 0 not known (treated as write), 23 refused; file: ");
    expect(init.stdout).toContain("66 of its 533 tools chosen by --own-include 'path:/v1/refunds*'");
    const refused = init.stdout.split("\n").filter((l) => l.startsWith("  refused "));
    expect(refused).toHaveLength(23);
    // Each names its tool and the argument rule it breaks; no answer is refused.
    for (const line of refused) expect(line).toMatch(/^ {2}refused\s+\w+: its schema /);
    const config = join(dir, "worlds", "tools.yaml");
    writeFileSync(config, readFileSync(config, "utf8").replace("tasks_per_arm: 10", "tasks_per_arm: 2"));
    const gen = await runCli(["tools", "generate"], { cwd: dir });
    expect(gen.code, gen.stderr).toBe(0);
    const run = await runCli(["tools", "run", "--server", "auto", "--runs", "1", "--", process.execPath, join(ROOT, "examples", "agents", "tools-literal.mjs")], { cwd: dir, timeoutMs: 240_000 });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/status: passed \(exit 0\)/);
  });
});
