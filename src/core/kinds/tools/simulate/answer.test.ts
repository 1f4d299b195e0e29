// An extra argument a schema does not forbid is accepted, and makes the call a different one from the call the
// task expects: the answer carries a `warnings` entry naming it, so the agent and the trace see why.
import { describe, expect, it } from "vitest";
import { importToolSet } from "../toolset";
import type { ToolsWorldBlock } from "../world-block";
import { answerCall, type EpisodeState } from "./answer";

const CLOCK = Date.parse("2026-09-15T12:00:00Z") / 1000;
const state: EpisodeState = { calls: 0, callsOf: () => 0, made: () => false, recordStatus: () => "pending" };

async function block(): Promise<ToolsWorldBlock> {
  const tools = [
    { type: "function", function: { name: "refund_order", description: "Refund.", parameters: { type: "object", required: ["order_id"], properties: { order_id: { type: "string", maxLength: 6 } } } } },
    { type: "function", function: { name: "get_order", description: "Look up.", parameters: { type: "object", properties: { order_id: { type: "string", maxLength: 6 } } } } },
  ];
  const set = await importToolSet(JSON.stringify(tools), { name: "t", read: ["get_order"] });
  const definitions = set.tools.map(({ checkable: _c, target: _t, ...d }) => d);
  const writes = [{ record: "rec_a1", name: "refund_order", arguments: { order_id: "K3X9QZ" }, unchecked: [] }];
  return { set: { name: "t", format: "openai", sha256: set.sha256 }, draw_seed: 1, definitions, task: { id: "t1", writes, deliveries: [], prerequisites: [], faults: [] }, max_calls: 32 };
}

describe("an extra argument", () => {
  it("is accepted with a warning naming it, and the write is a side effect, not the expected one", async () => {
    const b = await block();
    const extra = answerCall(b, { name: "refund_order", arguments: { order_id: "K3X9QZ", amount: 5 } }, state, CLOCK);
    expect(extra.outcome).toMatchObject({ ok: true, result: { warnings: ["'amount' is not a parameter of refund_order (its parameters: order_id); the call was accepted with it, as a different call from one without it"] } });
    expect(extra.effect).toEqual({ kind: "side_effect" });
    const exact = answerCall(b, { name: "refund_order", arguments: { order_id: "K3X9QZ" } }, state, CLOCK);
    expect(exact.effect).toEqual({ kind: "move", record: "rec_a1" });
    expect(exact.outcome.ok && exact.outcome.result.warnings).toBeUndefined();
  });
});
