// The admin API seen from the CLI: worlds, their diffs and traces, seeds. Every failure becomes a ServerError
// whose exitCode follows the result contract (3 = the server or a thing it should hold is missing).
import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { WorldDiff } from "../core/world/diff/types";
import type { TraceRecord } from "../../durable-objects/protocol";
import type { RunSummary, RunView } from "../core/pipeline/index";
import type { RunImport } from "../hosted/runs/import-request";
import { send, type TransportResponse } from "./http/transport";

export const createdWorldSchema = z.object({
  id: z.string(),
  key: z.string(),
  seed: z.object({ name: z.string(), hash: z.string() }),
  objects: z.number(),
  stripe_api_base: z.string(),
  zendesk_url: z.string(),
  // Optional: a server from before the tool surfaces answers without them (agentEnv derives them then).
  mcp_url: z.string().optional(),
  tools_url: z.string().optional(),
  /** Only for a world with a person to talk to. */
  person_url: z.string().optional(),
});
export type CreatedWorld = z.infer<typeof createdWorldSchema>;

const worldInfoSchema = z.object({
  id: z.string(),
  seed: z.object({ name: z.string(), hash: z.string() }),
  clock: z.string(),
  objects: z.record(z.string(), z.number()),
  requests: z.object({ stripe: z.number(), helpdesk: z.number() }),
  changes: z.number(),
});
export type WorldInfoResponse = z.infer<typeof worldInfoSchema>;

const diffSchema = z.looseObject({
  world: z.string(),
  seed: z.object({ name: z.string(), hash: z.string() }),
  entries: z.array(z.looseObject({ type: z.string(), id: z.string(), op: z.enum(["created", "updated", "deleted"]) })),
  counts: z.looseObject({}),
});

const traceRecordSchema = z.looseObject({
  seq: z.number(),
  request_id: z.string(),
  service: z.enum(["stripe", "helpdesk", "tools", "person"]),
  method: z.string(),
  path: z.string(),
  status: z.number(),
  note: z.enum(["unknown_route", "unknown_parameter"]).nullable().optional(),
});

const personTranscript = z.object({ turns: z.array(z.object({ role: z.enum(["agent", "person"]), text: z.string() })), done: z.boolean() });
export type PersonTranscript = z.infer<typeof personTranscript>;
const endedSchema = z.object({ id: z.string(), deleted: z.literal(true), diff: diffSchema, trace_records: z.array(z.unknown()), person: personTranscript.nullable().optional() });

function checkTraceRecord(world: string, value: unknown, where: string): TraceRecord {
  const r = traceRecordSchema.safeParse(value);
  if (!r.success) throw new ServerError("bad_response", `trace of ${world}: ${where} is not a trace record (${r.error.issues[0]?.message}).`);
  return value as TraceRecord;
}

const runSummarySchema = z.looseObject({ id: z.string(), status: z.string(), mode: z.string(), source: z.string(), runs: z.number(), tasks: z.number(), created_at: z.string() });
const runViewSchema = runSummarySchema.extend({ progress: z.looseObject({ total: z.number(), finished: z.number() }), results: z.looseObject({}).nullable() });

const seedSummarySchema = z.object({ name: z.string(), hash: z.string() }).passthrough();

export type ServerErrorKind = "unreachable" | "unauthorized" | "not_found" | "bad_request" | "server" | "bad_response";

export class ServerError extends Error {
  constructor(
    readonly kind: ServerErrorKind,
    message: string,
    readonly status: number | null = null,
    readonly code: string | null = null,
  ) {
    super(message);
  }
  /** The result contract's code for a failure to set up: bad input we sent is the user's configuration (2). */
  get exitCode(): number {
    return this.kind === "bad_request" ? 2 : 3;
  }
}

export interface AdminClientOptions {
  /** Per-request timeout; a server that stops answering is reported, not waited on forever. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** The server is the local one this command started (--server auto, or no server named): advice must not be to start one. */
  localServer?: boolean;
}

/** What one admin call needs beyond method and path. */
interface CallOptions {
  requireOk?: boolean;
  headers?: Record<string, string>;
  /** Sending it twice has the effect of sending it once (see TransportRequest.retrySafe). */
  retrySafe?: boolean;
}

export class AdminClient {
  readonly url: string;
  constructor(
    url: string,
    private readonly token: string,
    private readonly opts: AdminClientOptions = {},
  ) {
    this.url = url.replace(/\/+$/, "");
  }

  async health(): Promise<boolean> {
    const res = await this.request("GET", "/health", undefined, { requireOk: false });
    return res.ok;
  }

  /**
   * The key makes the request safe to repeat: a retry after a dropped connection answers the world the first
   * attempt made (the server derives the world from it) instead of making a second one.
   */
  createWorld(seed: string | Record<string, unknown>, scenario?: unknown, opts: { person?: Record<string, unknown> } = {}): Promise<CreatedWorld> {
    const body = { seed, ...(scenario === undefined || scenario === null ? {} : { scenario }), ...(opts.person ? { person: opts.person } : {}) };
    return this.json("POST", "/admin/worlds", createdWorldSchema, body, { headers: { "idempotency-key": `wc_${randomUUID()}` }, retrySafe: true });
  }

  world(id: string): Promise<WorldInfoResponse> {
    return this.json("GET", `/admin/worlds/${encodeURIComponent(id)}`, worldInfoSchema);
  }

  async diff(id: string): Promise<WorldDiff> {
    return (await this.json("GET", `/admin/worlds/${encodeURIComponent(id)}/diff`, diffSchema)) as unknown as WorldDiff;
  }

  async objects(id: string, type: string): Promise<Record<string, unknown>[]> {
    const out = await this.json("GET", `/admin/worlds/${encodeURIComponent(id)}/objects?type=${encodeURIComponent(type)}`, z.object({ data: z.array(z.record(z.string(), z.unknown())) }));
    return out.data;
  }

  async trace(id: string): Promise<TraceRecord[]> {
    const res = await this.request("GET", `/admin/worlds/${encodeURIComponent(id)}/trace`);
    const records: TraceRecord[] = [];
    for (const [i, line] of res.text().split("\n").entries()) {
      if (!line.trim()) continue;
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        throw new ServerError("bad_response", `trace of ${id}: line ${i + 1} is not JSON.`);
      }
      records.push(checkTraceRecord(id, parsed, `line ${i + 1}`));
    }
    return records;
  }

  /** A world's diff and trace as they stand, the world left as it is. */
  async contents(id: string): Promise<{ diff: WorldDiff; trace: TraceRecord[] }> {
    const [diff, trace] = await Promise.all([this.diff(id), this.trace(id)]);
    return { diff, trace };
  }

  /**
   * Deletes a world and answers what it held at its end (diff and trace) in one round trip. A server from
   * before `POST /admin/worlds/:id/end` answers its route 404: then the three calls it replaces. Safe to repeat
   * after a reset connection, as a DELETE is: ending an ended world changes nothing (it answers 404).
   */
  async endWorld(id: string): Promise<{ diff: WorldDiff; trace: TraceRecord[]; person?: PersonTranscript | null }> {
    let ended: z.infer<typeof endedSchema>;
    try {
      ended = await this.json("POST", `/admin/worlds/${encodeURIComponent(id)}/end`, endedSchema, undefined, { retrySafe: true });
    } catch (e) {
      if (!(e instanceof ServerError && e.kind === "not_found" && e.code === "not_found")) throw e;
      const contents = await this.contents(id);
      await this.deleteWorld(id);
      return contents;
    }
    return { diff: ended.diff as unknown as WorldDiff, trace: ended.trace_records.map((t, i) => checkTraceRecord(id, t, `record ${i + 1}`)), person: ended.person ?? null };
  }

  async deleteWorld(id: string): Promise<void> {
    await this.request("DELETE", `/admin/worlds/${encodeURIComponent(id)}`);
  }

  async seeds(): Promise<{ name: string; hash: string }[]> {
    return (await this.json("GET", "/admin/seeds", z.object({ data: z.array(seedSummarySchema) }))).data;
  }

  /** The seed document the server would load for `name` (what the tasks compiler builds on). */
  seed(name: string): Promise<Record<string, unknown>> {
    return this.json("GET", `/admin/seeds/${encodeURIComponent(name)}`, z.record(z.string(), z.unknown()));
  }

  /** Registers a finished CLI run (idempotent by its run id); answers whether this call created it. */
  async importRun(body: RunImport): Promise<{ run_id: string; created: boolean }> {
    return this.json("POST", "/admin/runs/import", z.object({ run_id: z.string(), created: z.boolean() }), body, { retrySafe: true });
  }

  /** Runs newest first (CLI and hosted), optionally of one status. */
  async runs(o: { status?: string; limit?: number } = {}): Promise<RunSummary[]> {
    const q = new URLSearchParams();
    if (o.status) q.set("status", o.status);
    if (o.limit) q.set("limit", String(o.limit));
    return (await this.json("GET", `/admin/runs${q.size ? `?${q}` : ""}`, z.object({ data: z.array(runSummarySchema) }))).data as unknown as RunSummary[];
  }

  async run(id: string): Promise<RunView> {
    return (await this.json("GET", `/admin/runs/${encodeURIComponent(id)}`, runViewSchema)) as unknown as RunView;
  }

  private async json<S extends z.ZodType>(method: string, path: string, schema: S, body?: unknown, call: CallOptions = {}): Promise<z.infer<S>> {
    const res = await this.request(method, path, body, call);
    let parsed: unknown;
    try {
      parsed = res.json();
    } catch {
      throw new ServerError("bad_response", `${method} ${path}: the server's answer is not JSON. Is ${this.url} a worlds server?`, res.status);
    }
    const checked = schema.safeParse(parsed);
    if (!checked.success) throw new ServerError("bad_response", `${method} ${path}: unexpected answer (${checked.error.issues[0]?.path.join(".")}: ${checked.error.issues[0]?.message}). Is ${this.url} a worlds server of this version?`, res.status);
    return checked.data;
  }

  private async request(method: string, path: string, body?: unknown, call: CallOptions = {}): Promise<TransportResponse> {
    let res: TransportResponse;
    try {
      res = await send({
        method,
        url: this.url + path,
        headers: { authorization: `Bearer ${this.token}`, ...(body === undefined ? {} : { "content-type": "application/json" }), ...call.headers },
        body: body === undefined ? undefined : JSON.stringify(body),
        timeoutMs: this.opts.timeoutMs ?? 60_000,
        signal: this.opts.signal,
        retrySafe: call.retrySafe,
      });
    } catch (e) {
      if (this.opts.signal?.aborted) throw e;
      throw new ServerError("unreachable", unreachableMessage(this.url, `${method} ${path}`, e, this.opts.localServer ?? false));
    }
    if (call.requireOk === false || res.ok) return res;
    const err = errorBody(res);
    const code = err?.error?.code ?? null;
    const message = err?.error?.message ?? `HTTP ${res.status}`;
    if (res.status === 401 || res.status === 403 || code === "server_token_missing")
      throw new ServerError("unauthorized", `${this.url} refused the admin token (${message}). Pass the server's token with --token or WORLDS_TOKEN.`, res.status, code);
    if (res.status === 404) throw new ServerError("not_found", message, res.status, code);
    if (res.status >= 400 && res.status < 500) throw new ServerError("bad_request", `${method} ${path}: ${message}${issuesText(err)}`, res.status, code);
    throw new ServerError("server", `${method} ${path}: the server failed (${res.status} ${message}).`, res.status, code);
  }
}

/**
 * Why a call got no answer, and what to do about it. A refused connection means no server there; a reset or a
 * timeout means one that was there went away or stalled. The advice never repeats what the user already did:
 * a command's own local server is not one they can start or pass.
 */
export function unreachableMessage(url: string, call: string, e: unknown, localServer: boolean): string {
  // A socket error's code (ECONNREFUSED...), else the error's name (TimeoutError; a DOMException's numeric code
  // says nothing to a user).
  const code = (e as NodeJS.ErrnoException).code;
  const cause = typeof code === "string" ? code : (e as Error).name;
  const absent = ["ECONNREFUSED", "ENOTFOUND", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN"].includes(cause);
  if (localServer)
    return absent
      ? `the local server this command started at ${url} stopped answering (${cause} on ${call}). \`worlds serve --verbose\` runs it on its own and shows its log.`
      : `the local server this command started at ${url} dropped ${call} (${cause}). Run the command again; if it recurs, \`worlds serve --verbose\` shows the server's log.`;
  if (absent) return `no worlds server answers at ${url} (${cause}). Start one with \`worlds serve\`, or leave out --url and WORLDS_URL to run a local one.`;
  return `the worlds server at ${url} did not answer ${call} (${cause}). Check that it is still running, then run the command again.`;
}

function errorBody(res: TransportResponse): { error?: { code?: string; message?: string } } | null {
  try {
    return res.json() as { error?: { code?: string; message?: string } } | null;
  } catch {
    return null;
  }
}

function issuesText(err: unknown): string {
  const issues = (err as { error?: { issues?: { path?: string; message?: string }[] } } | null)?.error?.issues;
  if (!Array.isArray(issues) || issues.length === 0) return "";
  return "\n" + issues.slice(0, 10).map((i) => `  ${typeof i === "object" ? `${i.path ?? ""}: ${i.message ?? JSON.stringify(i)}` : String(i)}`).join("\n");
}
