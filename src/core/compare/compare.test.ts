import { describe, expect, it } from "vitest";
import { serializeResults, type Results } from "../results/index";
import { compareResults } from "./compare";
import { CompareInputError, readResultsText, readResultsValue, type ResultsDocument } from "./input";
import { syntheticRun, uniform, type SyntheticTask } from "./synthetic.fixture";

function side(results: Results, source: string) {
  const read = readResultsText(serializeResults(results), source);
  if (read.kind !== "full") throw new Error("expected a full document");
  return { source, doc: read.doc as ResultsDocument };
}

function compare(base: SyntheticTask[], next: SyntheticTask[], opts: Parameters<typeof compareResults>[2] = {}) {
  return compareResults(side(syntheticRun(base), "base.json"), side(syntheticRun(next), "new.json"), opts);
}

describe("compare: no change", () => {
  const tasks = [...uniform("A", 4, "✓✓✓"), { id: "B-1", marks: "✓✗✓" }, { id: "C-1", marks: "✗✗✗" }];
  const c = compare(tasks, tasks);
  it("passes with nothing worse, better or newly flaky", () => {
    expect(c.status).toBe("passed");
    expect(c.exit_code).toBe(0);
    expect(c.worse).toEqual([]);
    expect(c.better).toEqual([]);
    expect(c.became_flaky).toEqual([]);
    expect(c.regressions).toEqual([]);
    expect(c.reason).toMatch(/^no task got worse \(6 compared; at 0.05, Holm over 7 tests\)$/);
  });
  it("gives p = 1 where nothing moved and a zero difference", () => {
    const b = c.tasks.find((t) => t.id === "B-1")!;
    // 2/3 against 2/3: Boschloo's one-sided p is 0.625 (scipy.stats.boschloo_exact), never significant.
    expect(b.p_worse).toBeCloseTo(0.625, 6);
    expect(c.tasks.find((t) => t.id === "A-1")!.p_worse).toBe(1);
    for (const p of c.suite.pass_hat_k) expect(p.delta).toEqual({ value: 0, low: 0, high: 0 });
    expect(c.suite.test!.significant).toBe(false);
  });
  it("is deterministic: the same inputs give the same bytes", () => {
    expect(JSON.stringify(compare(tasks, tasks))).toBe(JSON.stringify(c));
  });
});

describe("compare: a real drop", () => {
  // Ten tasks, ten runs: three fall from 10/10 to 2/10.
  const base = uniform("T", 10, "✓".repeat(10));
  const next = base.map((t, i) => (i < 3 ? { ...t, marks: "✓✓✗✗✗✗✗✗✗✗" } : t));
  const c = compare(base, next);
  it("is a significant regression, exit 1, the three tasks first", () => {
    expect(c.status).toBe("regressed");
    expect(c.exit_code).toBe(1);
    expect(c.worse).toEqual(["T-1", "T-2", "T-3"]);
    expect(c.regressions).toEqual(["T-1", "T-2", "T-3", "suite"]);
  });
  it("tests each task with Boschloo's test and adjusts by Holm over 11 tests", () => {
    const t = c.tasks.find((x) => x.id === "T-1")!;
    // scipy.stats.boschloo_exact([[10, 2], [0, 8]], alternative="greater").pvalue = 0.00010585784912109382.
    expect(t.p_worse).toBeCloseTo(0.000105858, 9);
    // Holm: the suite's p is the smallest (times 11); the three tied tasks come next, times 10, 9 and 8, made
    // non-decreasing: 10 p for all three.
    expect(t.p_worse_adjusted).toBeCloseTo(10 * 0.00010585784912109382, 8);
    expect(c.tasks.find((x) => x.id === "T-3")!.p_worse_adjusted).toBeCloseTo(10 * 0.00010585784912109382, 8);
    expect(c.level.tests).toBe(11);
    expect(t.significant).toBe("worse");
    expect(t.base!.pattern).toBe("✓✓✓✓✓✓✓✓✓✓");
    expect(t.new!.pattern).toBe("✓✓✗✗✗✗✗✗✗✗");
    expect(t.became_flaky).toBe(true);
  });
  it("moves pass^k by the formula's amount, with a paired bootstrap interval below zero", () => {
    const k1 = c.suite.pass_hat_k[0];
    // New pass^1 = (7 + 3 * 0.2) / 10 = 0.76; pass^2 = (7 + 3 * C(2,2)/C(10,2)) / 10.
    expect(k1.base.value).toBe(1);
    expect(k1.new.value).toBeCloseTo(0.76, 6);
    expect(k1.delta.value).toBeCloseTo(-0.24, 6);
    expect(c.suite.pass_hat_k[1].delta.value).toBeCloseTo((7 + 3 / 45) / 10 - 1, 6);
    // The resampled mean is -0.08 X with X ~ Binomial(10, 0.3) drop tasks drawn: its 2.5% and 97.5% points are
    // -0.48 (X = 6) and 0 (X = 0), up to the resampling's own noise.
    expect(k1.delta.high).toBeLessThanOrEqual(0);
    expect(k1.delta.low).toBeGreaterThan(-0.6);
    expect(k1.delta.low).toBeLessThan(-0.4);
  });
  it("tests the suite with the exact stratified test", () => {
    // Only the three dropping tasks carry information; each is hypergeometric with 12 successes in 20, 10 drawn.
    expect(c.suite.successes).toEqual({ base: { trials: 100, passed: 100 }, new: { trials: 100, passed: 76 } });
    expect(c.suite.test!.p_worse).toBeLessThan(1e-6);
  });
});

describe("compare: a drop within noise", () => {
  const base = uniform("T", 5, "✓✓✓");
  const next = base.map((t, i) => (i === 0 ? { ...t, marks: "✓✗✓" } : t));
  const c = compare(base, next);
  it("passes, naming the task as worse within noise and as newly flaky", () => {
    expect(c.status).toBe("passed");
    expect(c.worse).toEqual(["T-1"]);
    expect(c.became_flaky).toEqual(["T-1"]);
    expect(c.regressions).toEqual([]);
    // 3/3 against 2/3: Boschloo's p = 0.34375 (scipy), far from significant.
    expect(c.tasks[0].p_worse).toBeCloseTo(0.34375, 6);
    expect(c.reason).toContain("within the noise");
    expect(c.reason).toContain("T-1 3/3 → 2/3");
    expect(c.next_action).toContain("--task T-1 --runs 10");
  });
  it("a total collapse of one task in five at three runs is not significant once adjusted, and is without adjustment", () => {
    const collapse = base.map((t, i) => (i === 0 ? { ...t, marks: "✗✗✗" } : t));
    const holm = compare(base, collapse);
    // p = 1/64; the suite's test (only T-1 informative) is Fisher's 1/20. Holm over 6: 6/64 = 0.094 > 0.05.
    expect(holm.tasks[0].p_worse).toBeCloseTo(1 / 64, 8);
    expect(holm.tasks[0].p_worse_adjusted).toBeCloseTo(6 / 64, 8);
    expect(holm.suite.test!.p_worse).toBeCloseTo(1 / 20, 8);
    expect(holm.status).toBe("passed");
    const none = compare(base, collapse, { correction: "none" });
    expect(none.status).toBe("regressed");
    expect(none.regressions).toEqual(["T-1", "suite"]);
    // Benjamini-Hochberg: the smallest of 6 times 6/1 = 0.094 too, and the suite's 0.05 times 6/2 = 0.15.
    expect(compare(base, collapse, { correction: "bh" }).status).toBe("passed");
  });
});

describe("compare: better, money, infrastructure errors, changed tasks", () => {
  it("lists improvements by evidence", () => {
    const c = compare([{ id: "A", marks: "✗✗✗✗✗" }, { id: "B", marks: "✗✗✗✗✓" }], [{ id: "A", marks: "✓✓✓✓✓" }, { id: "B", marks: "✓✗✗✗✓" }]);
    expect(c.better).toEqual(["A", "B"]);
    // A: 0/5 -> 5/5, Boschloo p = (1/2)^10, times 2 (Holm over two) = 0.002: significant. B: 1/5 -> 2/5 is not.
    expect(c.tasks[0].p_better).toBeCloseTo(1 / 1024, 8);
    expect(c.tasks[0].significant).toBe("better");
    expect(c.tasks[1].significant).toBe(null);
    // Improvements never fail a comparison.
    expect(c.status).toBe("passed");
  });
  it("compares money wrong per run with the unattributed run money kept apart", () => {
    const c = compare([{ id: "A", marks: "✓✓✓" }, { id: "B", marks: "✓✓✓" }], [{ id: "A", marks: "✓✗✓", cents: 24300 }, { id: "B", marks: "✓✓✓" }]);
    // One run of three put $243.00 wrong: $81.00 per run.
    expect(c.suite.dollars_wrong_per_run).toMatchObject({ base: { value: 0, low: 0, high: 0 }, new: { value: 8100 }, delta: { value: 8100 } });
    expect(c.suite.dollars_wrong_per_run!.delta.high).toBe(16200);
    expect(c.tasks[0].new!.dollars_wrong_per_run_cents).toBe(8100);
  });
  it("leaves infrastructure errors out of the counts and says so", () => {
    const c = compare([{ id: "A", marks: "✓✓✓" }, { id: "B", marks: "✓✓✓" }], [{ id: "A", marks: "✓!✓" }, { id: "B", marks: "✓✓✓" }]);
    const a = c.tasks[0];
    expect(a.new).toMatchObject({ trials: 2, passed: 2, infra_errors: 1, rate: 1, pattern: "✓!✓", flaky: false });
    expect(a.change).toBe("same");
    expect(c.warnings).toContain("new: 1 infrastructure error left out of the counts (they say nothing about the agent)");
  });
  it("matches tasks by id, warns about tasks in one run only and about a changed key", () => {
    const c = compare(
      [{ id: "A", marks: "✓✓✓" }, { id: "B", marks: "✓✓✓" }, { id: "C", marks: "✓✓✓" }],
      [{ id: "B", marks: "✓✓✓", expected: "refund $20.00" }, { id: "A", marks: "✓✓✓" }, { id: "D", marks: "✗✗✗" }],
    );
    expect(c.tasks.map((t) => [t.id, t.presence])).toEqual([["A", "both"], ["B", "both"], ["C", "base_only"], ["D", "new_only"]]);
    expect(c.suite.tasks).toBe(2);
    expect(c.warnings.join("\n")).toMatch(/B's expected line changed \("refund \$10.00" → "refund \$20.00"\)/);
    expect(c.warnings.join("\n")).toMatch(/1 keyed task only in the base \(C\)/);
    expect(c.warnings.join("\n")).toMatch(/1 keyed task only in the new run \(D\)/);
    expect(c.warnings.join("\n")).toMatch(/only 2 tasks in both/);
  });
  it("is inconclusive when no task ran in both", () => {
    const c = compare([{ id: "A", marks: "✓✓✓" }], [{ id: "B", marks: "✓✓✓" }]);
    expect(c.status).toBe("inconclusive");
    expect(c.exit_code).toBe(4);
  });
});

describe("readResults", () => {
  const good = serializeResults(syntheticRun([{ id: "A", marks: "✓✓" }]));
  it("names the file and the field of a problem", () => {
    const doc = JSON.parse(good);
    doc.crash_test.tasks[0].trials = "two";
    expect(() => readResultsValue(doc, "base.json")).toThrow(/^base\.json: crash_test\.tasks\.0\.trials: /);
    expect(() => readResultsText("{", "x.json")).toThrow(/^x\.json: not JSON/);
    expect(() => readResultsValue({ schema: "other/1" }, "y.json")).toThrow(/^y\.json: schema: expected "worlds\.results\/1", got "other\/1"/);
    expect(() => readResultsValue([], "z.json")).toThrow(CompareInputError);
  });
  it("refuses counts that do not add up and keys that reach a prototype", () => {
    const doc = JSON.parse(good);
    doc.crash_test.tasks[0].passed = 5;
    expect(() => readResultsValue(doc, "b.json")).toThrow(/crash_test\.tasks\.0: passed \(5\) and infra_errors \(0\) exceed trials \(2\)/);
    expect(() => readResultsText(`{"schema":"worlds.results/1","__proto__":{}}`, "p.json")).toThrow(/'__proto__' is not allowed/);
  });
  it("reads an early document as nothing to compare, and a saved run view by its results", () => {
    const early = readResultsValue({ schema: "worlds.results/1", status: "setup_failed", reason: "no server", next_action: "x", exit_code: 3, generated_at: null }, "e.json");
    expect(early).toMatchObject({ kind: "early", status: "setup_failed" });
    const view = { id: "run_x", status: "done", progress: { total: 2, finished: 2 }, results: JSON.parse(good) };
    expect(readResultsValue(view, "view.json").kind).toBe("full");
    expect(() => readResultsValue({ ...view, status: "running", results: null }, "v.json")).toThrow(/not done \(status running\)/);
  });
});
