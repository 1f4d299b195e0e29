// The card on your tools end to end: a real `worlds tools run` of the recovery recipe (the faults dial) on the
// spec's five-tool file with the literal agent, which never retries a call that failed, so every level past the
// first breaks; then `worlds tools card` reads the run's folder, `card --compare` lays it beside a copy of itself
// (same file, settings and seed) and refuses, in one line, a run on another seed. Errors name the folder or file.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killAllStarted, ROOT, runCli } from "./helpers/cli";
import { launchBrowser } from "./helpers/browser";

let dir: string;
const agent = join(ROOT, "examples", "agents", "tools-literal.mjs");
const folder = () => join(dir, "worlds", "runs", "recovery-agent-bf34e029");
const read = (...p: string[]) => readFileSync(join(...p), "utf8");

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "worlds-tools-card-"));
  cpSync(join(ROOT, "test", "fixtures", "tools", "orders.openai.json"), join(dir, "tools.json"));
  const init = await runCli(["tools", "init", "--own-file", "tools.json", "--own-name", "acme", "--own-read", "get_order", "--own-read", "search_orders", "--own-read", "list_channels", "--preset", "recovery"], { cwd: dir });
  expect(init.code, init.stderr).toBe(0);
  const config = join(dir, "worlds", "tools.yaml");
  writeFileSync(config, read(config).replace("tasks_per_arm: 10", "tasks_per_arm: 2"));
});

afterAll(() => {
  killAllStarted();
  rmSync(dir, { recursive: true, force: true });
});

const run = (cwd = dir) => runCli(["tools", "run", "--server", "auto", "--runs", "1", "--", process.execPath, agent], { cwd, timeoutMs: 400_000 });

describe("worlds tools card", () => {
  it("reads the run's folder: each faults level against 0, what it does not claim, the run, and the episodes where it broke most", { timeout: 480_000 }, async () => {
    const none = await runCli(["tools", "card"], { cwd: dir });
    expect(none.code).toBe(2);
    expect(none.stderr).toBe(`worlds tools card: no tools run on tools.json under ${join("worlds", "runs")} yet: 'worlds tools run' makes one (or name a run's folder with --run)\n`);

    const ran = await run();
    expect(ran.code, ran.stderr + ran.stdout).toBe(1);
    expect(ran.stderr).toContain("'worlds tools card --run worlds/runs/recovery-agent-bf34e029' reads it");

    const card = await runCli(["tools", "card"], { cwd: dir });
    expect(card.code, card.stderr).toBe(0);
    expect(card.stdout).toMatch(/^# The card on your tools\n\nMeasured on your tools \(acme, 5 tools from an OpenAI tools file\), with responses simulated from your schemas\. Your backend was never called\.\n/);
    expect(card.stdout).toContain("| 0 | 2 | 100% | 34%–100% | (first level) | 2 |");
    expect(card.stdout).toMatch(/\| 1 \| 0 \| 0% \| 0%–66% \| −100 pts, intervals overlap \| 2 \|/);
    expect(card.stdout).toContain("| 4 | 0 | 0% |");
    expect(card.stdout).toContain("choosing a tool was partly a word match");
    expect(card.stdout).toContain("recovery-agent-bf34e029: agent " + process.execPath + " " + agent + ", 1 repetition of each task; no model spend recorded (the agent was a command); 8 of 8 episodes kept");
    expect(card.stdout).toContain("faults at 1 (0% passed): its 2 episodes are in this run's own card.");
    expect(card.stdout).toContain(`wrote ${join("worlds", "runs", "recovery-agent-bf34e029", "card", "card.md")} and `);

    // The file holds the episodes: the call the world refused with a planned fault, its arguments, its answer, the reply.
    const md = read(folder(), "card", "card.md");
    expect(md).toContain("## Where it broke most: faults at 1 (0% passed)");
    expect(md.match(/^### .* · run 1 · wrong_state$/gm)).toHaveLength(2);
    expect(md).toMatch(/1\. ` \w+ ` → 503\n {3}- arguments: ` \{.*\} `\n {3}- simulated answer: ` \{"error":\{"code":"unavailable"/);
    expect(md).toContain("Last reply:\n\n```\nDone: I made the calls the request asked for.\n```");

    // The same folder, read from elsewhere and named another way, gives the same bytes.
    const html = read(folder(), "card", "card.html");
    const again = await runCli(["tools", "card", "--run", join(folder(), ".")], { cwd: ROOT });
    expect(again.code, again.stderr).toBe(0);
    expect(read(folder(), "card", "card.md")).toBe(md);
    expect(read(folder(), "card", "card.html")).toBe(html);

    // The real run's card in the browser: no errors, the open episode shows the refused call.
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const problems: string[] = [];
      page.on("pageerror", (e) => problems.push(String(e)));
      page.on("console", (m) => void (m.type() === "error" ? problems.push(m.text()) : undefined));
      await page.goto(pathToFileURL(join(folder(), "card", "card.html")).href);
      expect(problems).toEqual([]);
      expect(await page.locator("table.levels tbody tr").count()).toBe(4);
      expect(await page.locator("details.episode[open] li.call.failed .status").first().innerText()).toBe("503");
      expect(await page.locator("details.episode[open] .reply pre").innerText()).toBe("Done: I made the calls the request asked for.");
    } finally {
      await browser.close();
    }
  });

  it("--compare: beside a run on the same file, settings and seed; one line when the seed differs", { timeout: 480_000 }, async () => {
    cpSync(folder(), join(dir, "worlds", "runs", "saved"), { recursive: true });
    const same = await runCli(["tools", "card", "--compare", join("worlds", "runs", "saved")], { cwd: dir });
    expect(same.code, same.stderr).toBe(0);
    const compareMd = join(folder(), "card", "compare.md");
    expect(same.stdout).toBe(`same tool file, settings and seeds: recovery-agent-bf34e029 and saved stand side by side in ${join("worlds", "runs", "recovery-agent-bf34e029", "card", "compare.md")} and ${join("worlds", "runs", "recovery-agent-bf34e029", "card", "compare.html")}, each whole, nothing pooled\n`);
    const both = read(compareMd);
    expect(both).toContain("# recovery-agent-bf34e029\n");
    expect(both).toContain("# saved\n");
    expect(both.match(/^## Dial: faults$/gm)).toHaveLength(2);
    expect(both).not.toContain("### ");
    expect(existsSync(join(folder(), "card", "compare.html"))).toBe(true);

    const config = join(dir, "worlds", "tools.yaml");
    writeFileSync(config, read(config).replace(/^seed: \d+$/m, "seed: 99"));
    const ran = await run();
    expect(ran.code, ran.stderr + ran.stdout).toBe(1);
    const other = await runCli(["tools", "card", "--compare", join("worlds", "runs", "saved")], { cwd: dir });
    expect(other.code, other.stderr).toBe(0);
    expect(other.stdout).toMatch(/^different seeds \(99 vs 1\): the two cards do not compare, so neither is laid beside the other\n$/);
    expect(read(compareMd), "nothing written when they do not compare").toBe(both);
  });

  it("a missing or broken folder is named in one line (exit 2)", async () => {
    const missing = await runCli(["tools", "card", "--run", "worlds/runs/nowhere"], { cwd: dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^worlds tools card: worlds\/runs\/nowhere: no such folder/);
    const compare = await runCli(["tools", "card", "--compare", "worlds/runs/nowhere"], { cwd: dir });
    expect(compare.code).toBe(2);
    expect(compare.stderr).toMatch(/^worlds tools card: worlds\/runs\/nowhere: no such folder/);
    const broken = join(dir, "worlds", "runs", "broken");
    cpSync(join(dir, "worlds", "runs", "saved"), broken, { recursive: true });
    const lines = read(broken, "episodes.jsonl").split("\n");
    lines[1] = lines[1].slice(0, 20);
    writeFileSync(join(broken, "episodes.jsonl"), lines.join("\n"));
    const bad = await runCli(["tools", "card", "--run", "worlds/runs/broken"], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^worlds tools card: worlds\/runs\/broken\/episodes\.jsonl:2: not JSON/);
    rmSync(join(broken, "run.json"));
    const empty = await runCli(["tools", "card", "--run", "worlds/runs/broken"], { cwd: dir });
    expect(empty.stderr).toBe("worlds tools card: worlds/runs/broken: no tools run here (no run.json; 'worlds tools run' writes one)\n");
  });
});
