// Results with the policy judge validate against the published schema: judged, errored and skipped trials, and
// the run's judge block.
import { describe, expect, it } from "vitest";
import { buildResults } from "../../src/core/results/build";
import { serializeResults } from "../../src/core/results/serialize";
import { syntheticInput } from "../../src/core/results/synthetic.fixture";
import type { JudgeRecord } from "../../src/core/policy-judge/index";
import { assertValidResults, resultsProblems } from "./helpers/validate-results";

const base = { grader: "policy_judge", model: "openai:gpt-4.1-mini", dollars_wrong_cents: null, cached: false } as const;
const judged = (pass: boolean): JudgeRecord => ({
  ...base,
  outcome: "judged",
  verdict: pass ? "passed" : "failed",
  passed: pass,
  reward: pass ? 1 : 0,
  reasons: ["r"],
  findings: [{ rule: "Refund once.", evidence: "e", why: "w", followed: pass, in_policy: true }],
  cost: { dollars: 0.0012, input_tokens: 900, output_tokens: 80, attempts: 1, duration_ms: 5 },
  error: null,
});
const errored: JudgeRecord = { ...base, outcome: "error", verdict: null, passed: null, reward: null, reasons: ["x"], findings: [], cost: { dollars: 0, input_tokens: 0, output_tokens: 0, attempts: 4, duration_ms: 5 }, error: { kind: "timeout", message: "no answer", raw: null } };
const skipped: JudgeRecord = { ...errored, outcome: "skipped_for_budget", cost: { ...errored.cost, attempts: 0, duration_ms: 5 }, error: { kind: "budget", message: "skipped for budget", raw: null } };

describe("results schema with the judge", () => {
  it("accepts judged, errored and skipped trials and the run block", () => {
    const input = syntheticInput();
    const records = [judged(true), judged(false), errored, skipped];
    let i = 0;
    for (const ep of input.episodes) for (const g of ep.grades ?? []) g.judge = records[i++ % records.length];
    const r = buildResults({ ...input, judge: { model: "openai:gpt-4.1-mini", prompt_version: "worlds-judge/1", policy: { source: "policy.md", sha256: "0".repeat(64), chars: 120 }, budget_dollars: 0.5 } });
    const doc = JSON.parse(serializeResults(r));
    assertValidResults(doc);
    expect(r.judge).toMatchObject({ errors: 3, skipped_for_budget: 3, errors_by_kind: { timeout: 3 } });
    const bad = structuredClone(doc);
    bad.runs[0].worlds[0].judge.outcome = "judged";
    bad.runs[0].worlds[0].judge.verdict = null;
    expect(resultsProblems(bad)).not.toEqual([]);
  });
});
