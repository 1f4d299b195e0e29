// One call to a replay world, decided from the block alone (pure; the world logs the write). A recorded call gets
// production's result; a lookup never recorded is answered as unrecorded, never invented; a write is always
// logged, and answered with production's result when production made the same one.
import { validateArguments } from "../../tools/simulate/validate";
import type { ToolOutcome } from "../../tools/definition";
import { canonicalJson } from "../../../util/canonical";
import { matchCall, type Match } from "./match";
import type { ReplayWorldBlock } from "./world-block";

export const UNRECORDED_PREFIX = "unrecorded:";

export interface ReplayAnswer {
  outcome: ToolOutcome;
  /** null when the call never reached the recordings (an unknown tool, arguments the schema refuses). */
  match: Match | null;
  /** Whether the call is logged as a write (any tool the task does not mark read). */
  write: boolean;
}

/** Production's result as a tool result: objects as they are; anything else (a list, text, null) under `result`. */
export function asToolResult(result: unknown): Record<string, unknown> {
  return result !== null && typeof result === "object" && !Array.isArray(result) ? (result as Record<string, unknown>) : { result };
}

export function answerReplayCall(block: ReplayWorldBlock, name: string, args: Record<string, unknown>): ReplayAnswer {
  const tool = block.tools.find((t) => t.name === name);
  if (!tool) return { outcome: { ok: false, error: { code: "not_found", message: `No tool named ${name}. This world's tools: ${block.tools.map((t) => t.name).join(", ") || "none"}.` } }, match: null, write: false };
  const match = matchCall(block.observations, name, args);
  // Production's own arguments are answered even if the task's schema would refuse them: they were real.
  if (match.kind !== "exact") {
    const problem = validateArguments(tool.inputSchema, args);
    if (problem) return { outcome: { ok: false, error: { code: "invalid_arguments", message: `${problem.path}: ${problem.message}` } }, match: null, write: false };
  }
  const write = tool.effect !== "read";
  if (match.kind !== "unrecorded") return { outcome: { ok: true, result: asToolResult(block.observations[match.index].result) }, match, write };
  if (write) return { outcome: { ok: true, result: { logged: true, tool: name, note: "Logged for grading. Production recorded no result for this call, so none is given." } }, match, write };
  return {
    outcome: { ok: false, error: { code: "not_found", message: `${UNRECORDED_PREFIX} production never made this lookup (${name} ${canonicalJson(args)}), so the replay world has no result for it and invents none.` } },
    match,
    write,
  };
}
