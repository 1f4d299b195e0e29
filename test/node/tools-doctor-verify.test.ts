// Two checks around tasks on a team's tools, through the real CLI (no server): `tools doctor` warns when the newest
// run on the tool file was made on other bytes than the file holds now (and the next run's plan says why it gets a
// new folder); the commands that read account tasks files refuse a tools tasks file, or the tools settings, in
// one line that says where those tasks are judged.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, runCli } from "./helpers/cli";
import { loadTools } from "../../src/cli/tools/load";
import { generateArms } from "../../src/cli/tools/generate";
import { runFolderOf, writeRunFolder } from "../../src/cli/tools/folder";
import { loadTasks } from "../../src/cli/passk/load";
import type { AdminClient } from "../../src/cli/client";

let dir: string;
const INIT = ["tools", "init", "--own-file", "tools.json", "--own-name", "acme", "--own-read", "get_order", "--own-read", "search_orders", "--own-read", "list_channels"];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "worlds-tools-doctor-"));
  cpSync(join(ROOT, "test", "fixtures", "tools", "orders.openai.json"), join(dir, "tools.json"));
  const init = await runCli(INIT, { cwd: dir });
  expect(init.code, init.stderr).toBe(0);
  const gen = await runCli(["tools", "generate"], { cwd: dir });
  expect(gen.code, gen.stderr).toBe(0);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A run folder as `tools run` writes it, for the tool file as it is now. */
async function recordRun(agent: string): Promise<string> {
  const t = await loadTools(join(dir, "worlds", "tools.yaml"));
  const tasks = (await generateArms(t)).flatMap((a) => a.tasks);
  const folder = runFolderOf(t, agent);
  await writeRunFolder(folder, { t, tasks, runs: 1, agent, traces: [], total: tasks.length, dollars: null, budget: null, results: {} });
  return folder;
}

describe("tools doctor: the newest run's digest", () => {
  it("no warning while the newest run is on the file as it is; a warning that says what to do once the file changes", async () => {
    const firstPath = await recordRun("agent");
    const first = relative(dir, firstPath);
    const before = await runCli(["tools", "doctor"], { cwd: dir });
    expect(before.code, before.stderr).toBe(0);
    expect(before.stdout).not.toMatch(/warn/);
    const old = JSON.parse(readFileSync(join(firstPath, "run.json"), "utf8")) as { sha256: string };

    const tools = JSON.parse(readFileSync(join(dir, "tools.json"), "utf8")) as Array<{ function: { description: string } }>;
    tools[0].function.description += " Changed.";
    writeFileSync(join(dir, "tools.json"), JSON.stringify(tools, null, 2));
    const after = await runCli(["tools", "doctor"], { cwd: dir });
    expect(after.code, after.stderr).toBe(0);
    const warn = after.stdout.split("\n").filter((l) => l.includes("warn"));
    expect(warn).toHaveLength(1);
    expect(warn[0]).toContain(`the newest run on tools.json (${first}) was made on sha256 ${old.sha256.slice(0, 8)}`);
    expect(warn[0]).toMatch(/and the file now has [0-9a-f]{8}: its tasks changed \(every id with them\)/);
    expect(warn[0]).toContain("run 'worlds tools run' again to measure it (a new folder)");

    const plan = await runCli(["tools", "run", "--dry-run"], { cwd: dir });
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toMatch(new RegExp(`folder {6}worlds/runs/forms-agent-[0-9a-f]{8} \\(a new run: tools\\.json changed since the run in ${first.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} \\(sha256 ${old.sha256.slice(0, 8)}, now [0-9a-f]{8}\\), so every task's id changed\\)`));

    // A run on the changed file is now the newest: the warning goes.
    utimesSync(join(firstPath, "run.json"), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    const second = await recordRun("agent");
    expect(second).not.toBe(firstPath);
    const settled = await runCli(["tools", "doctor"], { cwd: dir });
    expect(settled.stdout).not.toMatch(/warn/);
  });
});

describe("account-tasks commands refuse tasks on your own tools, in one line", () => {
  it("tasks validate: a generated tasks file, and the tools settings", async () => {
    const tasks = await runCli(["tasks", "validate", "worlds/tasks/call.jsonl"], { cwd: dir });
    expect(tasks.code).toBe(2);
    expect(tasks.stdout).toBe("");
    expect(tasks.stderr).toBe(
      "error: worlds/tasks/call.jsonl holds tasks on your own tools, which worlds tasks validate does not judge on its own: a tools run judges every episode on them, by replay (worlds tools run; worlds tools doctor checks their settings)\n",
    );
    const settings = await runCli(["tasks", "validate", "worlds/tools.yaml"], { cwd: dir });
    expect(settings.code).toBe(2);
    expect(settings.stderr).toBe(
      "error: worlds/tools.yaml puts the tasks on your own tools, which worlds tasks validate does not judge on its own: a tools run judges every episode on them, by replay (worlds tools run --config worlds/tools.yaml)\n",
    );
  });

  it("tasks build refuses the same way and writes nothing", async () => {
    const res = await runCli(["tasks", "build", "worlds/tasks/read-then-call.jsonl", "--out-seed", "s.json", "--out-rubric", "r.json"], { cwd: dir });
    expect(res.code).toBe(2);
    expect(res.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(res.stderr).toMatch(/^error: worlds\/tasks\/read-then-call\.jsonl holds tasks on your own tools, which worlds tasks build does not judge on its own/);
    expect(existsSync(join(dir, "s.json"))).toBe(false);
  });

  it("passk --tasks refuses before it asks the server anything", async () => {
    const untouchable = new Proxy({}, { get: () => { throw new Error("the server was asked"); } }) as AdminClient;
    const out = await loadTasks(join(dir, "worlds", "tasks", "call.jsonl"), untouchable);
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.exitCode).toBe(2);
    expect(out.reason).toMatch(/call\.jsonl holds tasks on your own tools, which worlds passk does not judge on its own: a tools run judges every episode on them, by replay/);
    expect(out.nextAction).toBe("run them with worlds tools run -- <your agent command>");
  });

  it("an account tasks file still validates as before", async () => {
    const res = await runCli(["tasks", "validate", join(ROOT, "examples", "quickstart.tasks.yaml")], { cwd: dir });
    expect(res.code, res.stderr).toBe(0);
  });
});
