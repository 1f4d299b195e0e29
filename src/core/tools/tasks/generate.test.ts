// Tasks on the spec's five-tool set, solved (and failed) by scripted agents against the pure simulator, then
// graded by replay: every form, every verdict, and the same bytes for the same file, arm and seed.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { DiffEntry, WorldDiff } from "../../diff/types";
import { gradeToolsEpisode, type TracedCall } from "../grade";
import { answerCall, callKey } from "../simulate/answer";
import { valuesAtPath } from "../simulate/paths";
import { importToolSet, type ToolSet } from "../toolset";
import type { ToolCall, ToolsWorldBlock } from "../world-block";
import { generateTasks, type ToolsTask } from "./generate";

const CLOCK = Date.parse("2026-09-15T12:00:00Z") / 1000;
const text = readFileSync(new URL("../../../../test/fixtures/tools/orders.openai.json", import.meta.url), "utf8");
const load = () => importToolSet(text, { name: "acme", read: ["get_order", "search_orders", "list_channels"] });
const FLOW = [{ from: "get_order", field: "id", to: "refund_order", param: "order_id" }];

/** A world in memory: the simulator's rules applied the way the Durable Object applies them. */
function episode(block: ToolsWorldBlock) {
  const status = new Map(block.task.writes.map((w) => [w.record, "pending"]));
  const per = new Map<string, number>();
  const made = new Set<string>();
  const entries: DiffEntry[] = [];
  const calls: TracedCall[] = [];
  let total = 0;
  let side = 0;
  const call = (c: ToolCall) => {
    const a = answerCall(block, c, { calls: total, callsOf: (n) => per.get(n) ?? 0, made: (k) => made.has(k), recordStatus: (r) => status.get(r) ?? null }, CLOCK);
    if (a.counted) {
      total++;
      per.set(c.name, (per.get(c.name) ?? 0) + 1);
      made.add(callKey(c));
      if (a.effect?.kind === "move") {
        status.set(a.effect.record, "done");
        entries.push({ type: "records", id: a.effect.record, op: "updated", customer: null, before: { status: "pending" }, after: { status: "done" } } as unknown as DiffEntry);
      } else if (a.effect?.kind === "side_effect")
        entries.push({ type: "records", id: `rec_side${++side}`, op: "created", customer: null, before: null, after: { status: "side_effect", tool: c.name, arguments: c.arguments } } as unknown as DiffEntry);
    }
    calls.push({ name: c.name, status: a.outcome.ok ? 200 : { not_found: 404, invalid_arguments: 422, not_ready: 409, unavailable: 503 }[a.outcome.error.code], arguments: JSON.stringify(c.arguments), response: JSON.stringify(a.outcome) });
    return a.outcome;
  };
  const grade = (reply: string | null) => gradeToolsEpisode({ block, diff: { entries } as unknown as WorldDiff, calls, reply });
  return { call, grade };
}

/** The careful agent: makes each expected call, taking a handed-over value from the previous answer, as a model must. */
function solve(task: ToolsTask, w = episode(task.world)) {
  let last: Record<string, unknown> = {};
  for (const c of task.expected.calls) {
    const args = { ...c.arguments };
    for (const d of task.world.task.deliveries)
      for (const [k, v] of Object.entries(args)) if (v === d.value && callKey(d.call) !== callKey(c)) args[k] = valuesAtPath(last, d.path)[0];
    const out = w.call({ name: c.name, arguments: args });
    if (out.ok) last = out.result;
  }
  return w;
}

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
