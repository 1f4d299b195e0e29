// One call to a simulated tool, decided from the world's block and what the episode did so far. Pure: the world
// applies the effect (a record moved, a side effect recorded) and keeps the counters.
import { canonicalJson } from "../../../util/canonical";
import type { ToolOutcome } from "../definition";
import type { ExpectedWrite, ToolCall, ToolsWorldBlock } from "../world-block";
import { keyedDraw } from "./draw";
import { setAtPath } from "./paths";
import { validateArguments } from "./validate";
import { CannotMakeValue, makeString, makeValue } from "./value";

export interface EpisodeState {
  /** Calls answered so far, every tool. */
  calls: number;
  /** Calls so far per tool name. */
  callsOf(name: string): number;
  /** Whether this exact call (name + canonical arguments) was answered before. */
  made(callKey: string): boolean;
  recordStatus(record: string): string | null;
}

export type CallEffect = { kind: "move"; record: string } | { kind: "side_effect" } | null;

export interface Answer {
  outcome: ToolOutcome;
  effect: CallEffect;
  /** Counted toward the limits and remembered (for prerequisites): every call that reached the tool. */
  counted: boolean;
  key: string;
}

export function callKey(call: ToolCall): string {
  return `${call.name}:${canonicalJson(call.arguments)}`;
}

/** A write satisfies an expected one when its checked arguments are exactly the expected ones (strings byte for byte). */
export function satisfies(call: ToolCall, w: ExpectedWrite): boolean {
  if (call.name !== w.name) return false;
  const checked = Object.keys(call.arguments).filter((k) => !w.unchecked.includes(k));
  const expected = Object.keys(w.arguments);
  if (checked.length !== expected.length) return false;
  return expected.every((k) => Object.hasOwn(call.arguments, k) && canonicalJson(call.arguments[k]) === canonicalJson(w.arguments[k]));
}

const fail = (code: "not_found" | "invalid_arguments" | "not_ready" | "unavailable", message: string): ToolOutcome => ({ ok: false, error: { code, message } });

/** Keeps answers already made (they are pure functions of the block and the call), e.g. a bounded cache. */
export type AnswerMemo = (key: string, make: () => Record<string, unknown>) => Record<string, unknown>;

export function answerCall(block: ToolsWorldBlock, call: ToolCall, state: EpisodeState, clockUnix: number, memo?: AnswerMemo): Answer {
  const key = callKey(call);
  const tool = block.definitions.find((t) => t.name === call.name);
  if (!tool) return { outcome: fail("not_found", `No tool named '${call.name}' is offered here (tools: ${block.definitions.map((t) => t.name).join(", ")}).`), effect: null, counted: false, key };
  const problem = validateArguments(tool.inputSchema, call.arguments);
  if (problem) return { outcome: fail("invalid_arguments", `Invalid arguments for ${tool.name}: ${problem.path} ${problem.message}.`), effect: null, counted: false, key };
  if (state.calls >= block.max_calls) return { outcome: fail("unavailable", `The episode's limit of ${block.max_calls} calls is reached.`), effect: null, counted: false, key };
  const nth = state.callsOf(tool.name) + 1;
  if (block.task.faults.some((f) => f.name === tool.name && f.nth === nth))
    return { outcome: fail("unavailable", `${tool.name} is temporarily unavailable; try the call again.`), effect: null, counted: true, key };

  let effect: CallEffect = null;
  if (tool.effect !== "read") {
    const expected = block.task.writes.find((w) => satisfies(call, w));
    if (expected && state.recordStatus(expected.record) === "pending") {
      const missing = block.task.prerequisites.find((p) => p.record === expected.record && !state.made(callKey(p.read)));
      if (missing) return { outcome: fail("not_ready", `${tool.name} cannot run yet: a step it depends on has not happened.`), effect: null, counted: true, key };
      effect = { kind: "move", record: expected.record };
    } else effect = { kind: "side_effect" };
  }
  const make = () => resultOf(block, call, clockUnix);
  const result = memo ? structuredClone(memo(`${block.set.sha256}:${block.draw_seed}:${block.task.id}:${key}`, make)) : make();
  const warnings = extraArguments(tool.inputSchema, call.arguments, tool.name);
  // A schema that does not forbid extra arguments accepts them, and a call with one is not the call a task
  // expects: the answer says so, so the agent (and the trace) can see why a write did not count.
  if (warnings.length && !Object.hasOwn(result, "warnings")) result.warnings = warnings;
  return { outcome: { ok: true, result }, effect, counted: true, key };
}

function extraArguments(schema: Record<string, unknown>, args: Record<string, unknown>, tool: string): string[] {
  const props = typeof schema.properties === "object" && schema.properties !== null ? Object.keys(schema.properties) : [];
  return Object.keys(args)
    .filter((k) => !props.includes(k))
    .map((k) => `'${k}' is not a parameter of ${tool} (its parameters: ${props.join(", ") || "none"}); the call was accepted with it, as a different call from one without it`);
}

/** The answer's content: drawn from the output schema (or {ok, id}), then the values the task hands over. */
export function resultOf(block: ToolsWorldBlock, call: ToolCall, clockUnix: number): Record<string, unknown> {
  const tool = block.definitions.find((t) => t.name === call.name)!;
  const draw = keyedDraw(`${block.set.sha256}:${block.draw_seed}:${call.name}:${canonicalJson(call.arguments)}`);
  let result: Record<string, unknown>;
  try {
    result = tool.outputSchema
      ? (makeValue(tool.outputSchema, draw, "result", clockUnix) as Record<string, unknown>)
      : { ok: true, id: makeString({ minLength: 8, maxLength: 8 }, draw, "id", clockUnix) };
  } catch (e) {
    if (!(e instanceof CannotMakeValue)) throw e;
    result = { ok: true };
  }
  const key = callKey(call);
  for (const d of block.task.deliveries) if (callKey(d.call) === key) setAtPath(result, d.path, d.value);
  return result;
}
