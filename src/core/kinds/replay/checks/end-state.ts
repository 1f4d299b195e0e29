// Declarative end-state checks: a write that must, or must not, be among a run's writes. Pure and exact, for the
// outcomes that need no judge (a refund that must not exist, a cancellation that must).
import { canonicalJson } from "../../../util/canonical";
import type { EndStateCheck, ToolCall } from "../task-format/format";
import { holdsArguments } from "../recorded/match";

export interface CriterionResult {
  id: string;
  /** The criterion's claim, or the check in words. */
  claim: string;
  /** null: not graded (the judge could not answer). */
  met: boolean | null;
  /** One sentence. */
  reason: string;
  by: "judge" | "check";
}

export function checkClaim(c: EndStateCheck): string {
  if (c.description) return c.description;
  const args = Object.keys(c.arguments).length ? ` with ${canonicalJson(c.arguments)}` : "";
  return `${c.must === "exist" ? "A" : "No"} ${c.tool} write${args} is among the run's writes.`;
}

export function checkEndState(checks: readonly EndStateCheck[], writes: readonly ToolCall[]): CriterionResult[] {
  return checks.map((c) => {
    const hits = writes.filter((w) => w.tool === c.tool && holdsArguments(w.arguments, c.arguments));
    const found = hits.length > 0;
    const met = c.must === "exist" ? found : !found;
    const which = found ? `${hits.length} matching write${hits.length === 1 ? "" : "s"} (first: ${c.tool} ${canonicalJson(hits[0].arguments)})` : `no matching write among ${writes.length}`;
    return { id: c.id, claim: checkClaim(c), met, reason: `${met ? "met" : "not met"}: ${which}.`, by: "check" };
  });
}
