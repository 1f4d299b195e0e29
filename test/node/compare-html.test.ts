// The comparison page in a real browser (Debian's chromium through playwright-core), as someone opening it would:
// the verdict leads, the chart of moved tasks draws, task ids stay text, nothing is fetched. Also the run report's
// gates and flaky-pattern blocks.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compareResults } from "../../src/core/compare/compare";
import { readResultsText, type ResultsDocument } from "../../src/core/compare/input";
import { syntheticRun, uniform, type SyntheticTask } from "../../src/core/compare/synthetic.fixture";
import { applyVerdicts, evaluateGates, parseGates } from "../../src/core/gate/index";
import { renderCompareHtml } from "../../src/core/report/compare-html";
import { renderHtml } from "../../src/core/report/html";
import { serializeResults } from "../../src/core/results/index";
import { launchBrowser } from "./helpers/browser";

let browser: Browser;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "worlds-compare-html-"));
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const side = (tasks: SyntheticTask[], source: string) => ({ source, doc: (readResultsText(serializeResults(syntheticRun(tasks)), source) as { doc: ResultsDocument }).doc });

async function open(html: string, name: string): Promise<{ page: Page; requests: string[]; dialogs: string[]; url: string }> {
  const file = join(dir, name);
  await writeFile(file, html);
  const url = pathToFileURL(file).href;
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const requests: string[] = [];
  const dialogs: string[] = [];
  page.on("request", (r) => requests.push(r.url()));
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await page.goto(url, { waitUntil: "load" });
  return { page, requests, dialogs, url };
}

describe("comparison page in Chromium", () => {
  it("leads with the verdict, charts the tasks that moved, escapes ids and fetches nothing", async () => {
    const evil = `<img src=x onerror=alert(1)>`;
    const base: SyntheticTask[] = [...uniform("T", 8, "✓✓✓✓✓✓"), { id: evil, marks: "✗✓✗✓✗✓" }];
    const next = base.map((t, i) => (i < 2 ? { ...t, marks: "✗✗✗✗✗✗" } : i === 2 ? { ...t, marks: "✓✓✗✓✓✓" } : i === 8 ? { ...t, marks: "✓✓✓✓✓✓" } : t));
    const c = compareResults(side(base, "main-results.json"), side(next, "results.json"));
    expect(c.status).toBe("regressed");
    const { page, requests, dialogs, url } = await open(renderCompareHtml(c), "compare.html");

    expect(requests).toEqual([url]);
    expect(dialogs).toEqual([]);
    expect(await page.locator("img").count()).toBe(0);
    expect(await page.locator("script").count()).toBe(0);

    const verdict = page.locator("#verdict");
    expect(await verdict.isVisible()).toBe(true);
    const box = (await verdict.boundingBox())!;
    expect(box.y).toBeLessThan(260);
    expect(await verdict.locator(".badge").innerText()).toMatch(/regressed/i);
    expect(await verdict.innerText()).toContain("exit 1");
    expect(await verdict.locator("pre.cmd").innerText()).toContain("--runs 10");

    // The suite table: one row per k, the money, the successes.
    expect(await page.locator("#suite table.suite tr").count()).toBe(1 + 6 + 2);

    // Worse (T-1, T-2, T-3) and better (the escaped id): each has a base and a new point and interval.
    const svg = page.locator("svg.dumbbell");
    expect(await svg.isVisible()).toBe(true);
    const svgBox = (await svg.boundingBox())!;
    expect(svgBox.width).toBeGreaterThan(500);
    expect(await svg.locator("g.row").count()).toBe(4);
    expect(await svg.locator("circle.pt").count()).toBe(8);
    expect(await svg.locator("g.row.worse").count()).toBe(3);
    expect(await svg.locator("text.id").last().textContent()).toBe(evil.slice(0, 21) + "…");

    expect(await page.locator("#worse table tr").count()).toBe(1 + 3);
    expect(await page.locator("#better td.id").innerText()).toBe(evil);
    expect(await page.locator("#became-flaky td.id").allInnerTexts()).toEqual(["T-3"]);
    expect(await page.locator("#worse .tag.bad").count()).toBe(2);
    expect(await page.locator("#tasks table tr").count()).toBe(1 + 9);

    const shot = await page.screenshot({ fullPage: true });
    expect(shot.length).toBeGreaterThan(30_000);
    if (process.env.WORLDS_COMPARE_SCREENSHOT) await writeFile(process.env.WORLDS_COMPARE_SCREENSHOT, shot);
    await page.close();
  });

  it("renders no change, and an inconclusive comparison, without errors", async () => {
    for (const [base, next, status] of [
      [uniform("T", 3, "✓✓✓"), uniform("T", 3, "✓✓✓"), /passed/i],
      [uniform("A", 2, "✓✓"), uniform("B", 2, "✓✓"), /inconclusive/i],
    ] as const) {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(String(e)));
      await page.setContent(renderCompareHtml(compareResults(side([...base], "a.json"), side([...next], "b.json"))));
      expect(await page.locator("#verdict .badge").innerText()).toMatch(status);
      expect(await page.locator("#chart .hint").innerText()).toBe("No task's pass rate changed.");
      expect(errors).toEqual([]);
      await page.close();
    }
  });
});

describe("run report: gates and flaky patterns in Chromium", () => {
  it("shows the gates table and the flaky and never-passed lines in the crash-test block", async () => {
    const built = syntheticRun([...uniform("T", 4, "✓✓✓"), { id: "F", marks: "✓✗✓" }, { id: "N", marks: "✗✗✗", cents: 500 }]);
    const r = applyVerdicts(built, { gates: evaluateGates(built, parseGates(["pass^3>=0.8", "dollars_wrong<=100"])) });
    const { page, requests, url } = await open(renderHtml(r), "report.html");
    expect(requests).toEqual([url]);
    const gates = page.locator("#crash-test #gates");
    expect(await gates.isVisible()).toBe(true);
    expect(await gates.locator("tr").count()).toBe(3);
    expect(await gates.locator("tr.gate-undecided td.outcome, tr.gate-failed td.outcome").first().innerText()).toMatch(/undecided|failed/);
    expect(await page.locator("#crash-test p.flaky").innerText()).toBe("Flaky (passed in some runs, not in others): F ✓✗✓");
    expect(await page.locator("#crash-test p.never").innerText()).toBe("Never passed: N ✗✗✗ wrong_amount");
    await page.close();
  });
});
