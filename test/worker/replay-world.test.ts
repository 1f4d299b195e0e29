// A replay world end to end in the Workers runtime: seeded from a task of the example benchmark, reached through
// /tools/v1 and /mcp with its key like any world; exact and near calls get production's result, a lookup
// production never made is answered as unrecorded (and counted from the trace), and every write is logged in
// the diff for the grader.
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import bench from "../../examples/evals/benchmark.json";
import { isReplayEnvironment, loadTasks, type EvalTask, type ReplayEnvironment } from "../../src/core/kinds/replay/task-format/index";
import { replayBlock, replaySeed, tallyCalls, toolCallsOfTrace, type TracedCall } from "../../src/core/kinds/replay/recorded/index";

const admin = { authorization: "Bearer test-token", "content-type": "application/json" };
const call = (path: string, init: RequestInit = {}) => exports.default.fetch(new Request(`http://twin.test${path}`, init));
const bearer = (key: string) => ({ authorization: `Bearer ${key}`, "content-type": "application/json" });

const loaded = loadTasks(JSON.stringify(bench), "benchmark.json");
if (!loaded.ok) throw new Error("example benchmark");
const task = loaded.tasks[0].task as EvalTask & { environment: ReplayEnvironment };
if (!isReplayEnvironment(task.environment)) throw new Error("replay");

async function newWorld(): Promise<{ id: string; key: string }> {
  const res = await call("/admin/worlds", { method: "POST", headers: admin, body: JSON.stringify({ seed: replaySeed(task) }) });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { id: string; key: string };
}

const tool = async (key: string, name: string, args: unknown) => {
  const res = await call("/tools/v1/call", { method: "POST", headers: bearer(key), body: JSON.stringify({ name, arguments: args }) });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};

describe("replay world", () => {
  it("refuses a seed whose recorded results are more than a world can store, naming the block (a 400, not the storage's 500)", async () => {
    const big = replaySeed({ ...task, environment: { ...task.environment, observations: [{ ...task.environment.observations[0]!, result: "x".repeat(2_600_000) }] } });
    const res = await call("/admin/worlds", { method: "POST", headers: admin, body: JSON.stringify({ seed: big }) });
    const text = await res.text();
    expect(res.status, text).toBe(400);
    expect(text).toContain("at most 2000000 (record fewer or shorter observations)");
  }, 60_000);

  it("lists the task's tools, in each provider's format", async () => {
    const w = await newWorld();
    const openai = (await (await call("/tools/v1/list", { headers: bearer(w.key) })).json()) as { tools: Array<{ function: { name: string; parameters: unknown } }> };
    expect(openai.tools.map((t) => t.function.name)).toEqual(["orders__get", "charges__list", "refunds__create", "tasks__create"]);
    expect(openai.tools[0].function.parameters).toMatchObject({ type: "object", required: ["order_id"] });
    const mcp = (await (await call("/tools/v1/list?format=mcp", { headers: bearer(w.key) })).json()) as { tools: Array<{ name: string; annotations?: { readOnlyHint?: boolean } }> };
    expect(mcp.tools[0]).toMatchObject({ name: "orders__get", annotations: { readOnlyHint: true } });
  });

  it("answers exact and near calls with production's result, unrecorded lookups as unrecorded, and logs every write", async () => {
    const w = await newWorld();
    const exact = await tool(w.key, "orders__get", { order_id: "A-1001" });
    expect(exact.status).toBe(200);
    expect(JSON.stringify(exact.body)).toContain("dana@example.com");
    const near = await tool(w.key, "charges__list", { order_id: " a-1001", limit: 50 });
    expect(JSON.stringify(near.body)).toContain("February service fee");
    const unrecorded = await tool(w.key, "orders__get", { order_id: "A-1002" });
    expect(unrecorded.status).toBe(404);
    expect(JSON.stringify(unrecorded.body)).toMatch(/unrecorded: production never made this lookup \(orders__get \{\\"order_id\\":\\"A-1002\\"\}\)/);
    const refund = await tool(w.key, "refunds__create", { charge_id: "ch_2" });
    expect(JSON.stringify(refund.body)).toContain("re_1");
    const fee = await tool(w.key, "refunds__create", { charge_id: "ch_3" });
    expect(fee.status).toBe(200);
    expect(JSON.stringify(fee.body)).toContain("Logged for grading");
    const bad = await tool(w.key, "refunds__create", { charge_id: 7 });
    expect(bad.status).toBe(422);
    const missing = await tool(w.key, "orders__delete", {});
    expect(missing.status).toBe(404);

    const diff = (await (await call(`/admin/worlds/${w.id}/diff`, { headers: admin })).json()) as { entries: Array<{ op: string; after: Record<string, unknown> }> };
    expect(diff.entries.map((e) => [e.op, e.after.tool, e.after.arguments, e.after.match])).toEqual([
      ["created", "refunds__create", { charge_id: "ch_2" }, "exact"],
      ["created", "refunds__create", { charge_id: "ch_3" }, "unrecorded"],
    ]);

    const text = await (await call(`/admin/worlds/${w.id}/trace`, { headers: admin })).text();
    const trace = text.trim().split("\n").map((l) => JSON.parse(l) as TracedCall);
    const calls = toolCallsOfTrace(trace);
    expect(calls.map((c) => c.tool)).toEqual(["orders__get", "charges__list", "orders__get", "refunds__create", "refunds__create", "refunds__create", "orders__delete"]);
    const tally = tallyCalls(replayBlock(task.slug, task.environment), calls);
    expect(tally).toMatchObject({ calls: 7, exact: 2, near: 1, unrecorded: 1, writes: 2, refused: 2 });
    expect(tally.unrecorded_calls).toEqual([{ tool: "orders__get", arguments: { order_id: "A-1002" } }]);
  });

  it("is reached over MCP with its key, and another world's key opens nothing", async () => {
    const w = await newWorld();
    const other = await newWorld();
    const rpc = (key: string, method: string, params: unknown) =>
      call("/mcp", { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "application/json, text/event-stream" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
    const r = (await (await rpc(w.key, "tools/call", { name: "orders__get", arguments: { order_id: "A-1001" } })).json()) as { result: { structuredContent: Record<string, unknown>; isError?: boolean } };
    expect(r.result.structuredContent).toMatchObject({ id: "A-1001", total: 4200 });
    const u = (await (await rpc(w.key, "tools/call", { name: "orders__get", arguments: { order_id: "Z" } })).json()) as { result: { isError?: boolean; content: Array<{ text: string }> } };
    expect(u.result.isError).toBe(true);
    expect(u.result.content[0].text).toMatch(/unrecorded/);
    await tool(other.key, "refunds__create", { charge_id: "ch_2" });
    const diff = (await (await call(`/admin/worlds/${w.id}/diff`, { headers: admin })).json()) as { entries: unknown[] };
    expect(diff.entries).toEqual([]);
    const wrong = await call("/tools/v1/list", { headers: bearer("sk_test_nope") });
    expect(wrong.status).toBe(401);
  });

  it("refuses a replay seed without its block, and a block without kind replay", async () => {
    const seed = replaySeed(task);
    const noBlock = await call("/admin/worlds", { method: "POST", headers: admin, body: JSON.stringify({ seed: { ...seed, replay: undefined } }) });
    expect(noBlock.status).toBe(400);
    const noKind = await call("/admin/worlds", { method: "POST", headers: admin, body: JSON.stringify({ seed: { ...seed, kind: undefined } }) });
    expect(noKind.status).toBe(400);
  });
});
