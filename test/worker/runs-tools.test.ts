// Hosted tools runs: POST /admin/runs with a tools settings document and the tool file as text. The server makes
// the same tasks `worlds tools run` makes, fans them out through the queue, gives the HTTP agent each task with its
// tools, and grades each world by replaying its calls, ending in the shared results contract.
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import ORDERS from "../fixtures/tools/orders.openai.json?raw";
import { importToolSet } from "../../src/core/kinds/tools/toolset";
import type { ToolsTask } from "../../src/core/kinds/tools/tasks/generate";
import type { AgentRequestBody } from "../../src/core/pipeline/index";
import { generatedTasks, toolCall } from "./tools-run-helpers";
import { admin, call, mockAgent, postRun, replyWith, waitForRun } from "./runs-helpers";

const CONFIG = `version: 1
file: tools.json
name: acme-orders
read: [get_order, search_orders, list_channels]
arms: [call, read-then-call]
tasks_per_arm: 2
seed: 7
`;

let agent: ReturnType<typeof mockAgent> | null = null;
afterEach(() => agent?.restore());

/** The same tasks the server generates, so the test agents can know what solving one means. */
const expectedTasks = () => generatedTasks(CONFIG, ORDERS);

/** Makes the calls that solve the task (twice over with `again`: the second write is a side effect). */
function solver(tasks: Map<string, ToolsTask>, opts: { again?: boolean } = {}) {
  return async (body: AgentRequestBody): Promise<string> => {
    if (body.kind !== "tools") throw new Error(`expected a tools episode, got ${body.kind}`);
    const task = tasks.get(body.task.id);
    if (!task) throw new Error(`the agent was sent a task the generator did not make: ${body.task.id}`);
    for (const c of task.expected.calls) expect((await toolCall(body, c.name, c.arguments)).status).toBe(200);
    const last = task.expected.calls[task.expected.calls.length - 1];
    if (opts.again && last) await toolCall(body, last.name, last.arguments);
    return "Done.";
  };
}

const tools = (extra: Record<string, unknown> = {}) => ({ tools: { config: CONFIG, file: ORDERS, config_file: "worlds/tools.yaml", ...extra } });

describe("POST /admin/runs with tools", () => {
  it("runs every generated task k times, gives the agent its task and tools, and passes a solving agent", async () => {
    const tasks = await expectedTasks();
    agent = mockAgent(replyWith(solver(tasks)));
    const posted = await postRun({ ...tools(), runs: 2 });
    expect(posted.status).toBe(201);
    const done = await waitForRun(posted.body.run_id!);
    expect(done.status).toBe("done");
    expect(done.progress).toMatchObject({ total: 8, done: 8, infra_errors: 0, passed: 8, graded: 8 });
    expect(done.results.status).toBe("passed");
    expect(done.results.tasks.file).toBe("worlds/tools.yaml");
    expect(done.results.runs.flatMap((r) => r.worlds.map((w) => w.verdict))).toEqual(Array(8).fill("passed"));
    const first = agent.calls[0] as Extract<AgentRequestBody, { kind: "tools" }>;
    expect(first.kind).toBe("tools");
    expect(first.task.request).toBe(tasks.get(first.task.id)!.request);
    expect(first.task.tools.map((t) => t.function.name).sort()).toEqual(tasks.get(first.task.id)!.world.definitions.map((d) => d.name).sort());
    // Task ids, order and expected lines are the generator's, so a CLI run and a hosted run report the same tasks.
    expect(done.results.tasks.hashes.file).toBe((await importToolSet(ORDERS, { name: "acme-orders" })).sha256);
    const live = await env.DB.prepare("SELECT count(*) AS n FROM worlds WHERE run_id = ? AND deleted_at IS NULL").bind(posted.body.run_id!).first<{ n: number }>();
    expect(live?.n).toBe(0);
    const trace = await call(`/admin/runs/${posted.body.run_id}/episodes/1/trace`, { headers: admin });
    expect((await trace.text()).split("\n").filter(Boolean).map((l) => JSON.parse(l).service)).toContain("tools");
  });

  it("grades by replay: a repeated write is collateral_mutation, no call at all is wrong_state, with the tools replay line", async () => {
    const tasks = await expectedTasks();
    agent = mockAgent(replyWith(solver(tasks, { again: true })));
    const twice = await waitForRun((await postRun({ ...tools(), runs: 1 })).body.run_id!);
    expect(twice.results.status).toBe("policy_failed");
    expect(new Set(twice.results.runs.flatMap((r) => r.worlds.map((w) => w.verdict)))).toEqual(new Set(["collateral_mutation"]));
    expect(twice.results.crash_test.worst_task?.replay).toMatch(/^worlds tools run --config worlds\/tools\.yaml --url http:\/\/twin\.test --agent-url http:\/\/agent\.test\/episode --task \S+ --runs 1$/);
    agent.restore();

    agent = mockAgent(replyWith(async () => "I could not do it."));
    const idle = await waitForRun((await postRun({ ...tools(), runs: 1 })).body.run_id!);
    expect(new Set(idle.results.runs.flatMap((r) => r.worlds.map((w) => w.verdict)))).toEqual(new Set(["wrong_state"]));
  });

  it("runs only the tasks named, and refuses an unknown one before anything is stored", async () => {
    const tasks = await expectedTasks();
    const id = [...tasks.keys()][1];
    agent = mockAgent(replyWith(solver(tasks)));
    const one = await waitForRun((await postRun({ ...tools(), runs: 1, task: [id] })).body.run_id!);
    expect(one.progress.total).toBe(1);
    expect(agent.calls.map((c) => (c.kind === "tools" ? c.task.id : null))).toEqual([id]);
    const bad = await postRun({ ...tools(), task: ["own-nope"] });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: "unknown_task" });
    expect(bad.body.error?.message).toContain("own-nope");
  });

  it("refuses what it cannot run, naming the field: both kinds, a bad settings field, a bad tool file, shift mode, a judge", async () => {
    const both = await postRun({ ...tools(), tasks: "version: 1" });
    expect(both.status).toBe(400);
    expect(JSON.stringify(both.body.error?.issues)).toContain("either tasks");
    const neither = await postRun({});
    expect(neither.status).toBe(400);
    const field = await postRun(tools({ config: CONFIG + "colour: blue\n" }));
    expect(field.status).toBe(400);
    expect(field.body.error).toMatchObject({ code: "invalid_tools_config" });
    expect(field.body.error?.message).toMatch(/colour: unknown field/);
    const file = await postRun(tools({ file: '{"openapi": "3.1.0"}' }));
    expect(file.body.error?.code).toBe("invalid_tool_file");
    const few = await postRun(tools({ config: "version: 1\nfile: one.json\nname: one\n", file: JSON.stringify([JSON.parse(ORDERS)[2]]) }));
    expect(few.body.error?.code).toBe("tools_refused");
    expect(few.body.error?.message).toMatch(/at least 2/);
    // A set refused whole still names each tool that fell, and why.
    const odd = { type: "function", function: { name: "odd", description: "Odd.", parameters: { type: "object", properties: { v: { anyOf: [{ type: "string" }, { type: "integer" }] } } } } };
    const named = await postRun(tools({ config: "version: 1\nfile: two.json\nname: two\n", file: JSON.stringify([JSON.parse(ORDERS)[2], odd]) }));
    expect(named.body.error?.code).toBe("tools_refused");
    expect(named.body.error?.message).toBe("tools.file (two.json): only 1 usable tool remains; a set needs at least 2 (refused: odd: its schema uses anyOf (at v), which the simulator cannot check exactly)");
    const shift = await postRun({ ...tools(), mode: "shift" });
    expect(JSON.stringify(shift.body.error?.issues)).toContain("isolated");
    const judged = await postRun({ ...tools(), judge: { model: "openai:gpt-4o-mini", policy: "Be kind." } });
    expect(judged.status).toBe(400);
    const polluted = await call("/admin/runs", { method: "POST", headers: admin, body: `{"agent":{"url":"http://agent.test/episode","secret":"agent-secret-0123456789"},"tools":{"config":"x","file":"y","__proto__":{"admin":true}}}` });
    expect(polluted.status).toBe(400);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM runs WHERE tasks_file = 'worlds/tools.yaml' AND status = 'running'").first<{ n: number }>();
    expect(rows?.n).toBe(0);
  });
});
