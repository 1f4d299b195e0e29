// The reference agent for tools worlds (examples/agents/tools-careful.mjs) against every dial on the shipped
// fixtures (the spec's five-tool file with its two flows; the wide set for block), each task in its own world
// behind the agent's JSON surface: it passes every task at every level, the first ones included, so a failure at a
// first level is the harness's or the set's. The literal agent stays the weak baseline: it fails first levels
// (similarity, shape) by construction, which is also what shows this test can fail.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WIDE_READS, wideToolFile } from "../fixtures/tools/wide";
import { ROOT } from "./helpers/cli";
import { CLOCK } from "./helpers/tools-episode";
import { serveToolWorlds } from "./helpers/tools-http";
import { importToolSet } from "../../src/core/kinds/tools/toolset";
import { dialReach, DIALS, type DialName } from "../../src/core/kinds/tools/dials/catalog";
import { generateDialArm } from "../../src/core/kinds/tools/dials/generate";
import { toolsAgentTask } from "../../src/core/kinds/tools/run/episode";
import type { ToolsTask } from "../../src/core/kinds/tools/tasks/generate";
// @ts-expect-error the example agents are plain JavaScript without declarations
import { solveCarefully } from "../../examples/agents/lib/careful-tools.mjs";
// @ts-expect-error the example agents are plain JavaScript without declarations
import { solveLiterally } from "../../examples/agents/lib/literal-tools.mjs";

type Solver = (task: unknown, o: { base: string; key: string }) => Promise<string | null>;
const text = readFileSync(join(ROOT, "test", "fixtures", "tools", "orders.openai.json"), "utf8");
const READS = ["get_order", "search_orders", "list_channels"];
const FLOWS = [
  { from: "get_order", field: "id", to: "refund_order", param: "order_id" },
  { from: "refund_order", field: "id", to: "notify_customer", param: "order_id" },
];
let srv: Awaited<ReturnType<typeof serveToolWorlds>>;
beforeAll(async () => void (srv = await serveToolWorlds()));
afterAll(() => srv.close());

async function arms(dial: DialName): Promise<Array<{ level: number; tasks: ToolsTask[] }>> {
  const set = await importToolSet(dial === "block" ? wideToolFile(text) : text, { name: "acme", read: [...READS, ...(dial === "block" ? WIDE_READS : [])] });
  const reach = dialReach(set, FLOWS).find((r) => r.dial === dial)!;
  expect(reach.unavailable, dial).toBeUndefined();
  return Promise.all(reach.levels!.map(async (level) => ({ level, tasks: await generateDialArm(set, { dial, level, count: 10, seed: 1, clockUnix: CLOCK, flows: FLOWS }) })));
}

let opened = 0;
async function verdicts(solver: Solver, tasks: ToolsTask[]): Promise<string[]> {
  const out: string[] = [];
  for (const t of tasks) {
    const key = `k${++opened}`;
    const w = srv.open(key, t.world);
    out.push(w.grade(await solver(toolsAgentTask(t), { base: srv.base, key })).verdict);
  }
  return out;
}

describe("the careful tools agent", () => {
  it.each(DIALS.map((d) => [d]))("%s: passes every task at every level, the first one included", async (dial) => {
    for (const { level, tasks } of await arms(dial)) expect(await verdicts(solveCarefully as Solver, tasks), `${dial} ${level}`).toEqual(tasks.map(() => "passed"));
  });

  it("the literal agent is the weak baseline: it fails the first level of similarity and of shape", async () => {
    for (const dial of ["similarity", "shape"] as const) {
      const [first] = await arms(dial);
      expect((await verdicts(solveLiterally as Solver, first.tasks)).filter((v) => v === "passed"), dial).toEqual([]);
    }
  });

  it("tools-careful.mjs as a process: reads the task from WORLDS_TASK_JSON, works the world, replies on stdout", async () => {
    const [{ tasks }] = (await arms("faults")).slice(-1);
    const t = tasks[0];
    const w = srv.open("process", t.world);
    const child = spawn(process.execPath, [join(ROOT, "examples", "agents", "tools-careful.mjs")], {
      env: { ...process.env, WORLDS_TASK_JSON: JSON.stringify(toolsAgentTask(t)), WORLDS_TOOLS_URL: srv.base, WORLDS_TOOLS_KEY: "process" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
    const code = await new Promise<number | null>((r) => child.on("close", r));
    expect(code).toBe(0);
    expect(stdout).toBe("Done: I made the calls the request asked for.\n");
    expect(w.calls.map((c) => c.status)).toEqual([503, 503, 503, 503, 200]);
    expect(w.grade(stdout.trim()).verdict).toBe("passed");
  });
});
