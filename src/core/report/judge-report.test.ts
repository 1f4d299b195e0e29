// The judge in the reports: a policy-only task's cell is the judge's verdict, marked as the judge's; the text
// says what it cost and how often it agreed with the keys; the HTML names the model and shows every finding.
import { describe, expect, it } from "vitest";
import type { JudgeRecord } from "../policy-judge/record";
import { buildResults } from "../results/build";
import { syntheticInput } from "../results/synthetic.fixture";
import { renderHtml } from "./html";
import { renderText } from "./text";

const record = (pass: boolean, rule = "Never claim an action you did not take."): JudgeRecord => ({
  grader: "policy_judge",
  model: "anthropic:claude-haiku-4-5",
  outcome: "judged",
  verdict: pass ? "passed" : "failed",
  passed: pass,
  reward: pass ? 1 : 0,
  reasons: [`${pass ? "followed" : "broke"} "${rule}": because <b>.`],
  dollars_wrong_cents: null,
  findings: [{ rule, evidence: "I've refunded <both>", why: "because <b>.", followed: pass, in_policy: true }],
  cost: { dollars: 0.0031, input_tokens: 1200, output_tokens: 90, attempts: 1, duration_ms: 5 },
  cached: false,
  error: null,
});

function judgedResults() {
  const input = syntheticInput();
  for (const ep of input.episodes)
    for (const g of ep.grades ?? []) {
      if (g.ticket === 3) g.judge = record(ep.run !== 2);
      else if (g.ticket === 4) g.judge = record(true);
      else if (g.ticket === 2 && ep.run === 3) g.judge = { ...record(true), outcome: "error", verdict: null, passed: null, reward: null, findings: [], reasons: ["x"], error: { kind: "timeout", message: "anthropic did not answer within 60000 ms", raw: null } };
    }
  return buildResults({ ...input, judge: { model: "anthropic:claude-haiku-4-5", prompt_version: "worlds-judge/1", policy: { source: "worlds/policy.md", sha256: "c".repeat(64), chars: 400 }, budget_dollars: 1 } });
}

describe("reports with the judge", () => {
  it("text: the judge's cells for policy-only tasks, a summary line, and the trials worth reading", () => {
    const text = renderText(judgedResults());
    expect(text).toMatch(/ZD-1050\s+judge:passed\s+judge:failed\s+judge:passed/);
    expect(text).toContain("judge anthropic:claude-haiku-4-5: 6 of 7 trials judged · policy-only: 2 passed, 1 failed · agrees with the key on 0 of 3 · $0.0217 of a $1.00 budget · 1 error (timeout 1)");
    expect(text).toContain("  run 1: ZD-1060: judge passed, key false_claim — followed");
    expect(text).toContain("  run 2: ZD-1050: judge failed it — broke \"Never claim an action you did not take.\": because <b>.");
    expect(text).toContain("  run 3: ZD-1042: error: anthropic did not answer within 60000 ms");
  });

  it("html: names the model, marks the judge's cells and disagreements, escapes every finding", () => {
    const html = renderHtml(judgedResults());
    expect(html).toContain('judged by <code>anthropic:claude-haiku-4-5</code>');
    expect(html).toContain('<section id="judge"><h2>Policy judge</h2>');
    expect(html).toMatch(/<span class="chip v-judge-fail" title="the judge&#39;s verdict \(anthropic:claude-haiku-4-5\); no key">judge ✗<\/span>/);
    expect(html).toContain('class="jmark"');
    expect(html).toContain("I&#39;ve refunded &lt;both&gt;");
    expect(html).not.toContain("<both>");
    expect(html).toContain("judge error (timeout)");
  });

  it("leaves a run without a judge as it was", () => {
    const plain = buildResults(syntheticInput());
    expect(renderText(plain)).not.toContain("judge");
    expect(renderHtml(plain)).not.toContain('id="judge"');
  });
});
