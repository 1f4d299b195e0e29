// The verdict on a tools episode, by replay: the world answered every call through the simulator and logged each
// accepted write, so the store's end (the diff's records) and the calls' answers (the trace) say what happened.
// Verdicts, worst first: malformed_call, turn_limit, wrong_state, collateral_mutation, passed.
import type { WorldDiff } from "../../world/diff/types";
import type { GraderRecord } from "../../results/grader-record";
import type { ToolsWorldBlock } from "./world-block";

export const TOOLS_VERDICTS = ["malformed_call", "turn_limit", "wrong_state", "collateral_mutation", "passed"] as const;
export type ToolsVerdict = (typeof TOOLS_VERDICTS)[number];

export interface TracedCall {
  name: string;
  status: number;
  arguments: string;
  response: string;
}

export interface ToolsEpisodeEvidence {
  block: ToolsWorldBlock;
  diff: WorldDiff;
  calls: TracedCall[];
  /** The agent's final reply (stdout, or the model's last text). */
  reply: string | null;
  /** The agent's loop stopped at its turn limit (the built-in model agent says so). */
  turnLimitReached?: boolean;
}

export interface ToolsGrade extends GraderRecord {
  verdict: ToolsVerdict;
  side_effects: Array<{ tool: string; arguments: unknown }>;
}

export function gradeToolsEpisode(e: ToolsEpisodeEvidence): ToolsGrade {
  const reasons: string[] = [];
  const records = e.diff.entries.filter((x) => x.type === "records");
  const moved = new Set(records.filter((x) => x.op === "updated" && x.after?.status === "done").map((x) => x.id));
  const sideEffects = records
    .filter((x) => x.op === "created" && x.after?.status === "side_effect")
    .map((x) => ({ tool: String(x.after?.tool), arguments: x.after?.arguments }));
  const missing = e.block.task.writes.filter((w) => !moved.has(w.record));
  const malformed = e.calls.filter((c) => c.status === 404 || c.status === 422);
  const overLimit = e.calls.filter((c) => c.status === 503 && /limit of \d+ calls/.test(c.response));
  const reply = (e.reply ?? "").trim();

  let verdict: ToolsVerdict;
  if (malformed.length) {
    verdict = "malformed_call";
    for (const c of malformed) reasons.push(`${c.status === 404 ? "called a tool outside the block" : "broke the tool's schema"}: ${c.name}(${c.arguments.slice(0, 200)}) -> ${c.response.slice(0, 200)}`);
  } else if (e.turnLimitReached || overLimit.length) {
    verdict = "turn_limit";
    reasons.push(e.turnLimitReached ? "the agent's loop reached its turn limit" : `the episode went past its limit of ${e.block.max_calls} calls`);
  } else if (missing.length || !reply) {
    verdict = "wrong_state";
    for (const w of missing) reasons.push(`the expected ${w.name}(${JSON.stringify(w.arguments)}) was never made with those arguments`);
    if (!missing.length) reasons.push("the store ended as expected, but the episode ended without a reply");
  } else if (sideEffects.length) {
    verdict = "collateral_mutation";
    reasons.push("the goal was reached");
  } else {
    verdict = "passed";
    reasons.push(`the store ended as expected (${e.block.task.writes.map((w) => w.name).join(", ")}), with a reply`);
  }
  for (const s of sideEffects) reasons.push(`side effect: ${s.tool}(${JSON.stringify(s.arguments)}) was accepted`);
  const passed = verdict === "passed";
  return { grader: "tools_replay", verdict, passed, reward: passed ? 1 : 0, reasons, dollars_wrong_cents: null, side_effects: sideEffects };
}
