// The measure settings on a team's tools through the real CLI (no server): a recipe names its dials and the set
// decides their levels; custom lists its own; card, controls: true and another generator's label are refused in
// a line that names the setting; every arm's tasks file is written, the same bytes twice.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, runCli } from "./helpers/cli";

let dir: string;
const config = () => join(dir, "worlds", "tools.yaml");
const INIT = ["tools", "init", "--own-file", "tools.json", "--own-name", "acme", "--own-read", "get_order", "--own-read", "search_orders", "--own-read", "list_channels", "--own-flow", "get_order.id:refund_order.order_id"];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "worlds-tools-recipes-"));
  cpSync(join(ROOT, "test", "fixtures", "tools", "orders.openai.json"), join(dir, "tools.json"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("worlds tools: recipes and settings", () => {
  it("init --preset first-look: one dial that bites, first and top level; doctor lists every dial or why not", async () => {
    const init = await runCli([...INIT, "--preset", "first-look"], { cwd: dir });
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain("the first-look recipe: depth at 1 and 2, 10 tasks each");
    const doc = await runCli(["tools", "doctor"], { cwd: dir });
    expect(doc.stdout).toMatch(/dial block\s+unavailable: blocks of 8 and 16 tools need at least 16 usable tools; the set has 5/);
    expect(doc.stdout).toMatch(/dial history\s+levels 0 tokens, 300 tokens, 600 tokens, 1200 tokens, 2400 tokens/);
    const gen = await runCli(["tools", "generate"], { cwd: dir });
    expect(gen.code, gen.stderr).toBe(0);
    expect(gen.stdout).toContain("differ from them in the dial's part alone");
    const bytes = readFileSync(join(dir, "worlds", "tasks", "depth-2.jsonl"), "utf8");
    await runCli(["tools", "generate"], { cwd: dir });
    expect(readFileSync(join(dir, "worlds", "tasks", "depth-2.jsonl"), "utf8")).toBe(bytes);
    const row = JSON.parse(bytes.split("\n")[0]) as { dial: { name: string; level: number } };
    expect(row.dial).toEqual({ name: "depth", level: 2, label: "2" });
  });

  it("custom names its dials; history rows carry their seeded calls", async () => {
    const init = await runCli([...INIT, "--force", "--preset", "custom", "--dial", "history", "--dial", "faults"], { cwd: dir });
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain("a custom recipe: history at 0 tokens, 300 tokens, 600 tokens, 1200 tokens and 2400 tokens; faults at 0, 1, 2 and 4");
    expect((await runCli(["tools", "generate"], { cwd: dir })).code).toBe(0);
    const row = JSON.parse(readFileSync(join(dir, "worlds", "tasks", "history-600.jsonl"), "utf8").split("\n")[0]) as { history: { tokens: number; calls: unknown[] } };
    expect(row.history.tokens).toBeGreaterThanOrEqual(600);
  });

  it("refuses card, controls: true, a custom recipe without dials, an unknown dial and another generator's label", async () => {
    const card = await runCli([...INIT, "--force", "--preset", "card"], { cwd: dir });
    expect(card.code).toBe(2);
    expect(card.stderr).toMatch(/--preset\/--dial: card is not a recipe on your own tools/);
    const bare = await runCli([...INIT, "--force", "--preset", "custom"], { cwd: dir });
    expect(bare.stderr).toMatch(/preset: custom needs its dials/);
    const gen = await runCli([...INIT, "--force", "--generator-version", "own-2"], { cwd: dir });
    expect(gen.stderr).toMatch(/--generator-version: must be own-1/);
    expect((await runCli([...INIT, "--force", "--preset", "recovery"], { cwd: dir })).code).toBe(0);
    const text = readFileSync(config(), "utf8");
    writeFileSync(config(), text.replace("controls: false", "controls: true"));
    const controls = await runCli(["tools", "generate"], { cwd: dir });
    expect(controls.code).toBe(2);
    expect(controls.stderr).toMatch(/worlds\/tools.yaml: measure.controls: controls: true is refused on your own tools/);
    writeFileSync(config(), text.replace("preset: recovery", "preset: custom\n  dials: [distractor]").replace("  dials: []\n", ""));
    expect((await runCli(["tools", "doctor"], { cwd: dir })).stderr).toMatch(/measure.dials.0/);
    writeFileSync(config(), `${text}generator_version: own-9\n`);
    expect((await runCli(["tools", "doctor"], { cwd: dir })).stderr).toMatch(/generator_version: must be own-1/);
  });

  it("a recipe needing a dial the set does not reach is refused with that dial's reason", async () => {
    const res = await runCli(["tools", "init", "--own-file", "tools.json", "--force", "--preset", "chains"], { cwd: dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/chains needs dials this set does not reach: depth \(no flow is declared/);
  });
});
