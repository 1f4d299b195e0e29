// How far a run kept to the recording: its tool calls counted by how the replay world answered them, from the
// same pure rules the world used (so a count read from the trace is the world's own).
import type { ToolCall } from "../task-format/format";
import { answerReplayCall } from "./answer";
import type { ReplayWorldBlock } from "./world-block";

export interface ReplayTally {
  calls: number;
  exact: number;
  near: number;
  /** Lookups production never made: answered as unrecorded. */
  unrecorded: number;
  /** Writes, recorded or not (every one logged). */
  writes: number;
  /** Calls refused before any recording was consulted (unknown tool, bad arguments). */
  refused: number;
  /** The unrecorded lookups themselves, in order, for the report. */
  unrecorded_calls: ToolCall[];
}

export function tallyCalls(block: ReplayWorldBlock, calls: readonly ToolCall[]): ReplayTally {
  const t: ReplayTally = { calls: calls.length, exact: 0, near: 0, unrecorded: 0, writes: 0, refused: 0, unrecorded_calls: [] };
  for (const c of calls) {
    const a = answerReplayCall(block, c.tool, c.arguments);
    if (!a.match) t.refused++;
    else if (a.match.kind === "exact") t.exact++;
    else if (a.match.kind === "near") t.near++;
    else if (!a.write) (t.unrecorded++, t.unrecorded_calls.push({ tool: c.tool, arguments: c.arguments }));
    if (a.match && a.write) t.writes++;
  }
  return t;
}
