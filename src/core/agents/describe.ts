// The model agent's episode in lines for the results' evidence notes (and the report, which shows them): how
// the loop ended, the calls it made and what they answered, and what the model cost. Notes are where a reader
// debugging a trial already looks, and they need no change to the results contract.
import type { ModelAgentRun, ModelAgentUsage } from "./model-agent";

export function usageLine(u: ModelAgentUsage): string {
  const dollars = u.unpriced ? "cost unknown (the model has no price; --model-prices FILE)" : `$${(u.micros / 1e6).toFixed(4)}`;
  return `${u.requests} model request${u.requests === 1 ? "" : "s"}${u.cached ? ` (${u.cached} cached)` : ""}, ${u.input_tokens} tokens in / ${u.output_tokens} out, ${dollars}`;
}

export function endLine(label: string, run: ModelAgentRun, turnLimit: number): string {
  const turns = `${run.turns} turn${run.turns === 1 ? "" : "s"}`;
  switch (run.end) {
    case "answered":
      return `model agent ${label}: answered after ${turns}`;
    case "turn_limit":
      return `model agent ${label}: reached its turn limit (${turnLimit} turns) without a final answer`;
    case "model_error":
      return `model agent ${label}: stopped at turn ${run.turns}: the model call failed (${run.error?.kind ?? "error"}): ${run.error?.message ?? "unknown"}`;
    case "aborted":
      return `model agent ${label}: stopped at turn ${run.turns}: the episode's time ran out or the run was interrupted`;
  }
}

export function modelAgentNotes(label: string, run: ModelAgentRun, turnLimit: number): string[] {
  const lines = [endLine(label, run, turnLimit)];
  if (run.calls.length) {
    const shown = run.calls.slice(0, 24).map((c) => `${c.name} ${c.status ?? "-"}${c.error ? ` ${c.error}` : ""}`);
    lines.push(`tool calls (${run.calls.length}): ${shown.join(", ")}${run.calls.length > shown.length ? ", ..." : ""}`);
  } else lines.push("tool calls: none");
  for (const c of run.calls.filter((x) => x.malformed)) lines.push(`tool call ${c.name}: the model's arguments were not JSON; the world answered ${c.error ?? `HTTP ${c.status}`}`);
  lines.push(...run.remarks);
  lines.push(`model usage: ${usageLine(run.usage)}`);
  return lines;
}

/** Totals over a run's episodes, for the one line a command prints at the end. */
export function addUsage(into: ModelAgentUsage, u: ModelAgentUsage): void {
  into.requests += u.requests;
  into.cached += u.cached;
  into.input_tokens += u.input_tokens;
  into.output_tokens += u.output_tokens;
  into.micros += u.micros;
  into.unpriced ||= u.unpriced;
}
