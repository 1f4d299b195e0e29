// `worlds init` then `worlds passk` from the user's own project directory (outside the package), through the
// real CLI: the written files run, and the workflow's placeholder agent command exits 2 until replaced.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { killAllStarted, ROOT, runCli } from "./helpers/cli";

afterAll(killAllStarted);

const SLOW = 300_000;

describe("worlds init, then passk", () => {
  const dir = mkdtempSync(join(tmpdir(), "worlds-init-e2e-"));

  it("init --yes writes a starter that passk runs from the project directory", async () => {
    const init = await runCli(["init", "--yes"], { cwd: dir });
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain("wrote worlds/tasks.yaml: 15 tasks");
    const ids = [...readFileSync(join(dir, "worlds", "tasks.yaml"), "utf8").matchAll(/^ {2}- id: (\S+)/gm)].map((m) => m[1]);
    expect(ids).toHaveLength(15);
    // Two tasks keep the run short; the server starts from the project directory (a regression: Miniflare
    // resolved the Worker's modules against the working directory and refused to start outside the package).
    const res = await runCli(
      ["passk", "--server", "auto", "--tasks", "worlds/tasks.yaml", "--runs", "1", "--task", ids[0], "--task", ids[2], "--json", "--", "node", join(ROOT, "examples", "agents", "careful.mjs")],
      { cwd: dir, timeoutMs: 240_000 },
    );
    const doc = JSON.parse(res.stdout) as { status: string; exit_code: number };
    expect(["passed", "policy_failed"], res.stderr).toContain(doc.status);
    expect(res.code).toBe(doc.exit_code);
    expect(res.leftovers).toEqual([]);
  }, SLOW);

  it("the workflow's placeholder agent command is configuration_incomplete (exit 2)", async () => {
    const workflow = readFileSync(join(dir, ".github", "workflows", "worlds.yml"), "utf8");
    // The step's own line, without the baseline array its script adds when main's results were restored.
    // No package.json in this project: the step runs the pinned version through npx (npx --yes worlds@V passk ...).
    const command = /^\s*npx --yes worlds@\S+ (passk .+)$/m.exec(workflow)![1].split(" ").filter((w) => w !== '"${BASELINE[@]}"');
    const res = await runCli([...command.slice(0, command.indexOf("--")), "--task", "1", "--runs", "1", ...command.slice(command.indexOf("--"))], { cwd: dir, timeoutMs: 240_000 });
    expect(res.code, res.stdout + res.stderr).toBe(2);
    expect(res.stdout).toContain("configuration_incomplete");
    expect(res.stdout).toContain("REPLACE_WITH_YOUR_AGENT_COMMAND");
  }, SLOW);
});
