import { describe, expect, it } from "vitest";
import { applyVerdicts, evaluateGates, parseGates } from "../gate/index";
import { buildResults } from "../results/build";
import { syntheticInput } from "../results/synthetic.fixture";
import { renderHtml } from "./html";
import { renderText } from "./text";

describe("flaky tasks apart from the ones that never pass", () => {
  const r = buildResults(syntheticInput());
  it("records each task's pattern and the tasks that never passed", () => {
    const byId = new Map(r.crash_test.tasks.map((t) => [t.id, t]));
    expect(byId.get("ZD-1041")!.pattern).toBe("✓✗✓");
    expect(byId.get("ZD-1060")!.pattern).toBe("✗✗✗");
    // The third run's world could not be created: an infrastructure error, not the agent's failure.
    expect(byId.get("ZD-1070")!.pattern).toBe("✓✓!");
    expect(byId.get("ZD-1050")!.pattern).toBe("");
    expect(r.crash_test.always_failing_tasks).toEqual(["ZD-1060"]);
  });
  it("lists them on separate lines in the text, with the patterns", () => {
    const text = renderText(r);
    expect(text).toContain("\nflaky (passed in some runs, not in others): ZD-1041 ✓✗✓\n");
    expect(text).toContain("\nnever passed: ZD-1060 ✗✗✗ (false_claim)\n");
  });
  it("and in the HTML", () => {
    const html = renderHtml(r);
    expect(html).toContain(`<p class="flaky"><b>Flaky</b> (passed in some runs, not in others): <code>ZD-1041</code> <span class="pattern">✓✗✓</span></p>`);
    expect(html).toContain(`<p class="never"><b>Never passed</b>: <code>ZD-1060</code> <span class="pattern">✗✗✗</span> <span class="hint">false_claim</span></p>`);
  });
});

describe("gates in the reports", () => {
  const built = buildResults(syntheticInput());
  const r = applyVerdicts(built, { gates: evaluateGates(built, parseGates(["pass^1>=0.5", "dollars_wrong<=1000"])) });
  it("are listed with their outcome and reason before the contract lines", () => {
    const text = renderText(r);
    expect(text).toMatch(/\ngates \(met only when the interval's bound clears them\):\n {2}[✓✗?] pass\^1>=0\.5 \w+ — pass\^1 /);
    expect(text).toMatch(/\n {2}[✓✗?] dollars_wrong<=1000 \w+ — dollars wrong per run \$81\.00 /);
    expect(text.trimEnd().split("\n").at(-2)).toMatch(/^status: /);
  });
  it("get a table in the HTML crash-test block", () => {
    expect(renderHtml(r)).toMatch(/<div id="gates"><h3>Gates .*<td><code>pass\^1&gt;=0\.5<\/code><\/td>/);
  });
});

describe("gates and the baseline in JUnit", () => {
  it("are testcases of their own, failed when not met", async () => {
    const { renderJunit } = await import("./junit");
    const built = buildResults(syntheticInput());
    const r = applyVerdicts(built, { gates: evaluateGates(built, parseGates(["pass^3>=0.99"])) });
    const xml = renderJunit(r);
    expect(xml).toMatch(/<testcase classname="worlds\/tasks\.yaml" name="gate pass\^3&gt;=0\.99" time="0">\n {6}<failure message="(failed|undecided): pass\^3 /);
  });
});
