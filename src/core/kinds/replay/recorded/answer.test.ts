import { describe, expect, it } from "vitest";
import { answerReplayCall, asToolResult, tallyCalls, type ReplayWorldBlock } from "./index";

const block: ReplayWorldBlock = {
  task: "t",
  tools: [
    { name: "get", description: "", inputSchema: { type: "object", properties: { id: { type: "string", pattern: "^A-" } } }, effect: "read" },
    { name: "note", description: "", inputSchema: { type: "object", properties: { text: { type: "string" } } }, effect: "unknown" },
  ],
  observations: [
    { tool: "get", arguments: { id: "legacy-7" }, result: ["a", "b"] },
    { tool: "get", arguments: { id: "A-1" }, result: null },
    { tool: "note", arguments: { text: "Hello" }, result: { id: "n_1" } },
  ],
};

describe("answerReplayCall", () => {
  it("answers production's own arguments even when the task's schema would refuse them, and only those", () => {
    expect(answerReplayCall(block, "get", { id: "legacy-7" })).toMatchObject({ outcome: { ok: true, result: { result: ["a", "b"] } }, match: { kind: "exact" } });
    expect(answerReplayCall(block, "get", { id: "LEGACY-7" }).outcome).toMatchObject({ ok: false, error: { code: "invalid_arguments" } });
  });

  it("keeps a recorded null as a result, not as unrecorded", () => {
    expect(answerReplayCall(block, "get", { id: "A-1" }).outcome).toEqual({ ok: true, result: { result: null } });
    expect(asToolResult({ a: 1 })).toEqual({ a: 1 });
  });

  it("treats a tool of unstated effect as a write: logged, near-matched to production's, acknowledged when unrecorded", () => {
    expect(answerReplayCall(block, "note", { text: " hello " })).toMatchObject({ outcome: { ok: true, result: { id: "n_1" } }, match: { kind: "near" }, write: true });
    expect(answerReplayCall(block, "note", { text: "Bye" })).toMatchObject({ outcome: { ok: true, result: { logged: true, tool: "note" } }, match: { kind: "unrecorded" }, write: true });
  });

  it("tallies a run: writes counted apart from unrecorded lookups", () => {
    const t = tallyCalls(block, [
      { tool: "get", arguments: { id: "A-1" } },
      { tool: "get", arguments: { id: "A-2" } },
      { tool: "note", arguments: { text: "Bye" } },
      { tool: "nope", arguments: {} },
    ]);
    expect(t).toEqual({ calls: 4, exact: 1, near: 0, unrecorded: 1, writes: 1, refused: 1, unrecorded_calls: [{ tool: "get", arguments: { id: "A-2" } }] });
  });
});
