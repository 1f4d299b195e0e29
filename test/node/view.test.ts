// `worlds view DIR` in a real browser (Debian's chromium through playwright-core), as a user browsing a folder of
// mixed runs would: the index lists account, tools, evals and family runs with filters, each run's report shows
// the agent's calls, two runs compare, a tools run's card opens; by keyboard alone, at a 390 px phone width,
// with no console error and nothing fetched from anywhere but the view itself.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { syntheticRun, uniform } from "../../src/core/compare/synthetic.fixture";
import { fixtureEpisodes, fixtureRecord } from "../../src/core/kinds/tools/card/card.fixture";
import { buildResults, serializeResults } from "../../src/core/results/index";
import { syntheticInput } from "../../src/core/results/synthetic.fixture";
import { launchBrowser } from "./helpers/browser";
import { killAllStarted, runCli, startCli, type CliProcess } from "./helpers/cli";

let browser: Browser;
let dir: string;
let cli: CliProcess;
let base: string;

const invocation = (command: string[], source: string[]) => ({ agent_command: ["node", "agent.mjs"], server_flags: [], replay_flags: [], source_flags: source, command });

function write(rel: string, text: string, ageMinutes: number) {
  const path = join(dir, rel);
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
  const t = new Date(Date.UTC(2026, 11, 4, 12, 0) - ageMinutes * 60_000);
  utimesSync(path, t, t);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "worlds-view-"));
  write("ci/acme.json", serializeResults(buildResults(syntheticInput())), 1);
  write("ci/before.json", serializeResults(syntheticRun(uniform("T", 4, "✓✗✓"))), 30);
  write("ci/after.json", serializeResults(syntheticRun(uniform("T", 4, "✓✓✓"))), 20);
  const folder = "worlds/runs/custom-agent-bbbbbbbb";
  write(`${folder}/results.json`, serializeResults(buildResults(syntheticInput({ invocation: invocation(["tools", "run"], ["--config", "worlds/tools.yaml"]) }))), 5);
  write(`${folder}/run.json`, JSON.stringify(fixtureRecord()), 5);
  write(`${folder}/episodes.jsonl`, fixtureEpisodes().map((e) => JSON.stringify(e)).join("\n") + "\n", 5);
  write("evals/results.json", serializeResults(buildResults(syntheticInput({ invocation: invocation(["evals", "run"], ["evals/tasks.jsonl"]) }))), 10);
  write("family/results.json", serializeResults(buildResults(syntheticInput({ invocation: invocation(["family", "gate"], ["refunds"]) }))), 15);
  // Not runs: a package file, an early stop, and a results document broken on purpose (left out, and said so).
  write("package.json", JSON.stringify({ name: "x" }), 40);
  write("ci/early.json", JSON.stringify({ schema: "worlds.results/1", status: "setup_failed", reason: "no server", next_action: "x", exit_code: 3, generated_at: null }), 40);
  write("ci/broken.json", JSON.stringify({ schema: "worlds.results/1", runs: [], status: "passed" }), 40);
  mkdirSync(join(dir, "node_modules", "pkg"), { recursive: true });
  writeFileSync(join(dir, "node_modules", "pkg", "r.json"), serializeResults(syntheticRun(uniform("N", 1, "✓"))));
  cli = startCli(["view", dir, "--port", "0"]);
  const out = await cli.waitFor(/at (http:\/\/127\.0\.0\.1:\d+\/)/);
  base = /at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out)![1];
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  cli?.child.kill("SIGINT");
  if (cli) await cli.exited;
  await killAllStarted();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Watched {
  page: Page;
  problems: string[];
}

async function open(path: string, width = 1280): Promise<Watched> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("request", (r) => {
    if (!r.url().startsWith(base)) problems.push(`fetched ${r.url()}`);
  });
  await page.goto(new URL(path, base).href, { waitUntil: "load" });
  return { page, problems };
}

const rows = (page: Page) => page.locator("table tr:has(td)");

describe("worlds view", () => {
  it("indexes every run under the folder, newest first, with kind, status, pass^k and money; filters by kind, agent and status", async () => {
    const { page, problems } = await open("/");
    expect(await rows(page).count()).toBe(6);
    const kinds = await rows(page).locator("td:nth-child(4)").allInnerTexts();
    expect(kinds).toEqual(["account", "tools", "evals", "family", "account", "account"]);
    const first = await rows(page).first().innerText();
    expect(first).toContain("worlds/tasks.yaml");
    expect(first).toContain("ci/acme.json");
    expect(first).toContain("policy failed");
    expect(first).toMatch(/pass\^3 25%\s*5–70%/);
    expect(first).toContain("$243.00");
    expect(await page.locator("body").innerText()).toContain("left out ci/broken.json");
    expect(await page.locator("body").innerText()).not.toContain("node_modules");
    // A rerun line per run.
    expect(await rows(page).first().locator("details code").textContent()).toBe("worlds passk --tasks worlds/tasks.yaml --server auto --runs 3 -- node 'examples/agents/my agent.mjs' --say 'it'\\''s'");

    await page.selectOption("select[name=kind]", "tools");
    await Promise.all([page.waitForURL(/kind=tools/), page.click("form.filters button")]);
    expect(await rows(page).count()).toBe(1);
    expect(await rows(page).first().innerText()).toContain("worlds/runs/custom-agent-bbbbbbbb/results.json");
    await page.goto(new URL("/?status=passed", base).href);
    expect(await rows(page).count()).toBe(1);
    await page.goto(new URL(`/?agent=${encodeURIComponent("node agent.mjs")}`, base).href);
    expect(await rows(page).locator("td:nth-child(4)").allInnerTexts()).toEqual(["tools", "evals", "family", "account", "account"]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("by keyboard: Tab to a run's report, its calls linked to the diff both ways; a tools card; two runs compared", async () => {
    const { page, problems } = await open("/");
    let text = "";
    for (let i = 0; i < 40 && text !== "report"; i++) {
      await page.keyboard.press("Tab");
      text = await page.evaluate(() => (document.activeElement as HTMLElement | null)?.innerText ?? "");
    }
    expect(text).toBe("report");
    await Promise.all([page.waitForURL(/\/runs\/[0-9a-f]{12}$/), page.keyboard.press("Enter")]);
    expect(await page.locator("nav[aria-label='worlds view']").innerText()).toContain("rerun: worlds passk --tasks worlds/tasks.yaml");
    const calls = page.locator("#f-2-1 table.trace");
    expect(await calls.locator("tr:has(td)").count()).toBe(5);
    expect(await page.locator("#f-2-1 table.diff").innerText()).toContain("cus_1");
    await page.click("#f-2-1 table.trace a[href='#d-2-1-created-refunds-re_9']");
    expect(await page.evaluate(() => location.hash)).toBe("#d-2-1-created-refunds-re_9");
    await page.click("#d-2-1-created-refunds-re_9 a[href='#t-2-1-4']");
    expect(await page.evaluate(() => location.hash)).toBe("#t-2-1-4");
    // Passed trials' calls are closed until opened.
    const passed = page.locator("details#p-1-1");
    expect(await passed.locator("table.trace").isVisible()).toBe(false);
    await passed.locator("summary").click();
    expect(await passed.locator("table.trace").isVisible()).toBe(true);

    await page.goto(new URL("/?kind=tools", base).href);
    await Promise.all([page.waitForURL(/\/card$/), page.click("text=card")]);
    expect(await page.locator("h1").innerText()).toBe("The card on your tools");

    await page.goto(new URL("/", base).href);
    const options = await page.locator("select[name=a] option").allInnerTexts();
    const before = options.findIndex((o) => o.includes("ci/before.json"));
    const after = options.findIndex((o) => o.includes("ci/after.json"));
    await page.selectOption("select[name=a]", { index: before });
    await page.selectOption("select[name=b]", { index: after });
    await Promise.all([page.waitForURL(/\/compare\?/), page.click("form.compare button")]);
    expect(await page.locator("body").innerText()).toContain("ci/before.json");
    expect(await page.locator("nav[aria-label='worlds view'] a").first().innerText()).toBe("← all runs");

    await page.goto(new URL("/?kind=family", base).href);
    expect(await rows(page).first().locator("a", { hasText: "curve" }).getAttribute("href")).toMatch(/#trap-classes$/);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("fits a 390 px phone: no page-wide sideways scroll on the index or a report", async () => {
    for (const path of ["/", `/runs/${await firstRunId()}`]) {
      const { page, problems } = await open(path, 390);
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(wide, path).toBeLessThanOrEqual(390);
      expect(problems).toEqual([]);
      await page.close();
    }
  });

  it("answers a missing run with 404, refuses writes, and a folder that does not exist is exit 2", async () => {
    expect((await fetch(new URL("/runs/000000000000", base))).status).toBe(404);
    expect((await fetch(base, { method: "POST" })).status).toBe(405);
    const res = await fetch(base);
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    const missing = await runCli(["view", join(dir, "nope")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("no such folder");
  });
});

async function firstRunId(): Promise<string> {
  const html = await (await fetch(base)).text();
  return /href="\/runs\/([0-9a-f]{12})"/.exec(html)![1];
}
