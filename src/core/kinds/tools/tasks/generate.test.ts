// Tasks on the spec's five-tool set, solved (and failed) by scripted agents against the pure simulator, then
// graded by replay: every form, every verdict, and the same bytes for the same file, arm and seed.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CLOCK, episode, solve } from "../../../../../test/node/helpers/tools-episode";
import { importToolSet, type ToolSet } from "../toolset";
import { generateTasks } from "./generate";

const text = readFileSync(new URL("../../../../../test/fixtures/tools/orders.openai.json", import.meta.url), "utf8");
const load = () => importToolSet(text, { name: "acme", read: ["get_order", "search_orders", "list_channels"] });
const FLOW = [{ from: "get_order", field: "id", to: "refund_order", param: "order_id" }];

describe("generating tasks on the spec's set", () => {
  let set: ToolSet;
  it("makes the same bytes for the same file, arm and seed; another seed changes every id", async () => {
    set = await load();
    const a = await generateTasks(set, { arm: "call", count: 5, seed: 1, clockUnix: CLOCK });
    const b = await generateTasks(set, { arm: "call", count: 5, seed: 1, clockUnix: CLOCK });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    const c = await generateTasks(set, { arm: "call", count: 5, seed: 2, clockUnix: CLOCK });
    expect(c.map((t) => t.id).filter((id) => a.some((x) => x.id === id))).toEqual([]);
    const edited = await generateTasks(await importToolSet(text.replace("Refund part", "Refund some"), { name: "acme", read: ["get_order", "search_orders", "list_channels"] }), { arm: "call", count: 5, seed: 1, clockUnix: CLOCK });
    expect(edited.map((t) => t.id).filter((id) => a.some((x) => x.id === id))).toEqual([]);
  });

  it("states every value and never names the tool", async () => {
    set = await load();
    for (const t of await generateTasks(set, { arm: "call", count: 6, seed: 1, clockUnix: CLOCK })) {
      const call = t.expected.calls[0];
      expect(t.request).not.toContain(call.name);
      for (const [k, v] of Object.entries(call.arguments)) expect(t.request).toContain(`${k} ${JSON.stringify(v)}`);
    }
  });

  it.each(["call", "read-then-call", "flow"] as const)("%s: the careful agent passes; doing nothing is wrong_state", async (arm) => {
    set = await load();
    const tasks = await generateTasks(set, { arm, count: 4, seed: 7, clockUnix: CLOCK, flows: FLOW });
    for (const t of tasks) {
      expect(solve(t).grade("Done.").verdict, t.request).toBe("passed");
      expect(episode(t.world).grade("I could not do it.").verdict).toBe("wrong_state");
    }
  });

  it("read then call: the value only the read hands over is needed; guessing it first is not_ready", async () => {
    set = await load();
    const [t] = await generateTasks(set, { arm: "flow", count: 1, seed: 3, clockUnix: CLOCK, flows: FLOW });
    const w = episode(t.world);
    const early = w.call(t.expected.calls[1]);
    expect(early).toMatchObject({ ok: false, error: { code: "not_ready" } });
    const answer = w.call(t.expected.calls[0]);
    expect(answer.ok && answer.result.id).toBe(t.expected.calls[1].arguments.order_id);
    w.call(t.expected.calls[1]);
    expect(w.grade("Refunded.").verdict).toBe("passed");
  });

  it("each failing verdict from a scripted agent", async () => {
    set = await load();
    const [t] = await generateTasks(set, { arm: "call", count: 1, seed: 5, clockUnix: CLOCK });
    const target = t.expected.calls[0];
    const twice = solve(t);
    twice.call(target);
    expect(twice.grade("Done twice.").verdict).toBe("collateral_mutation");
    const stray = solve(t);
    stray.call({ name: "notify_customer", arguments: { order_id: "ZZZZZZ", channel: "sms" } });
    expect(stray.grade("Done.").verdict).toBe("collateral_mutation");
    const unknown = solve(t);
    unknown.call({ name: "delete_everything", arguments: {} });
    expect(unknown.grade("Done.").verdict).toBe("malformed_call");
    const bad = episode(t.world);
    bad.call({ name: target.name, arguments: { ...target.arguments, order_id: 123456 } });
    expect(bad.grade("Done.").verdict).toBe("malformed_call");
    const wrong = episode(t.world);
    const first = Object.keys(target.arguments)[0];
    wrong.call({ name: target.name, arguments: { ...target.arguments, [first]: typeof target.arguments[first] === "number" ? 0.5 : "QQQQQQ" } });
    expect(wrong.grade("Done.").verdict).toBe("wrong_state");
    const silent = solve(t);
    expect(silent.grade("").verdict).toBe("wrong_state");
    const loop = episode(t.world);
    for (let i = 0; i < 33; i++) loop.call({ name: "list_channels", arguments: {} });
    expect(loop.grade("Done.").verdict).toBe("turn_limit");
  });

  it("the same call always gets the same answer", async () => {
    set = await load();
    const [t] = await generateTasks(set, { arm: "call", count: 1, seed: 9, clockUnix: CLOCK });
    const w = episode(t.world);
    const a = w.call({ name: "get_order", arguments: { order_id: "A33170" } });
    const b = w.call({ name: "get_order", arguments: { order_id: "A33170" } });
    expect(a).toEqual(b);
    expect(a).toMatchObject({ ok: true, result: { ok: true, id: expect.stringMatching(/^[A-Z0-9]{8}$/) } });
  });
});

describe("a read that answers a list", () => {
  it("hands its value over from inside the list (data[].id), and the careful agent passes read then call", async () => {
    const doc = {
      openapi: "3.0.3",
      info: { title: "t", version: "1" },
      paths: {
        "/orders": { get: { operationId: "listOrders", description: "List the orders of a customer.", parameters: [{ name: "customer", in: "query", required: true, schema: { type: "string", maxLength: 8 } }], responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "array", items: { type: "object", required: ["id"], properties: { id: { type: "string" }, total: { type: "number" } } } } } } } } } },
        "/orders/{id}/cancel": { post: { operationId: "cancelOrder", description: "Cancel an order.", parameters: [{ name: "id", in: "path", required: true, schema: { type: "string", maxLength: 12 } }], responses: { "204": { description: "cancelled" } } } },
      },
    };
    const set = await importToolSet(JSON.stringify(doc), { name: "shop" });
    const tasks = await generateTasks(set, { arm: "read-then-call", count: 3, seed: 1, clockUnix: CLOCK });
    for (const t of tasks) {
      expect(t.world.task.deliveries.map((d) => d.path)).toEqual(["data[].id"]);
      expect(t.request).toContain("using the data.id it reports as id");
      expect(solve(t).grade("done").verdict).toBe("passed");
    }
  });
});
