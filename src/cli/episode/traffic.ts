// What the agent sent the twin, counted from a world's trace: the evidence for "inconclusive" (no billing
// traffic at all, or calls the twin does not model).
import type { TraceRecord } from "../../../durable-objects/protocol";

export interface TrafficSummary {
  billing_requests: number;
  desk_requests: number;
  unsupported: { method: string; path: string; kind: "route" | "parameter"; message: string }[];
}

export function summarizeTraffic(trace: readonly TraceRecord[]): TrafficSummary {
  const out: TrafficSummary = { billing_requests: 0, desk_requests: 0, unsupported: [] };
  for (const r of trace) {
    if (r.service === "stripe") out.billing_requests++;
    else out.desk_requests++;
    if (r.note === "unknown_route" || r.note === "unknown_parameter")
      out.unsupported.push({ method: r.method, path: r.path, kind: r.note === "unknown_route" ? "route" : "parameter", message: errorMessage(r.response_body) });
  }
  return out;
}

/** The error message in either service's envelope, for quoting in the reason line. */
function errorMessage(body: string | undefined): string {
  if (!body) return "";
  try {
    const j = JSON.parse(body) as { error?: { message?: string } | string; description?: string };
    if (typeof j.error === "object" && j.error?.message) return j.error.message;
    if (typeof j.description === "string") return j.description;
    if (typeof j.error === "string") return j.error;
  } catch {
    // not JSON: no message to quote
  }
  return "";
}
