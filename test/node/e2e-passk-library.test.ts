// passk on the starter library as a shift (--seed + --rubric, no tasks file), and the refusals that must come
// before any world exists.
import { describe, expect, it } from "vitest";
import { runCli } from "./helpers/cli";
import { assertValidResults } from "./helpers/validate-results";

describe("passk --seed --rubric", () => {
  it("runs the library's keyed desk as a shift and reports it under the rubric's summary", async () => {
    const r = await runCli(
      ["passk", "--server", "auto", "--seed", "acme-prod-library", "--rubric", "rubrics/acme-prod-library.json", "--runs", "1", "--task", "ACME-1001", "--task", "ACME-1004", "--json", "--", "node", "examples/agents/careful.mjs"],
      { timeoutMs: 240_000 },
    );
    expect(r.stderr).toContain("on acme-prod-library · shift ·");
    const doc = JSON.parse(r.stdout) as { mode: string; exit_code: number; tasks: { file: string }; runs: Array<{ worlds: unknown[] }>; crash_test: { worst_task: { replay: string } | null } };
    assertValidResults(doc);
    expect(doc.mode).toBe("shift");
    expect(doc.tasks.file).toBe("rubrics/acme-prod-library.json");
    expect([0, 1]).toContain(r.code);
    if (doc.crash_test.worst_task) expect(doc.crash_test.worst_task.replay).toMatch(/^worlds passk --seed acme-prod-library --rubric rubrics\/acme-prod-library\.json --task ACME-100[14] --runs 1 -- node examples\/agents\/careful\.mjs$/);
    expect(r.leftovers).toEqual([]);
  }, 300_000);

  it("refuses a half-given library run, and --tasks with --seed, before starting anything", async () => {
    const half = await runCli(["passk", "--server", "auto", "--seed", "acme-prod-library", "--", "true"]);
    expect(half.code).toBe(2);
    expect(half.stderr).toContain("--seed and --rubric go together");
    const both = await runCli(["passk", "--tasks", "examples/quickstart.tasks.yaml", "--seed", "acme-small", "--rubric", "x.json", "--", "true"]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("excludes --seed and --rubric");
  });

  it("refuses a rubric written for another seed", async () => {
    const r = await runCli(["passk", "--server", "auto", "--seed", "acme-small", "--rubric", "rubrics/acme-prod-library.json", "--", "true"], { timeoutMs: 120_000 });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("keys seed 'acme-prod-library'");
  }, 180_000);
});

describe("passk with init's placeholder agent", () => {
  it("exits 2 naming the placeholder, before any world is created", async () => {
    const t0 = Date.now();
    const r = await runCli(["passk", "--server", "auto", "--tasks", "examples/quickstart.tasks.yaml", "--", "REPLACE_WITH_YOUR_AGENT_COMMAND"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("still the placeholder");
    expect(Date.now() - t0).toBeLessThan(30_000);
  });
});
