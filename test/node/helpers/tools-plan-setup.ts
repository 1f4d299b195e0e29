// The setting the plan and spend tests share: the scripted model server with the `planner` script, and a folder with
// the spec's five-tool file, a price for openai:planner ($2/$8 per million) and settings that keep only the call
// form at 4 tasks.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { loadScript } from "../../../src/core/models/scripted/index";
import { startScriptedServer } from "../../../src/cli/models/scripted-server";
import { killAllStarted, ROOT, runCli } from "./cli";

export async function plannerFolder(prefix: string) {
  const loaded = loadScript(readFileSync(join(ROOT, "test/fixtures/models/tools-plan.script.yaml"), "utf8"), "tools-plan.script.yaml");
  if (!loaded.ok) throw new Error(loaded.problems.join("\n"));
  const model = await startScriptedServer(loaded.script);
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cpSync(join(ROOT, "test", "fixtures", "tools", "orders.openai.json"), join(dir, "tools.json"));
  writeFileSync(join(dir, "prices.json"), JSON.stringify({ version: 1, models: { "openai:planner": { input: 2, output: 8 } } }));
  const init = await runCli(["tools", "init", "--own-file", "tools.json", "--own-name", "acme", "--own-read", "get_order", "--own-read", "search_orders", "--own-read", "list_channels"], { cwd: dir });
  expect(init.code, init.stderr).toBe(0);
  const config = join(dir, "worlds", "tools.yaml");
  writeFileSync(config, readFileSync(config, "utf8").replace("tasks_per_arm: 10", "tasks_per_arm: 4").replace(/arms:\n(  - .*\n)+/, "arms:\n  - call\n"));
  return {
    dir,
    model,
    env: () => ({ OPENAI_BASE_URL: model.env.OPENAI_BASE_URL, OPENAI_API_KEY: "sk-test-plan" }),
    async close() {
      killAllStarted();
      await model.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
