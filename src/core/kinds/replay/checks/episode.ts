// What a task's grader reads of one run (a live episode or a reference run): the conversation, every tool call
// with its arguments, and the writes among them. Which calls are writes comes from the task's tools: a tool the
// task marks read is a lookup; anything else (a write, an effect not stated, a tool the task does not list) is
// a write, so nothing the agent may have changed escapes the end-state checks.
import type { Message, ToolCall, EvalTask } from "../task-format/format";
import { isReplayEnvironment } from "../task-format/format";

export interface GradedEpisode {
  transcript: Message[];
  tool_calls: ToolCall[];
  /** The agent's final text, when the run has one beside the transcript. */
  output?: string | null;
}

export function readTools(task: EvalTask): Set<string> {
  const env = task.environment;
  return new Set(isReplayEnvironment(env) ? env.tools.filter((t) => t.effect === "read").map((t) => t.name) : []);
}

export function writesOf(task: EvalTask, calls: readonly ToolCall[]): ToolCall[] {
  const reads = readTools(task);
  return calls.filter((c) => !reads.has(c.tool));
}

/** A message's content as text: strings as they are, content parts by their text, anything else as JSON. */
export function messageText(m: Message): string {
  const c = m.content;
  if (typeof c === "string") return c;
  if (c === null) return "";
  return c
    .map((part) => {
      if (typeof part === "string") return part;
      if (part && typeof part === "object" && typeof (part as { text?: unknown }).text === "string") return (part as { text: string }).text;
      return JSON.stringify(part);
    })
    .join("\n");
}
