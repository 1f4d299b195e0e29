// What both exports share: the conversation a task starts from (the system prompt worlds' own agent uses, the
// request, and on the history dial the calls already made with the world's answers), and which of the expected
// calls a model can make in its first turn (those that need no value from another call's answer).
import { canonicalJson } from "../../../util/canonical";
import { TOOLS_SYSTEM_PROMPT } from "../../../agents/task-message";
import type { ToolsTask } from "../tasks/generate";
import type { ToolCall } from "../world-block";

export { TOOLS_SYSTEM_PROMPT };

/** The history dial's calls with the ids worlds' own agent gives them (history_1, ...), in order. */
export function historyCalls(task: ToolsTask): Array<{ id: string; name: string; arguments: Record<string, unknown>; result: Record<string, unknown> }> {
  return (task.history?.calls ?? []).map((c, i) => ({ id: `history_${i + 1}`, ...c }));
}

/**
 * The expected calls a first turn can hold: a call whose arguments carry a value another call's answer delivers
 * must wait for that answer. A planned fault does not change which calls come first, only that they are repeated.
 */
export function firstTurnCalls(task: ToolsTask): ToolCall[] {
  const key = (c: ToolCall) => `${c.name}:${canonicalJson(c.arguments)}`;
  const delivered = task.world.task.deliveries;
  const waits = (c: ToolCall) => {
    const text = canonicalJson(c.arguments);
    // Handed-over values are drawn strings (ids, codes); a short or non-string one could match by accident.
    return delivered.some((d) => key(d.call) !== key(c) && typeof d.value === "string" && d.value.length >= 3 && text.includes(d.value));
  };
  const first = task.expected.calls.filter((c) => !waits(c));
  return first.length ? first : task.expected.calls.slice(0, 1);
}
