import { describe, expect, it } from "vitest";
import { compareResults } from "../compare/compare";
import { readResultsText, type ResultsDocument } from "../compare/input";
import { syntheticRun, uniform, type SyntheticTask } from "../compare/synthetic.fixture";
import { serializeResults } from "../results/index";
import { renderCompareHtml } from "./compare-html";
import { renderCompareText } from "./compare-text";

function compare(base: SyntheticTask[], next: SyntheticTask[]) {
  const side = (tasks: SyntheticTask[], source: string) => ({ source, doc: (readResultsText(serializeResults(syntheticRun(tasks)), source) as { doc: ResultsDocument }).doc });
  return compareResults(side(base, "main.json"), side(next, "pr.json"));
}

const base = uniform("T", 6, "✓✓✓✓✓");
const next = base.map((t, i) => (i === 0 ? { ...t, marks: "✗✗✗✗✗", cents: 1000 } : i === 1 ? { ...t, marks: "✓✗✓✓✓" } : t));

describe("renderCompareText", () => {
  const c = compare(base, next);
  const text = renderCompareText(c);
  it("leads with both runs, tabulates the suite, lists what moved with patterns, and ends with the contract lines", () => {
    const lines = text.trimEnd().split("\n");
    expect(lines[0]).toBe("compare: base main.json (5 runs · 6 keyed tasks · passed) → new pr.json (5 runs · 6 keyed tasks · policy_failed)");
    expect(text).toMatch(/^pass\^1 +100% \[\d+–100%\] +\d+% \[\d+–\d+%\] +−\d+ pts \[/m);
    expect(text).toMatch(/^dollars wrong per run +\$0\.00 \[\$0\.00–\$0\.00\] +\$10\.00 /m);
    expect(text).toContain("worse (2), most evidence first:");
    expect(text).toMatch(/^ {2}T-1 +✓✓✓✓✓ → ✗✗✗✗✗ +5\/5 100% \[57–100%\] → 0\/5 0% \[0–43%\] +p = 0\.00098, adjusted 0\.0068 +significant regression$/m);
    expect(text).toMatch(/^became flaky \(1\):\n {2}T-2 +✓✓✓✓✓ → ✓✗✓✓✓$/m);
    expect(text).toContain("unchanged: 4 tasks");
    expect(lines.at(-2)).toMatch(/^status: regressed \(exit 1\) — significant regression at 0\.05, Holm over 7 tests: T-1 5\/5 → 0\/5/);
    expect(lines.at(-1)).toMatch(/^next: read T-1 in the new run's report, then rerun it to confirm: worlds passk --tasks worlds\/tasks\.yaml --server auto --task T-1 --runs 10 -- node agent\.mjs$/);
  });
  it("can leave the contract lines to the caller (passk --baseline ends with its own)", () => {
    expect(renderCompareText(c, { contract: false })).not.toMatch(/^status:/m);
  });
});

describe("renderCompareHtml", () => {
  it("is one page that loads nothing, with every id escaped", () => {
    const c = compare([{ id: `<img src=x onerror=alert(1)>`, marks: "✓✓✓" }, ...base.slice(0, 2)], [{ id: `<img src=x onerror=alert(1)>`, marks: "✗✗✗" }, ...base.slice(0, 2)]);
    const html = renderCompareHtml(c);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;`);
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(html).not.toMatch(/<script|https?:\/\//);
  });
});
