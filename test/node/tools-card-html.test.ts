// The card on your tools in a real browser (Debian's chromium through playwright-core, as the other HTML checks):
// opened as a file the way a user would, at a desktop and a phone width, and side by side. A broken card fails
// here: a script error or a console error, a fetch, a key block with no size, off the screen or on top of
// another, a grid column blown out by a long argument, agent text read as markup, or a blank screenshot.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVIL, fixtureEpisodes, fixtureRecord } from "../../src/core/kinds/tools/card/card.fixture";
import { buildCard, type ToolsCard } from "../../src/core/kinds/tools/card/model";
import { cardHtml, compareHtml } from "../../src/core/kinds/tools/card/render";
import { launchBrowser } from "./helpers/browser";

let browser: Browser;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "worlds-tools-card-"));
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const card = (name: string, agent: string): ToolsCard => {
  const r = fixtureRecord({ agent });
  // One call's arguments far longer than a column: it must wrap inside its card, not widen the page.
  const eps = fixtureEpisodes(r).map((e) => (e.task === "faults-2-t1" && e.run === 1 ? { ...e, calls: [{ ...e.calls[0], arguments: JSON.stringify({ note: "x".repeat(3000) }) }] } : e));
  return buildCard(name, r, eps);
};

interface Opened {
  page: Page;
  problems: string[];
  requests: string[];
  url: string;
}

async function open(html: string, name: string, width: number, height = 900): Promise<Opened> {
  const file = join(dir, name);
  await writeFile(file, html);
  const url = pathToFileURL(file).href;
  const page = await browser.newPage({ viewport: { width, height } });
  const problems: string[] = [];
  const requests: string[] = [];
  page.on("console", (m) => void (m.type() === "error" || m.type() === "warning" ? problems.push(`console ${m.type()}: ${m.text()}`) : undefined));
  page.on("pageerror", (e) => problems.push(`page error: ${String(e)}`));
  page.on("dialog", (d) => (problems.push(`dialog: ${d.message()}`), void d.dismiss()));
  page.on("request", (r) => requests.push(r.url()));
  await page.goto(url, { waitUntil: "load" });
  return { page, problems, requests, url };
}

type Box = { x: number; y: number; width: number; height: number };

async function boxOf(page: Page, selector: string): Promise<Box> {
  const el = page.locator(selector);
  expect(await el.count(), selector).toBe(1);
  expect(await el.isVisible(), `${selector} is visible`).toBe(true);
  const box = await el.boundingBox();
  expect(box, selector).not.toBeNull();
  expect(box!.width, `${selector} width`).toBeGreaterThan(0);
  expect(box!.height, `${selector} height`).toBeGreaterThan(0);
  return box!;
}

/** Laid out on the page: in the viewport's width (not cut off left or right) and the page does not scroll sideways. */
async function withinWidth(page: Page, selector: string, box: Box): Promise<void> {
  const width = page.viewportSize()!.width;
  expect(box.x, `${selector} left edge`).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, `${selector} right edge`).toBeLessThanOrEqual(width + 0.5);
}

async function noSidewaysScroll(page: Page): Promise<void> {
  const { scroll, inner } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
  expect(scroll, "the page's width against the window's: nothing sticks out sideways").toBeLessThanOrEqual(inner);
}

/** Blocks in document order, each below the one before it: none drawn over another. */
function stacked(named: Array<[string, Box]>): void {
  for (let i = 1; i < named.length; i++) {
    const [prevName, prev] = named[i - 1];
    const [name, box] = named[i];
    expect(box.y, `${name} starts below ${prevName}`).toBeGreaterThanOrEqual(prev.y + prev.height - 0.5);
  }
}

const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The screenshot drawn onto a canvas in the browser: how many pixels are not the page's white, and how many colours. */
async function inked(png: Buffer): Promise<{ ink: number; colours: number; pixels: number }> {
  const probe = await browser.newPage();
  await probe.setContent("<canvas></canvas>");
  const r = await probe.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.querySelector("canvas")!;
    c.width = img.width;
    c.height = img.height;
    const ctx = c.getContext("2d")!;
    ctx.drawImage(img, 0, 0);
    const d = ctx.getImageData(0, 0, img.width, img.height).data;
    let ink = 0;
    const colours = new Set<number>();
    for (let i = 0; i < d.length; i += 4) {
      if (d[i] < 240 || d[i + 1] < 240 || d[i + 2] < 240) ink++;
      if (colours.size < 5000) colours.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
    }
    return { ink, colours: colours.size, pixels: img.width * img.height };
  }, png.toString("base64"));
  await probe.close();
  return r;
}

describe("the card on your tools in Chromium", () => {
  for (const [label, width] of [["desktop", 1280], ["phone", 390]] as const)
    it(`${label} (${width}px): every block laid out in order, on screen, agent text as text, nothing fetched`, async () => {
      const { page, problems, requests, url } = await open(cardHtml(card("custom-openai-planner-bbbbbbbb", "openai:planner")), `card-${label}.html`, width);
      expect(problems).toEqual([]);
      expect(requests).toEqual([url]);
      expect(await page.locator("script").count()).toBe(0);

      const blocks: Array<[string, Box]> = [];
      for (const sel of ["h1", ".headline", ".dial:nth-of-type(1)", ".dial:nth-of-type(2)", ".not-claimed", ".run", "#episodes"]) {
        const box = await boxOf(page, sel);
        await withinWidth(page, sel, box);
        blocks.push([sel, box]);
      }
      stacked(blocks);
      expect(blocks[1][1].y, "the headline leads the page").toBeLessThan(200);
      for (const sel of [".dial:nth-of-type(1) .table-wrap", ".dial:nth-of-type(2) .table-wrap"]) await withinWidth(page, sel, await boxOf(page, sel));
      await noSidewaysScroll(page);

      // The dials' tables: a row per level, each pass rate drawn as its interval and a mark.
      expect(await page.locator(".dial:nth-of-type(1) tbody tr").count()).toBe(3);
      expect(await page.locator(".dial:nth-of-type(2) tbody tr").count()).toBe(2);
      const meter = await boxOf(page, '.dial:nth-of-type(1) tr[data-arm="faults-1"] .meter');
      expect(meter.width).toBeGreaterThan(40);
      expect(await page.locator('.dial:nth-of-type(1) tr[data-arm="faults-1"] td.against').innerText()).toBe("−83 pts, intervals apart");

      // The worst arm's episodes: the first open, its call's arguments and simulated answer side by side or stacked, never on top of each other.
      expect(await page.locator("details.episode").count()).toBe(6);
      expect(await page.locator("details.episode[open]").count()).toBe(1);
      const first = "details.episode[open]";
      expect(await page.locator(`${first} .request`).innerText()).toBe(`Refund ${EVIL}: amount 12.5.`);
      const args = await boxOf(page, `${first} pre.arguments`);
      const answer = await boxOf(page, `${first} pre.answer`);
      const reply = await boxOf(page, `${first} .reply pre`);
      for (const [sel, b] of [["arguments", args], ["answer", answer], ["reply", reply]] as const) await withinWidth(page, sel, b);
      expect(overlap(args, answer), "arguments and answer apart").toBe(false);
      expect(overlap(answer, reply) || overlap(args, reply), "the reply below the call").toBe(false);
      expect(await page.locator(`${first} pre.answer`).innerText()).toContain('"code": "unavailable"');
      expect(await page.locator(`${first} .reply pre`).innerText()).toBe(`It failed: ${EVIL}\nI gave up.`);
      // A closed episode opens on a click, as a reader browses them.
      const second = page.locator("details.episode").nth(1);
      await second.locator("summary").click();
      expect(await second.locator("pre.answer").isVisible()).toBe(true);

      const shot = await page.screenshot({ fullPage: true });
      const { ink, colours, pixels } = await inked(shot);
      expect(ink / pixels, "share of the page with something drawn").toBeGreaterThan(0.02);
      expect(colours, "text, tables and meters in several colours").toBeGreaterThan(50);
      if (process.env.WORLDS_CARD_SCREENSHOT) await writeFile(process.env.WORLDS_CARD_SCREENSHOT.replace(/\.png$/, `-${label}.png`), shot);
      await page.close();
    });

  for (const [label, width] of [["wide", 1280], ["narrow", 700]] as const)
    it(`side by side (${label}, ${width}px): two whole cards, apart, each inside its own column`, async () => {
      const { page, problems, requests, url } = await open(compareHtml(card("custom-openai-planner-bbbbbbbb", "openai:planner"), card("custom-anthropic-other-bbbbbbbb", "anthropic:other")), `compare-${label}.html`, width);
      expect(problems).toEqual([]);
      expect(requests).toEqual([url]);
      const verdict = await boxOf(page, "#verdict");
      const a = await boxOf(page, "#card-a");
      const b = await boxOf(page, "#card-b");
      for (const [sel, box] of [["#verdict", verdict], ["#card-a", a], ["#card-b", b]] as const) await withinWidth(page, sel, box);
      expect(overlap(a, b), "the two cards apart").toBe(false);
      if (label === "wide") {
        expect(Math.abs(a.y - b.y), "side by side: level tops").toBeLessThan(1);
        expect(a.x + a.width).toBeLessThanOrEqual(b.x);
      } else expect(b.y, "one under the other on a narrow screen").toBeGreaterThanOrEqual(a.y + a.height);
      for (const [id, col] of [["#card-a", a], ["#card-b", b]] as const) {
        expect(await page.locator(`${id} .run-name`).innerText()).toBe(id === "#card-a" ? "custom-openai-planner-bbbbbbbb" : "custom-anthropic-other-bbbbbbbb");
        for (const sel of [".headline", ".dial:nth-of-type(1) .table-wrap", ".dial:nth-of-type(2) .table-wrap", ".not-claimed", ".run", ".worst"]) {
          const box = await boxOf(page, `${id} ${sel}`);
          expect(box.x, `${id} ${sel} inside its column`).toBeGreaterThanOrEqual(col.x - 0.5);
          expect(box.x + box.width, `${id} ${sel} inside its column`).toBeLessThanOrEqual(col.x + col.width + 0.5);
        }
      }
      await noSidewaysScroll(page);
      const shot = await page.screenshot({ fullPage: true });
      const { ink, pixels } = await inked(shot);
      expect(ink / pixels).toBeGreaterThan(0.02);
      await page.close();
    });
});
