// A tool built on a REST twin makes the request an agent would have made: the same method, path and parameters,
// through the same service handler, scenario and trace. This module builds that request and reads its answer
// back as a tool outcome, so the tools never see HTTP details and the twins never see tools.
import type { Service, TwinRequest, TwinResponse } from "../twin";
import type { ToolCallContext, ToolErrorCode, ToolOutcome } from "./catalogue";

export interface ServiceCall {
  service: Service;
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** As a client sends it, e.g. /v1/refunds or /api/v2/tickets/4101.json. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  /** Form parameters (the billing API's encoding); nested keys already bracketed, e.g. items[0][price]. */
  form?: Record<string, string | number | boolean | undefined>;
  /** A JSON body (the help desk's encoding). */
  json?: unknown;
  idempotencyKey?: string;
}

/** Runs one service call through the world's own request pipeline and answers what the twin answered. */
export type ServiceSender = (ctx: ToolCallContext, call: ServiceCall) => TwinResponse;

function encode(params: Record<string, string | number | boolean | undefined> | undefined): string {
  const out = new URLSearchParams();
  for (const [k, v] of Object.entries(params ?? {})) if (v !== undefined) out.append(k, String(v));
  return out.toString();
}

export function twinRequestOf(call: ServiceCall, ids: { requestId: string; keyHash: string; origin: string }): TwinRequest {
  const json = call.json !== undefined;
  return {
    service: call.service,
    method: call.method,
    path: call.path,
    query: encode(call.query),
    body: json ? JSON.stringify(call.json) : encode(call.form),
    contentType: json ? "application/json" : call.form ? "application/x-www-form-urlencoded" : null,
    headers: { idempotencyKey: call.idempotencyKey ?? null, stripeVersion: null },
    keyHash: ids.keyHash,
    requestId: ids.requestId,
    origin: ids.origin,
  };
}

/**
 * The four codes from a twin's answer: a refusal is the arguments' fault unless it says otherwise. The billing
 * API names a missing object in a body parameter with a 400 (resource_missing); to a tool that is not_found.
 */
function codeOf(status: number, body: unknown): ToolErrorCode {
  const apiCode = (body as { error?: { code?: unknown } } | null)?.error?.code;
  if (status === 404 || apiCode === "resource_missing") return "not_found";
  if (status === 409) return "not_ready";
  if (status === 429 || status >= 500) return "unavailable";
  return "invalid_arguments";
}

/**
 * The message in either twin's error envelope, with the billing API's code and the Retry-After kept. Not the
 * API's `param`: it names the REST parameter (a charge's is `id`), which is not the tool's argument.
 */
function messageOf(res: TwinResponse, body: unknown): string {
  const b = (body ?? {}) as { error?: unknown; description?: unknown; details?: unknown };
  let message = `the twin answered ${res.status}`;
  if (b.error && typeof b.error === "object") {
    const e = b.error as { message?: unknown; code?: unknown };
    const code = typeof e.code === "string" ? `${e.code}: ` : "";
    if (typeof e.message === "string") message = `${code}${e.message}`;
  } else if (typeof b.error === "string") {
    message = typeof b.description === "string" ? `${b.error}: ${b.description}` : b.error;
    if (b.details && typeof b.details === "object") message += ` ${JSON.stringify(b.details)}`;
  }
  const retry = res.headers["retry-after"];
  return retry ? `${message} Retry after ${retry} s.` : message;
}

export function outcomeOf(res: TwinResponse): ToolOutcome {
  let body: unknown = null;
  try {
    body = res.body ? JSON.parse(res.body) : null;
  } catch {
    // not JSON: the status alone speaks
  }
  if (res.status >= 200 && res.status < 300) {
    if (body && typeof body === "object" && !Array.isArray(body)) return { ok: true, result: body as Record<string, unknown> };
    return { ok: false, error: { code: "unavailable", message: `the twin answered ${res.status} without a JSON object` } };
  }
  return { ok: false, error: { code: codeOf(res.status, body), message: messageOf(res, body) } };
}
