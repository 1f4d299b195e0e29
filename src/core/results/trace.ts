// The agent's calls as a report shows them: the world's trace (every request, tool call and person turn, in the
// order the world answered them) cut to one line per call, each linked to the diff entries it caused through the
// change log's request ids. Bounded (steps and characters) and scrubbed of anything shaped like a key or token,
// because results files are shared and attached to CI runs. Pure: the CLI and the Worker build the same steps.
import { z } from "zod";
import type { TraceRecord } from "../../../durable-objects/protocol";
import type { WorldDiff } from "../world/diff/types";

/** Which way the agent reached the world: a REST twin, a tool surface, or the person. */
export const TRACE_SURFACES = ["billing", "desk", "mcp", "tool", "person"] as const;
export type TraceSurface = (typeof TRACE_SURFACES)[number];

export const traceStep = z.strictObject({
  /** The world's order of answers, 1-based. (Request ids are random, so the results never carry them here.) */
  seq: z.number().int().nonnegative(),
  surface: z.enum(TRACE_SURFACES),
  /** HTTP method, or CALL for a tool call, SAY for a person turn. */
  method: z.string(),
  /** The path without its query, or the tool's name. */
  target: z.string(),
  /** The arguments that matter (ids, amounts, status first), `name=value` joined by spaces; bounded. */
  args: z.string(),
  status: z.number().int(),
  /** The answer in one line (the object made, the error's message, a list's length); bounded. */
  answer: z.string(),
  /** The diff entries this call caused, as `op type id` (what the diff table lists). */
  changes: z.array(z.string()).default([]),
  /** The step of the tool call that made this request (an account world's tools run through its REST twins), or null. */
  within: z.number().int().nonnegative().nullable().default(null),
});
export type TraceStep = z.infer<typeof traceStep>;

export const worldTrace = z.strictObject({
  steps: z.array(traceStep),
  /** How many rows the world traced; more than `steps.length` when the trace was cut to its bound. */
  total: z.number().int().nonnegative(),
});
export type WorldTrace = z.infer<typeof worldTrace>;

/** The fields of a world's trace row read here. */
export type TraceRow = Pick<TraceRecord, "seq" | "request_id" | "service" | "method" | "path" | "query" | "request_body" | "status" | "response_body">;

/** An episode of a few hundred calls is shown whole; past that the calls that changed something or failed are kept first. */
export const MAX_TRACE_STEPS = 300;
const MAX_ARGS_CHARS = 200;
const MAX_ANSWER_CHARS = 160;
const MAX_FIELDS = 12;
/** Fields that say what a call was about, shown before any other. */
const FIRST = /(^|[._[])(id|ids|amount|amount_off|percent_off|status|reason|customer|charge|invoice|subscription|price|quantity|ticket|refund|cancel_at_period_end|proration_behavior|coupon)(\]|$)/;

/** The agent's calls from a world's trace, each with the diff entries its request made. */
export function traceSteps(rows: readonly TraceRow[], diff: Pick<WorldDiff, "entries"> | null): WorldTrace {
  const changesOf = new Map<string, string[]>();
  for (const e of diff?.entries ?? []) {
    const ref = `${e.op} ${e.type} ${e.id}`;
    for (const id of new Set(e.request_ids)) {
      const list = changesOf.get(id) ?? [];
      if (!list.includes(ref)) list.push(ref);
      changesOf.set(id, list);
    }
  }
  const toolCalls = new Map(rows.filter((r) => r.service === "tools").map((r) => [r.request_id, r.seq]));
  const steps = rows.map((r): TraceStep => {
    const own = changesOf.get(r.request_id) ?? [];
    // A tool call made its changes through the twin requests it sent (`<call>.<n>`): the call caused them too.
    const made = r.service === "tools" ? [...changesOf].filter(([id]) => id.startsWith(`${r.request_id}.`)).flatMap(([, c]) => c) : [];
    const parent = r.request_id.includes(".") ? r.request_id.slice(0, r.request_id.lastIndexOf(".")) : null;
    return {
      seq: r.seq,
      surface: surfaceOf(r),
      method: r.service === "person" ? "SAY" : r.method,
      target: r.service === "tools" ? r.path : r.path.split("?")[0],
      args: scrub(cut(argsOf(r), MAX_ARGS_CHARS)),
      status: r.status,
      answer: scrub(cut(answerOf(r), MAX_ANSWER_CHARS)),
      changes: [...new Set([...own, ...made])],
      within: parent !== null ? (toolCalls.get(parent) ?? null) : null,
    };
  });
  return { steps: bound(steps), total: rows.length };
}

function surfaceOf(r: TraceRow): TraceSurface {
  if (r.service === "stripe") return "billing";
  if (r.service === "helpdesk") return "desk";
  if (r.service === "person") return "person";
  return /(^|&)via=mcp(&|$)/.test(r.query) ? "mcp" : "tool";
}

/** Keeps every step when few; else those that changed something or were refused, then the earliest, in order. */
function bound(steps: TraceStep[]): TraceStep[] {
  if (steps.length <= MAX_TRACE_STEPS) return steps;
  const keep = new Set<number>();
  for (const s of steps) if (keep.size < MAX_TRACE_STEPS && (s.changes.length > 0 || s.status >= 400)) keep.add(s.seq);
  for (const s of steps) if (keep.size < MAX_TRACE_STEPS) keep.add(s.seq);
  return steps.filter((s) => keep.has(s.seq));
}

function argsOf(r: TraceRow): string {
  if (r.service === "person") return quoteField(parseJson(r.request_body), "said");
  const query = r.service === "tools" ? "" : (r.query || (r.path.includes("?") ? r.path.slice(r.path.indexOf("?") + 1) : ""));
  const pairs: [string, string][] = [...formPairs(query)];
  const body = r.request_body.trim();
  if (body) {
    const json = parseJson(body);
    if (json !== undefined) pairs.push(...flatten(json, ""));
    else if (!body.startsWith("{") && !body.startsWith("[")) pairs.push(...formPairs(body));
    else pairs.push(["(unreadable)", body]);
  }
  const first = pairs.filter(([k]) => FIRST.test(k));
  const rest = pairs.filter(([k]) => !FIRST.test(k));
  return [...first, ...rest]
    .slice(0, MAX_FIELDS)
    .map(([k, v]) => `${k}=${v}`)
    .join(" ");
}

function answerOf(r: TraceRow): string {
  const json = parseJson(r.response_body);
  if (r.service === "person") return quoteField(json, "reply");
  if (json === undefined) return oneLine(r.response_body);
  if (!isObject(json)) return oneLine(JSON.stringify(json));
  const error = json.error;
  if (isObject(error) && typeof error.message === "string") return `error: ${oneLine(error.message)}`;
  if (typeof error === "string") return `error: ${oneLine(typeof json.description === "string" ? `${error} (${json.description})` : error)}`;
  if (json.object === "list" && Array.isArray(json.data)) return `list of ${json.data.length}${json.has_more ? ", more" : ""}`;
  // A desk answer wraps its object (`{ticket: {...}}`) or list (`{tickets: [...]}`) in the collection's name.
  const keys = Object.keys(json);
  if (keys.length >= 1 && keys.length <= 4) {
    const list = keys.find((k) => Array.isArray(json[k]));
    if (list) return `${list}: ${(json[list] as unknown[]).length}`;
    const one = keys.find((k) => isObject(json[k]) && "id" in (json[k] as object));
    if (one) return `${one} ${summary(json[one] as Record<string, unknown>)}`;
  }
  return summary(json);
}

/** An object in a few fields: its id and kind, then amount and status when it has them. */
function summary(o: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const k of ["object", "id", "amount", "status", "result", "ok"]) if (k in o && isScalar(o[k])) parts.push(k === "object" || k === "id" ? String(o[k]) : `${k}=${String(o[k])}`);
  return parts.length ? parts.join(" ") : oneLine(JSON.stringify(o));
}

function flatten(v: unknown, prefix: string, depth = 0): [string, string][] {
  if (isScalar(v) || v === null) return [[prefix || "(body)", oneLine(String(v))]];
  // Bounded: a deep or wide body says enough in its first levels.
  if (depth >= 3) return [[prefix, oneLine(JSON.stringify(v))]];
  const entries: [string, unknown][] = Array.isArray(v) ? v.map((x, i) => [String(i), x]) : Object.entries(v as Record<string, unknown>);
  return entries.slice(0, MAX_FIELDS).flatMap(([k, x]) => flatten(x, prefix ? `${prefix}.${k}` : k, depth + 1));
}

function formPairs(text: string): [string, string][] {
  if (!text) return [];
  try {
    return [...new URLSearchParams(text)].map(([k, v]) => [k, oneLine(v)]);
  } catch {
    return [["(query)", oneLine(text)]];
  }
}

function quoteField(json: unknown, field: string): string {
  return isObject(json) && typeof json[field] === "string" ? `"${oneLine(json[field] as string)}"` : "";
}

function parseJson(text: string): unknown {
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isScalar = (v: unknown): v is string | number | boolean => typeof v === "string" || typeof v === "number" || typeof v === "boolean";
const oneLine = (s: string) => s.replace(/[\s\u0000-\u001f\u007f-\u009f]+/g, " ").trim();
const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/**
 * Anything shaped like a secret becomes its kind and an ellipsis: Stripe-style keys (sk_, rk_, pk_, whsec_), a
 * bearer or basic credential, and the value of a field named like a key, token, secret or password.
 */
export function scrub(s: string): string {
  return s
    .replace(/\b(sk|rk|pk|whsec)_(live_|test_)?[A-Za-z0-9]{8,}/g, "$1_…")
    .replace(/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, "$1 …")
    .replace(/((?:^|[\s.&"'{,[])[\w.-]*(?:api_?key|token|secret|password|authorization)\]?["']?\s*[=:]\s*["']?)[^\s"'&,}]+/gi, "$1…");
}
