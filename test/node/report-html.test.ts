// Renders the HTML report in a real browser (Debian's chromium through playwright-core), as a user opening the
// file would: the crash-test block leads, the pass^k SVG draws, agent text stays text, and nothing is fetched.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderHtml } from "../../src/core/report/html";
import { buildResults } from "../../src/core/results/build";
import { syntheticInput } from "../../src/core/results/synthetic.fixture";
import { launchBrowser } from "./helpers/browser";

let browser: Browser;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "worlds-report-"));
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("HTML report in Chromium", () => {
  it("leads with the crash test, draws the curve, escapes agent text and fetches nothing", async () => {
    const results = buildResults(syntheticInput());
    const file = join(dir, "report.html");
    await writeFile(file, renderHtml(results));
    const url = pathToFileURL(file).href;

    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const requests: string[] = [];
    const dialogs: string[] = [];
    page.on("request", (req) => requests.push(req.url()));
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(url, { waitUntil: "load" });

    // The only request is the file itself: no fonts, scripts, images or beacons.
    expect(requests).toEqual([url]);
    expect(dialogs).toEqual([]);

    const crash = page.locator("#crash-test");
    await expect.poll(() => crash.isVisible()).toBe(true);
    const box = (await crash.boundingBox())!;
    expect(box.y).toBeLessThan(200); // it leads the page, above the fold
    expect(await crash.locator(".badge").innerText()).toMatch(/policy failed/i);
    expect(await crash.innerText()).toContain("0 of 3");
    expect(await crash.innerText()).toContain(results.crash_test.worst_task!.replay);

    const svg = page.locator("svg.curve");
    expect(await svg.isVisible()).toBe(true);
    const svgBox = (await svg.boundingBox())!;
    expect(svgBox.width).toBeGreaterThan(300);
    expect(svgBox.height).toBeGreaterThan(150);
    expect(await svg.locator("circle.point").count()).toBe(3);
    expect(await svg.locator("polygon.band").count()).toBe(1);

    // The reply holding <script> is shown as text and nothing ran.
    expect(await page.locator("script").count()).toBe(0);
    const reply = page.locator("#f-1-4 pre.reply");
    expect(await reply.innerText()).toContain(`<script>alert("x")</script>`);
    expect(await page.locator("#grid td.cell").count()).toBe(15);
    expect(await page.locator("#grid .v-policy").count()).toBe(3);
    expect(await page.locator("#trap-classes tr").count()).toBe(5);
    expect(await page.locator("#failures article.failure").count()).toBe(5);

    const shot = await page.screenshot({ fullPage: true });
    expect(shot.length).toBeGreaterThan(20_000);
    const top = await page.screenshot({ clip: { x: box.x, y: box.y, width: box.width, height: Math.min(box.height, 800) } });
    expect(top.length).toBeGreaterThan(10_000);
    if (process.env.WORLDS_REPORT_SCREENSHOT) {
      await writeFile(process.env.WORLDS_REPORT_SCREENSHOT, shot);
    }
    await page.close();
  });

  it("renders a passed run and an empty one without errors", async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    const empty = buildResults(
      syntheticInput({ episodes: [], run_checks: [], setup_failure: { status: "setup_failed", reason: "no server at http://127.0.0.1:1", next_action: "start one with --server auto" } }),
    );
    await page.setContent(renderHtml(empty));
    expect(await page.locator("#crash-test .badge").innerText()).toMatch(/setup failed/i);
    expect(await page.locator("svg.curve text.empty").textContent()).toBe("no keyed task ran");
    expect(errors).toEqual([]);
    await page.close();
  });
});
