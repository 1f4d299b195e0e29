// The JUnit file must be well-formed XML even when replies carry control characters: parse it with a real XML
// parser (Chromium's DOMParser) and read it back the way a CI dashboard would.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { renderJunit } from "../../src/core/report/junit";
import { buildResults } from "../../src/core/results/build";
import { syntheticInput } from "../../src/core/results/synthetic.fixture";
import { launchBrowser } from "./helpers/browser";

// The callback below runs in the page; tsconfig has no DOM lib, so name the little of it used here.
interface XmlNode {
  textContent: string | null;
  getAttribute(name: string): string | null;
  querySelector(sel: string): XmlNode | null;
  querySelectorAll(sel: string): Iterable<XmlNode>;
}
declare const DOMParser: new () => { parseFromString(text: string, type: string): XmlNode };

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

it("parses as XML and reads back one testcase per task", async () => {
  const input = syntheticInput();
  const ep = input.episodes[0];
  input.episodes[0] = { ...ep, grades: [{ ticket: 1, verdict: "no_reply", reply: "bell\u0007 nul\u0000 esc\u001b ]]> end" }] };
  const xml = renderJunit(buildResults(input));
  const page = await browser.newPage();
  const parsed = await page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, "application/xml");
    const err = doc.querySelector("parsererror");
    return {
      error: err ? err.textContent : null,
      cases: [...doc.querySelectorAll("testcase")].map((c) => ({
        name: c.getAttribute("name"),
        outcome: c.querySelector("failure") ? "failure" : c.querySelector("error") ? "error" : c.querySelector("skipped") ? "skipped" : "passed",
      })),
      out: doc.querySelector("testcase system-out")?.textContent ?? "",
    };
  }, xml);
  await page.close();
  expect(parsed.error).toBeNull();
  expect(parsed.cases.map((c) => c.outcome)).toEqual(["failure", "passed", "skipped", "failure", "error", "passed"]);
  expect(parsed.cases[0].name).toBe("ZD-1041: Charged twice for September");
  expect(parsed.out).toContain("bell\ufffd nul\ufffd esc\ufffd ]]> end");
});
