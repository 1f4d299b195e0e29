// Hosted tools runs of a `measure:` settings document: every dial the local `worlds tools run -- CMD` runs is
// accepted and run on the server, with the generator's tasks (ids, requests, tool blocks, seeded history, planned
// faults) and the same replay grading. The history dial counts its tokens here, in the Worker.
import { afterEach, describe, expect, it } from "vitest";
import ORDERS from "../fixtures/tools/orders.openai.json?raw";
import { wideToolFile } from "../fixtures/tools/wide";
import { DIALS } from "../../src/core/kinds/tools/dials/catalog";
import type { ToolsTask } from "../../src/core/kinds/tools/tasks/generate";
import type { AgentRequestBody } from "../../src/core/pipeline/index";
import { generatedTasks, toolCall } from "./tools-run-helpers";
import { mockAgent, postRun, replyWith, waitForRun } from "./runs-helpers";

const FULL = `version: 1
file: tools.json
name: acme-orders
read: [get_order, search_orders, list_channels]
flows: ["get_order.id:refund_order.order_id"]
tasks_per_arm: 1
seed: 7
measure:
  preset: full
`;

let agent: ReturnType<typeof mockAgent> | null = null;
afterEach(() => agent?.restore());

const expectedTasks = (config: string, file = ORDERS) => generatedTasks(config, file);

/** Makes the calls that solve the task, retrying a call the world failed on purpose (the faults dial). */
function solver(tasks: Map<string, ToolsTask>) {
  return async (body: AgentRequestBody): Promise<string> => {
    if (body.kind !== "tools") throw new Error(`expected a tools episode, got ${body.kind}`);
    const task = tasks.get(body.task.id);
    if (!task) throw new Error(`the agent was sent a task the generator did not make: ${body.task.id}`);
    for (const c of task.expected.calls) {
      let status = 0;
      for (let i = 0; i < 6 && status !== 200; i++) status = (await toolCall(body, c.name, c.arguments)).status;
      expect(status).toBe(200);
    }
    return "Done.";
  };
}

describe("POST /admin/runs with a measure: tools configuration", () => {
  it("accepts every dial's arms, gives the agent each task as generated (history included), and passes a solving agent", async () => {
    const tasks = await expectedTasks(FULL);
    const dials = new Set([...tasks.values()].map((t) => t.dial?.name));
    // The fixture reaches every dial but block (it has five tools): the run covers all the others.
    expect([...dials].sort()).toEqual(DIALS.filter((d) => d !== "block").sort());
    agent = mockAgent(replyWith(solver(tasks)));
    const posted = await postRun({ tools: { config: FULL, file: ORDERS, config_file: "worlds/tools.yaml" }, runs: 1 });
    expect(posted.status, JSON.stringify(posted.body)).toBe(201);
    const done = await waitForRun(posted.body.run_id!);
    expect(done.progress).toMatchObject({ total: tasks.size, done: tasks.size, infra_errors: 0, passed: tasks.size, graded: tasks.size });
    expect(done.results.status).toBe("passed");
    const sent = agent.calls.map((c) => c as Extract<AgentRequestBody, { kind: "tools" }>);
    expect(sent.map((c) => c.task.id).sort()).toEqual([...tasks.keys()].sort());
    for (const c of sent) {
      const task = tasks.get(c.task.id)!;
      expect(c.task.request).toBe(task.request);
      expect(c.task.tools.map((t) => t.function.name)).toEqual(task.world.definitions.map((d) => d.name));
      expect(c.task.history ?? []).toEqual(task.history?.calls ?? []);
    }
    expect(sent.some((c) => (c.task.history?.length ?? 0) > 0)).toBe(true);
  });

  it("runs the block dial on a set wide enough for it, each task offered its own block", async () => {
    const config = FULL.replace("preset: full", "preset: custom\n  dials: [block]");
    const file = wideToolFile(ORDERS);
    const tasks = await expectedTasks(config, file);
    expect(new Set([...tasks.values()].map((t) => t.world.definitions.length))).toEqual(new Set([8, 16]));
    agent = mockAgent(replyWith(solver(tasks)));
    const done = await waitForRun((await postRun({ tools: { config, file, config_file: "worlds/tools.yaml" }, runs: 1 })).body.run_id!);
    expect(done.progress).toMatchObject({ total: tasks.size, infra_errors: 0, passed: tasks.size });
    for (const c of agent.calls) if (c.kind === "tools") expect(c.task.tools.map((t) => t.function.name)).toEqual(tasks.get(c.task.id)!.world.definitions.map((d) => d.name));
  });

  it("grades a dial's task by replay like any other: an agent that ignores the planned fault fails it", async () => {
    const config = FULL.replace("preset: full", "preset: recovery");
    const tasks = await expectedTasks(config);
    agent = mockAgent(replyWith(async (body) => {
      if (body.kind !== "tools") throw new Error("not tools");
      for (const c of tasks.get(body.task.id)!.expected.calls) await toolCall(body, c.name, c.arguments);
      return "Done.";
    }));
    const done = await waitForRun((await postRun({ tools: { config, file: ORDERS, config_file: "worlds/tools.yaml" }, runs: 1 })).body.run_id!);
    expect(done.progress.infra_errors).toBe(0);
    const worlds = done.results.runs[0].worlds;
    expect(worlds.map((w) => w.task).sort()).toEqual([...tasks.keys()].sort());
    // Level 0 plans no fault, so the agent passes it; every level with a fault it never retried fails.
    for (const w of worlds) expect(w.verdict === "passed", `${tasks.get(w.task)!.arm}: ${w.verdict}`).toBe(tasks.get(w.task)!.dial?.level === 0);
  });

  it("refuses a recipe the set does not reach up front, naming the dial (nothing is run)", async () => {
    const config = FULL.replace("preset: full", "preset: chains").replace(/flows: .*\n/, "");
    const res = await postRun({ tools: { config, file: ORDERS, config_file: "worlds/tools.yaml" } });
    expect(res.status).toBe(400);
    expect(res.body.error?.code).toBe("cannot_generate");
    expect(res.body.error?.message).toMatch(/depth \(no flow is declared/);
  });
});
