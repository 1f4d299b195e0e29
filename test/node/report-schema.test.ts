import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { GRADER_VERDICTS } from "../../src/core/results/input";
import { buildResults } from "../../src/core/results/build";
import { earlyResults } from "../../src/core/results/early";
import { serializeResults } from "../../src/core/results/serialize";
import { syntheticEpisodes, syntheticInput } from "../../src/core/results/synthetic.fixture";
import { assertValidResults, resultsProblems } from "./helpers/validate-results";

describe("results schema", () => {
  it("accepts what the builder produces in every status", () => {
    const cases = [
      syntheticInput(),
      syntheticInput({ episodes: syntheticEpisodes().map((e) => (e.traffic ? { ...e, traffic: { billing_requests: 0, desk_requests: 0 } } : e)) }),
      syntheticInput({ episodes: [], run_checks: [], setup_failure: { status: "configuration_incomplete", reason: "bad flag --runz", next_action: "worlds passk --help" } }),
      syntheticInput({ episodes: syntheticEpisodes().filter((e) => e.run === 1), run_checks: [], interrupted: { signal: "SIGTERM" } }),
      syntheticInput({ mode: "shift", episodes: [{ run: 1, world: "w1", tickets: [1, 2, 3, 4, 5], grades: [1, 2, 3, 4, 5].map((t) => ({ ticket: t, verdict: t === 3 ? null : ("passed" as const), status_after: "solved" })), agent: { exit_code: 0 }, traffic: { billing_requests: 9, desk_requests: 12 } }], runs_requested: 1, run_checks: [], generated_at: "2026-07-01T00:00:00.000Z" }),
    ];
    const statuses = new Set<string>();
    for (const input of cases) {
      const r = buildResults(input);
      statuses.add(r.status);
      assertValidResults(JSON.parse(serializeResults(r)));
    }
    expect([...statuses].sort()).toEqual(["configuration_incomplete", "inconclusive", "interrupted", "passed", "policy_failed"]);
  });

  it("accepts an early stop's contract-only document, and nothing less", () => {
    assertValidResults(earlyResults({ status: "setup_failed", reason: "no server", next_action: "use --server auto" }));
    assertValidResults(earlyResults({ status: "interrupted", signal: "SIGINT" }, "2026-07-01T00:00:00.000Z"));
    const { schema: _schema, ...bare } = earlyResults({ status: "configuration_incomplete", reason: "bad flag", next_action: "see --help" });
    expect(resultsProblems(bare)).not.toEqual([]);
    expect(resultsProblems({ ...earlyResults({ status: "setup_failed", reason: "x", next_action: "y" }), exit_code: 1 })).not.toEqual([]);
  });

  it("lists exactly the graders' verdicts plus the infrastructure error", () => {
    const schema = JSON.parse(readFileSync(new URL("../../docs/schemas/results.schema.json", import.meta.url), "utf8")) as { $defs: { verdict: { enum: unknown[] } } };
    expect(schema.$defs.verdict.enum).toEqual([...GRADER_VERDICTS, "infra_error", null]);
  });

  it("rejects documents that break the contract", () => {
    const r = JSON.parse(serializeResults(buildResults(syntheticInput()))) as Record<string, unknown> & { crash_test: { tasks: { accuracy: number }[] }; runs: { flawless: boolean }[] };
    expect(resultsProblems({ ...r, exit_code: 0 })).not.toEqual([]);
    expect(resultsProblems({ ...r, extra: 1 }).join()).toMatch(/additional properties \(extra\)/);
    const bad = structuredClone(r);
    bad.crash_test.tasks[0].accuracy = 1.5;
    expect(resultsProblems(bad).join()).toMatch(/\/crash_test\/tasks\/0\/accuracy/);
    const lying = structuredClone(r);
    lying.runs[0].flawless = true;
    expect(resultsProblems(lying)).not.toEqual([]);
  });
});
