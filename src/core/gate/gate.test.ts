import { describe, expect, it } from "vitest";
import { assertValidResults } from "../../../test/node/helpers/validate-results";
import { baselineBlock } from "../compare/baseline";
import { compareResults } from "../compare/compare";
import { readResultsText, type ResultsDocument } from "../compare/input";
import { syntheticRun, uniform } from "../compare/synthetic.fixture";
import { serializeResults } from "../results/index";
import { applyVerdicts, evaluateGates, parseGates, GateSyntaxError } from "./index";

describe("parseGates", () => {
  it("reads pass^K against a probability or a percentage, and money per run", () => {
    expect(parseGates(["pass^3>=0.8", " pass^1 > 75% ", "dollars_wrong<=100", "dollars_wrong < $12.50"])).toEqual([
      { metric: "pass^k", k: 3, op: ">=", threshold: 0.8, text: "pass^3>=0.8" },
      { metric: "pass^k", k: 1, op: ">", threshold: 0.75, text: "pass^1>75%" },
      { metric: "dollars_wrong", op: "<=", threshold_major: 100, text: "dollars_wrong<=100" },
      { metric: "dollars_wrong", op: "<", threshold_major: 12.5, text: "dollars_wrong<12.50" },
    ]);
  });
  it("says what a gate looks like when it is not one", () => {
    expect(() => parseGates(["pass^3=0.8"])).toThrow(GateSyntaxError);
    expect(() => parseGates(["pass^3=0.8"])).toThrow(/'pass\^3=0\.8' is not a gate: write pass\^K>=X .* e\.g\. 'pass\^3>=0\.8' or 'dollars_wrong<=100'/);
    expect(() => parseGates(["pass^3>=1.5"])).toThrow(/at most 1/);
    expect(() => parseGates(["pass^0>=0.5"])).toThrow(/K must be between 1 and 100/);
    expect(() => parseGates(["dollars_wrong>=5"])).toThrow(/is not a gate/);
  });
});

describe("evaluateGates: pass^k on the lower bound", () => {
  it("a lucky run of a weak agent does not pass, and says how many runs would decide", () => {
    // Five tasks, three runs, every one passed: pass^3 = 100%, but Wilson over n_eff = 5*3/3 = 5 gives 0.566.
    const [g] = evaluateGates(syntheticRun(uniform("T", 5, "✓✓✓")), parseGates(["pass^3>=0.8"]));
    expect(g).toMatchObject({ outcome: "undecided", value: 1, high: 1, decided_on: "low", runs: 3, runs_needed: 10 });
    expect(g.low).toBeCloseTo(0.565509, 6);
    expect(g.reason).toMatch(/^pass\^3 100% \[56\.6%–100%\] over 5 tasks: the lower bound is below 80% and the upper is not, so these runs cannot tell; about 10 runs would decide/);
  });
  it("passes with enough evidence and fails when even the upper bound is short", () => {
    const strong = evaluateGates(syntheticRun(uniform("T", 10, "✓".repeat(20))), parseGates(["pass^3>=0.8"]))[0];
    // n_eff = 10*20/3 = 66.7 blocks: Wilson(66.7 of 66.7).low = 66.7/(66.7 + 1.96^2) = 0.9455.
    expect(strong.outcome).toBe("passed");
    expect(strong.low).toBeCloseTo(200 / 3 / (200 / 3 + 1.96 ** 2), 6);
    const weak = evaluateGates(syntheticRun([...uniform("A", 6, "✗✗✗✗"), ...uniform("B", 2, "✓✗✓✓")]), parseGates(["pass^1>=0.8"]))[0];
    expect(weak.outcome).toBe("failed");
    expect(weak.runs_needed).toBeNull();
  });
  it("counts infrastructure errors as trials that did not pass, like the document does", () => {
    const [g] = evaluateGates(syntheticRun([{ id: "A", marks: "✓!✓" }, { id: "B", marks: "✓✓✓" }]), parseGates(["pass^1>=0.5"]));
    expect(g.value).toBeCloseTo(5 / 6, 6);
  });
  it("cannot judge pass^K before every task ran K times", () => {
    const [g] = evaluateGates(syntheticRun(uniform("T", 3, "✓✓")), parseGates(["pass^3>=0.5"]));
    expect(g).toMatchObject({ outcome: "undecided", value: null, runs_needed: 3 });
    expect(g.reason).toContain("pass^3 needs every keyed task to run 3 times; the fewest any ran is 2");
  });
});

describe("evaluateGates: dollars wrong on the upper bound", () => {
  it("no money wrong passes", () => {
    expect(evaluateGates(syntheticRun(uniform("T", 3, "✓✓✓")), parseGates(["dollars_wrong<=0"]))[0]).toMatchObject({ outcome: "passed", value: 0, low: 0, high: 0 });
  });
  it("one run in three with $243.00 wrong: $81.00 a run, undecided against $100, with the runs to decide", () => {
    const [g] = evaluateGates(syntheticRun([{ id: "A", marks: "✓✗✓", cents: 24300 }, { id: "B", marks: "✓✓✓" }]), parseGates(["dollars_wrong<=100"]));
    expect(g).toMatchObject({ metric: "dollars_wrong", threshold: 10000, value: 8100, low: 0, decided_on: "high", outcome: "undecided" });
    expect(g.high).toBe(16200);
    // Normal projection: within-task variance of A's runs (0, 24300, 0) is 196.83e6, of B's 0: mean 98.415e6.
    // Between tasks: var(8100, 0) = 32.805e6 minus 98.415e6/3 leaves 0. Half-width 1.96 sqrt(2 * 98.415e6 / R)
    // must fit in $19.00: R >= (1.96^2 * 196.83e6) / 1900^2 = 209.5, so 210 runs.
    expect(g.runs_needed).toBe(210);
  });
  it("fails when even the lower bound is over the limit", () => {
    const [g] = evaluateGates(syntheticRun(uniform("T", 4, "✗✗✗").map((t) => ({ ...t, cents: 5000 }))), parseGates(["dollars_wrong<=100"]));
    expect(g).toMatchObject({ value: 20000, low: 20000, high: 20000, outcome: "failed" });
  });
});

describe("applyVerdicts", () => {
  const flawed = syntheticRun([...uniform("T", 9, "✓".repeat(20)), { id: "F", marks: "✓✓✓✓✓✗✓✓✓✓✓✓✓✓✓✓✓✓✓✓" }]);
  it("gates met on their bounds pass a run that was not flawless", () => {
    expect(flawed.status).toBe("policy_failed");
    const r = applyVerdicts(flawed, { gates: evaluateGates(flawed, parseGates(["pass^1>=0.9", "dollars_wrong<=0"])) });
    expect(r).toMatchObject({ status: "passed", exit_code: 0 });
    expect(r.reason).toMatch(/^every gate met on its interval's bound: pass\^1>=0\.9 \(pass\^1 99\.5% \[/);
    expect(r.next_action).toMatch(/^nothing has to change; the worst task is still worth a look: /);
    assertValidResults(JSON.parse(serializeResults(r)));
  });
  it("an undecided gate fails the run and says what to run", () => {
    const lucky = syntheticRun(uniform("T", 5, "✓✓✓"));
    expect(lucky.status).toBe("passed");
    const r = applyVerdicts(lucky, { gates: evaluateGates(lucky, parseGates(["pass^3>=0.8"])), rerun: (n) => `worlds passk --tasks t.yaml --runs ${n} --gate 'pass^3>=0.8' -- a` });
    expect(r).toMatchObject({ status: "policy_failed", exit_code: 1 });
    expect(r.reason).toMatch(/^gate not met: pass\^3>=0\.8 undecided \(pass\^3 100% \[56\.6%–100%\]/);
    expect(r.next_action).toBe("run enough to decide: worlds passk --tasks t.yaml --runs 10 --gate 'pass^3>=0.8' -- a");
    expect(r.gates).toHaveLength(1);
    assertValidResults(JSON.parse(serializeResults(r)));
  });
  it("a significant regression against the baseline fails a passing run; an inconclusive run stays inconclusive", () => {
    const side = (doc: ReturnType<typeof syntheticRun>, source: string) => ({ source, doc: (readResultsText(serializeResults(doc), source) as { doc: ResultsDocument }).doc });
    const before = syntheticRun(uniform("T", 8, "✓✓✓✓✓✓"));
    const after = syntheticRun([...uniform("T", 8, "✓✓✓✓✓✓").slice(0, 6), { id: "T-7", marks: "✗✗✗✗✗✗" }, { id: "T-8", marks: "✗✗✗✗✗✗" }]);
    const block = baselineBlock(compareResults(side(before, "main.json"), side(after, "this run")));
    const gated = applyVerdicts(after, { gates: evaluateGates(after, parseGates(["pass^1>=0.3"])), baseline: block });
    expect(gated.gates![0].outcome).toBe("passed");
    expect(gated.status).toBe("policy_failed");
    expect(gated.reason).toMatch(/^a significant regression against the baseline main\.json: significant regression at 0\.05/);
    assertValidResults(JSON.parse(serializeResults(gated)));
    const broken = syntheticRun([{ id: "A", marks: "!!!" }]);
    expect(applyVerdicts(broken, { gates: evaluateGates(broken, parseGates(["pass^1>=0.5"])) }).status).toBe(broken.status);
  });
});
