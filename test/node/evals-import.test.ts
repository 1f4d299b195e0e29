import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadTasks } from "../../src/core/kinds/replay/task-format/index";
import { ROOT, runCli } from "./helpers/cli";

const EXAMPLE = join(ROOT, "examples", "evals", "benchmark.json");

describe("worlds evals import", () => {
  it("checks the file, copies every task as it was (unread fields kept) and prints a line per task", async () => {
    const dir = mkdtempSync(join(tmpdir(), "evals-import-"));
    const r = await runCli(["evals", "import", EXAMPLE], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("duplicate-charge-refund  failure  held_out  replay (4 tools, 3 recorded, a person)  rubric (3 criteria, 2 checks)  1 reference run");
    expect(r.stdout).toContain("game-boots  success  train  game-workspace (your own code)  play-check (your own code)  0 reference runs");
    expect(r.stdout).toContain("3 tasks: 1 failure, 2 success; 2 train, 1 held out.");
    const copy = readFileSync(join(dir, "worlds", "evals", "benchmark.json"), "utf8");
    expect(JSON.parse(copy).tasks[0].review).toEqual({ note: "a field worlds does not read: ignored" });
    const again = loadTasks(copy, "copy.json");
    expect(again.ok && again.tasks.map((t) => t.task.slug)).toEqual(["duplicate-charge-refund", "cancel-at-period-end", "game-boots"]);
    const twice = await runCli(["evals", "import", EXAMPLE], { cwd: dir });
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/exists; pass --force/);
  });

  it("prints the effects it inferred for tools the file leaves without one", async () => {
    const dir = mkdtempSync(join(tmpdir(), "evals-import-"));
    const r = await runCli(["evals", "import", EXAMPLE, "--out", "copy.json"], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    // The example states three of the refund task's effects and leaves tasks__create out.
    expect(r.stdout).toContain('  duplicate-charge-refund: effects inferred: tasks__create write (state one with "effect": "read" | "write" to change it)');
  });

  it("refuses a recorded result too large for a replay world at import, naming the 2,000,000-byte limit", async () => {
    const dir = mkdtempSync(join(tmpdir(), "evals-import-"));
    const b = JSON.parse(readFileSync(EXAMPLE, "utf8"));
    b.tasks[0].environment.observations[0].result = { blob: "x".repeat(5_000_000) };
    writeFileSync(join(dir, "big.json"), JSON.stringify(b, null, 2));
    const r = await runCli(["evals", "import", "big.json", "--out", "copy.json"], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/big\.json:\d+:\d+: task duplicate-charge-refund: environment\.observations\[0\]\.result: the task's tools and recorded results come to \d+ bytes as JSON; a replay world holds at most 2000000 .*; this recording alone is 5000\d+ bytes/);
    expect(existsSync(join(dir, "copy.json"))).toBe(false);
  });

  it("refuses a file with problems, naming file, line, task and field, and writes nothing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "evals-import-"));
    writeFileSync(join(dir, "bad.json"), '{"tasks": [\n  {"slug": "x", "origin": "fail", "split": "train", "prompt": "p",\n   "environment": {"kind": "replay"}, "grader": {"kind": "rubric"}}\n]}\n');
    const r = await runCli(["evals", "import", "bad.json", "--out", "copy.json"], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('bad.json:2:27: task x: origin: must be one of "failure", "success"');
    expect(r.stderr).toMatch(/bad\.json:3:\d+: task x: grader\.criteria: is required/);
    expect(r.stderr).toContain("was not imported");
    expect(existsSync(join(dir, "copy.json"))).toBe(false);
  });
});
