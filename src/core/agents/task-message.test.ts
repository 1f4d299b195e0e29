// A tools task's seeded history reaches the model as turns after the request: one assistant turn with the calls,
// then each answer as a tool message with the matching id, so both providers' wire formats accept it.
import { describe, expect, it } from "vitest";
import { taskMessage } from "./task-message";

describe("taskMessage: the history dial", () => {
  it("turns seeded calls into an assistant turn and its tool answers", () => {
    const json = JSON.stringify({ id: "t_1", request: "Refund order K3X9QZ.", tools: [], history: [{ name: "get_order", arguments: { order_id: "A33170" }, result: { ok: true, id: "QZ" } }] });
    const m = taskMessage(json);
    expect(m.ok && m.value.history).toEqual([
      { role: "assistant", content: null, toolCalls: [{ id: "history_1", name: "get_order", arguments: { order_id: "A33170" } }] },
      { role: "tool", toolCallId: "history_1", content: '{"ok":true,"id":"QZ"}' },
    ]);
    const none = taskMessage(JSON.stringify({ id: "t_2", request: "Refund it." }));
    expect(none.ok && none.value.history).toBeUndefined();
  });

  it("runs on the task's own instructions, unless --model-system gives a prompt", () => {
    const json = JSON.stringify({ id: "t_3", request: "Cancel my plan.", tools: [], instructions: "You are Acme's billing assistant." });
    expect(taskMessage(json).ok && (taskMessage(json) as { value: { system: string } }).value.system).toBe("You are Acme's billing assistant.");
    expect((taskMessage(json, "Be terse.") as { value: { system: string } }).value.system).toBe("Be terse.");
  });
});
