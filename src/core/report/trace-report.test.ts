// The agent's calls in every report form, from the synthetic results (ZD-1041's worlds carry a trace; run 2 refunds
// the wrong charge): the HTML links calls and diff entries both ways, JUnit's failure body and --explain list them.
import { describe, expect, it } from "vitest";
import { buildResults } from "../results/build";
import { syntheticInput } from "../results/synthetic.fixture";
import { renderHtml } from "./html";
import { renderJunit } from "./junit";
import { renderExplain } from "./trace-text";

const results = buildResults(syntheticInput());

describe("the agent's calls in the reports", () => {
  it("the results keep each trial's trace, scrubbed", () => {
    const w = results.runs[1].worlds.find((x) => x.task === "ZD-1041")!;
    expect(w.trace?.total).toBe(5);
    const refund = w.trace!.steps[3];
    expect(refund).toMatchObject({ surface: "billing", method: "POST", target: "/v1/refunds", status: 200, changes: ["created refunds re_9"] });
    expect(refund.args).toBe("charge=ch_1 amount=24300 metadata[api_key]=…");
    expect(JSON.stringify(results)).not.toContain("abcdefgh12345678");
  });

  it("HTML: a failure lists its calls, each change linked to its diff row and each diff row to its call", () => {
    const html = renderHtml(results);
    const article = html.slice(html.indexOf('id="f-2-1"'), html.indexOf("</article>", html.indexOf('id="f-2-1"')));
    expect(article).toContain('<table class="trace">');
    expect(article).toContain('<tr id="t-2-1-4"');
    expect(article).toContain('<a href="#d-2-1-created-refunds-re_9"><code>created refunds re_9</code></a>');
    expect(article).toContain('<tr id="d-2-1-created-refunds-re_9">');
    expect(article).toContain('<a href="#t-2-1-4">#4</a>');
    expect(article).toContain("<code>cus_1</code>");
    expect(article).toContain("error: No such charge: &#39;ch_x&#39;");
    // Passed trials' calls are there, closed.
    expect(html).toMatch(/<details class="passed-trace" id="p-1-1"><summary>Run 1 · ZD-1041 · passed · 5 calls<\/summary>/);
  });

  it("JUnit: the failure's body lists the calls", () => {
    const xml = renderJunit(results);
    const failure = xml.slice(xml.indexOf("<failure", xml.indexOf("ZD-1041")), xml.indexOf("</failure>", xml.indexOf("ZD-1041")));
    expect(failure).toContain("calls (5):");
    expect(failure).toContain("#4 billing POST /v1/refunds charge=ch_1 amount=24300 metadata[api_key]=… → 200 refund re_9 amount=24300 status=succeeded [created refunds re_9]");
  });

  it("--explain: every trial of the task, why, and its calls in order", () => {
    const text = renderExplain(results, "ZD-1041");
    expect(text.split("\n")[0]).toBe('ZD-1041 "Charged twice for September" · expected refund $243.00 on duplicate');
    expect(text).toContain("run 2 (world w_2_1): overreach\n  why: refund re_9 on ch_1 is not the duplicate; the key allows ch_2 only\n  diff: created refunds re_9 (customer cus_1)");
    expect(text).toContain("    #3 billing POST /v1/refunds charge=ch_x amount=24300 → 404 error: No such charge: 'ch_x'");
    expect(renderExplain(results, "ZD-1042")).toContain("run 1 (world w_1_2): passed\n  reply: Your plan will end at the close of the period.\n  calls: not recorded");
    expect(renderExplain(results, "nope")).toBe("--explain nope: no such task in worlds/tasks.yaml (its tasks: ZD-1041, ZD-1042, ZD-1050, ZD-1060, ZD-1070)\n");
  });
});
