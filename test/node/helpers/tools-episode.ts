// A tools world in memory: the simulator's rules applied the way the Durable Object applies them, a diff and a
// trace as the grader reads them, and the careful agent that solves a task by reading handed-over values from the
// answers it got (never from the task's key). Shared by the generator's and the dials' tests.
import type { DiffEntry, WorldDiff } from "../../../src/core/world/diff/types";
import { gradeToolsEpisode, type TracedCall } from "../../../src/core/kinds/tools/grade";
import { answerCall, callKey } from "../../../src/core/kinds/tools/simulate/answer";
import { valuesAtPath } from "../../../src/core/kinds/tools/simulate/paths";
import type { ToolsTask } from "../../../src/core/kinds/tools/tasks/generate";
import type { ToolCall, ToolsWorldBlock } from "../../../src/core/kinds/tools/world-block";
import type { ToolOutcome } from "../../../src/core/kinds/tools/definition";

export const CLOCK = Date.parse("2026-09-15T12:00:00Z") / 1000;
const STATUS = { not_found: 404, invalid_arguments: 422, not_ready: 409, unavailable: 503 } as const;

export function episode(block: ToolsWorldBlock) {
  const status = new Map(block.task.writes.map((w) => [w.record, "pending"]));
  const per = new Map<string, number>();
  const made = new Set<string>();
  const entries: DiffEntry[] = [];
  const calls: TracedCall[] = [];
  let total = 0;
  let side = 0;
  const call = (c: ToolCall): ToolOutcome => {
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
    calls.push({ name: c.name, status: a.outcome.ok ? 200 : STATUS[a.outcome.error.code], arguments: JSON.stringify(c.arguments), response: JSON.stringify(a.outcome) });
    return a.outcome;
  };
  const grade = (reply: string | null) => gradeToolsEpisode({ block, diff: { entries } as unknown as WorldDiff, calls, reply });
  return { call, grade, calls };
}

/**
 * The careful agent: makes each expected call, retrying one that is unavailable, and takes every handed-over value
 * from the answers: a value one answer carries whole, or (spread) the pieces several answers carry, joined in order.
 */
export function solve(task: ToolsTask, w = episode(task.world), o: { retry?: boolean } = {}) {
  const answers = new Map<string, Record<string, unknown>>();
  const answered = (d: { call: ToolCall; path: string }) => valuesAtPath(answers.get(callKey(d.call)), d.path)[0];
  for (const c of task.expected.calls) {
    const args = { ...c.arguments };
    const incoming = task.world.task.deliveries.filter((d) => callKey(d.call) !== callKey(c) && answers.has(callKey(d.call)));
    for (const [k, v] of Object.entries(args)) {
      const whole = incoming.find((d) => d.value === v);
      if (whole) args[k] = answered(whole);
      else if (typeof v === "string" && incoming.length > 1 && incoming.map((d) => String(d.value)).join("") === v) args[k] = incoming.map((d) => String(answered(d))).join("");
    }
    let out = w.call({ name: c.name, arguments: args });
    for (let i = 0; !out.ok && out.error.code === "unavailable" && o.retry !== false && i < 8; i++) out = w.call({ name: c.name, arguments: args });
    if (out.ok) answers.set(callKey(c), out.result);
  }
  return w;
}
