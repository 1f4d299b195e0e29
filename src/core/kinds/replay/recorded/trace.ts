// A replay world's tool calls read back from its trace (GET /admin/worlds/:id/trace, or the end of a world), in
// the order they were made: what a grader and the tally read of a live run.
import type { ToolCall } from "../task-format/format";

/** The fields of a trace record this needs (durable-objects/protocol.ts, TraceRecord). */
export interface TracedCall {
  service: string;
  path: string;
  request_body: string;
  status: number;
  response_body: string;
}

const TOOLS_SERVICE = "tools";

export function toolCallsOfTrace(trace: readonly TracedCall[]): ToolCall[] {
  const out: ToolCall[] = [];
  for (const r of trace) {
    if (r.service !== TOOLS_SERVICE) continue;
    let args: unknown;
    let result: unknown;
    try {
      args = JSON.parse(r.request_body);
      result = JSON.parse(r.response_body);
    } catch {
      continue;
    }
    out.push({ tool: r.path, arguments: args && typeof args === "object" && !Array.isArray(args) ? (args as Record<string, unknown>) : {}, result });
  }
  return out;
}
