// What the agent sent the twin, counted from a world's trace: the evidence for "inconclusive" (no billing
// traffic at all, or calls the twin does not model). Structural input, so Node and the Worker both use it.
import type { Traffic } from "../results/index";

export interface TraceLine {
  service: string;
  method: string;
  path: string;
  response_body?: string;
  note?: string | null;
}

export function summarizeTraffic(trace: readonly TraceLine[]): Traffic {
  const out: Traffic = { billing_requests: 0, desk_requests: 0, unsupported: [] };
  for (const r of trace) {
    if (r.service === "stripe") out.billing_requests++;
    // A tool call's own row is not traffic (the twin requests it made are traced beside it and counted here), and
    // neither is a turn with the person.
    else if (r.service === "helpdesk") out.desk_requests++;
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
