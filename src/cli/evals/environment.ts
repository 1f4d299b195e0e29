// Worlds made by an environment of your own (`--environment CMD`), one process per episode, reached by the agent
// the way it reaches a server's world: a loopback HTTP surface with the world's own key as Bearer, serving
// `/tools/v1` (list, call) and `/person/v1` (respond, conversation). The episode runner sees the same shape as
// the server's admin API (create, end, delete), so one episode loop and one grader path serve both; what the
// environment says of its end (`state`) is kept for the grader.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import type { TraceRecord } from "../../../durable-objects/protocol";
import type { WorldDiff } from "../../core/world/diff/types";
import { BODY_MAX_DEPTH, describeTreeProblem, findTreeProblem } from "../../core/util/safe-tree";
import type { CreatedWorld, PersonTranscript } from "../client";
import type { EpisodeWorlds } from "../episode/episode";
import { EnvironmentProcess, envCallAnswer, envRespondAnswer, envStartAnswer, envStateAnswer, type EnvStart } from "./env-process";

const MAX_BODY_BYTES = 1024 * 1024;

interface OwnWorld {
  id: string;
  key: string;
  kind: string;
  process: EnvironmentProcess;
  start: EnvStart;
  trace: TraceRecord[];
  transcript: PersonTranscript;
  state: unknown;
  stateError: string | null;
  closed: boolean;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export class OwnEnvironments implements EpisodeWorlds {
  private server: Server | null = null;
  private base = "";
  private worlds = new Map<string, OwnWorld>();
  private byKey = new Map<string, OwnWorld>();
  private count = 0;

  constructor(
    readonly cmd: string,
    private readonly requestTimeoutMs?: number,
  ) {}

  /** Starts the loopback surface; call once before the first episode. */
  async listen(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    await Promise.all([...this.worlds.keys()].map((id) => this.deleteWorld(id)));
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** `seed` is the task as the file holds it: the environment is started with it. */
  async createWorld(seed: string | Record<string, unknown>): Promise<CreatedWorld> {
    if (typeof seed === "string") throw new Error("an environment of your own is started from a task, not a seed name");
    const kind = String((seed.environment as Record<string, unknown> | undefined)?.kind ?? "own");
    const id = `own_${++this.count}`;
    const proc = new EnvironmentProcess(this.cmd, this.requestTimeoutMs);
    let start: EnvStart;
    try {
      start = await proc.ask({ op: "start", task: seed }, envStartAnswer);
    } catch (e) {
      await proc.close();
      throw e;
    }
    const opening = start.message ?? String(seed.prompt ?? "");
    const w: OwnWorld = { id, key: `own_${randomBytes(16).toString("hex")}`, kind, process: proc, start, trace: [], transcript: { turns: [{ role: "person", text: opening }], done: false }, state: null, stateError: null, closed: false };
    this.worlds.set(id, w);
    this.byKey.set(w.key, w);
    return { id, key: w.key, seed: { name: kind, hash: "" }, objects: 0, stripe_api_base: "", zendesk_url: "", mcp_url: `${this.base}/mcp`, tools_url: `${this.base}/tools/v1`, person_url: `${this.base}/person/v1` };
  }

  /** The tools and the first message the environment started with. */
  startOf(id: string): EnvStart | null {
    return this.worlds.get(id)?.start ?? null;
  }

  /** What the environment said of its end (`state`), or why it could not say. */
  stateOf(id: string): { state: unknown; error: string | null } {
    const w = this.ended.get(id);
    return w ? { state: w.state, error: w.stateError } : { state: null, error: "the episode's environment was not ended" };
  }

  private ended = new Map<string, { state: unknown; stateError: string | null }>();

  async contents(id: string): Promise<{ diff: WorldDiff; trace: TraceRecord[]; person: PersonTranscript }> {
    const w = this.world(id);
    return { diff: emptyDiff(w), trace: [...w.trace], person: { turns: [...w.transcript.turns], done: w.transcript.done } };
  }

  async endWorld(id: string): Promise<{ diff: WorldDiff; trace: TraceRecord[]; person: PersonTranscript }> {
    const w = this.world(id);
    const read = await this.contents(id);
    try {
      w.state = (await w.process.ask({ op: "state" }, envStateAnswer)).state ?? null;
    } catch (e) {
      w.stateError = (e as Error).message;
    }
    this.ended.set(id, { state: w.state, stateError: w.stateError });
    await this.deleteWorld(id);
    return read;
  }

  async deleteWorld(id: string): Promise<void> {
    const w = this.worlds.get(id);
    if (!w) return;
    this.worlds.delete(id);
    this.byKey.delete(w.key);
    if (!w.closed) {
      w.closed = true;
      await w.process.close();
    }
  }

  private world(id: string): OwnWorld {
    const w = this.worlds.get(id);
    if (!w) throw new Error(`no environment ${id}: it has ended`);
    return w;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const w = this.byKey.get((req.headers.authorization ?? "").replace(/^Bearer\s+/i, ""));
      if (!w) throw new HttpError(401, "unauthorized", "no key, or a key that opens no environment");
      const url = new URL(req.url ?? "/", this.base);
      const route = `${req.method} ${url.pathname.replace(/\/+$/, "")}`;
      if (route === "GET /tools/v1/list") return send(res, 200, toolList(w.start, url.searchParams.get("format") ?? "openai"));
      if (route === "POST /tools/v1/call") return await this.call(w, await body(req), res);
      if (route === "POST /person/v1/respond") return send(res, 200, await this.respond(w, await body(req)));
      if (route === "GET /person/v1/conversation") return send(res, 200, w.transcript);
      throw new HttpError(404, "not_found", `${route}: an environment of your own serves /tools/v1 (list, call) and /person/v1 (respond, conversation) only, not MCP`);
    } catch (e) {
      if (e instanceof HttpError) return send(res, e.status, { error: { code: e.code, message: e.message } });
      return send(res, 502, { error: { code: "environment_error", message: (e as Error).message } });
    }
  }

  private async call(w: OwnWorld, b: Record<string, unknown>, res: ServerResponse): Promise<void> {
    if (typeof b.name !== "string" || !b.name) throw new HttpError(400, "invalid_request", 'the body is {"name": "...", "arguments": {...}}');
    const args = b.arguments ?? {};
    const a = await w.process.ask({ op: "call", name: b.name, arguments: args }, envCallAnswer);
    const failed = "error" in a;
    const answer = failed ? { error: { code: "tool_error", message: a.error } } : isObject(a.result) ? a.result : { result: a.result ?? null };
    const status = failed ? 400 : 200;
    w.trace.push({ seq: w.trace.length + 1, request_id: `${w.id}:${w.trace.length + 1}`, service: "tools", method: "POST", path: b.name, query: "", request_body: JSON.stringify(args), status, response_body: JSON.stringify(failed ? answer : (a as { result: unknown }).result ?? null), replayed: false, note: null });
    send(res, status, answer);
  }

  private async respond(w: OwnWorld, b: Record<string, unknown>): Promise<{ reply: string; done: boolean }> {
    if (typeof b.said !== "string" || !b.said || b.said.length > 32_768) throw new HttpError(400, "invalid_request", 'the body is {"said": "..."} (1 to 32,768 characters)');
    if (w.transcript.done) throw new HttpError(409, "conversation_over", "the environment said the conversation is done");
    const a = await w.process.ask({ op: "respond", said: b.said }, envRespondAnswer);
    w.transcript.turns.push({ role: "agent", text: b.said });
    if (a.reply) w.transcript.turns.push({ role: "person", text: a.reply });
    w.transcript.done = a.done;
    return a;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function toolList(start: EnvStart, format: string): { tools: unknown[] } {
  if (format === "anthropic") return { tools: start.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema })) };
  if (format === "mcp") return { tools: start.tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })) };
  if (format !== "openai") throw new HttpError(400, "invalid_request", "format is openai, anthropic or mcp");
  return { tools: start.tools.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.inputSchema } })) };
}

function emptyDiff(w: OwnWorld): WorldDiff {
  return { world: w.id, seed: { name: w.kind, hash: "" }, clock: "", entries: [], counts: { created: {}, updated: {}, deleted: {} } };
}

function send(res: ServerResponse, status: number, value: unknown): void {
  const text = JSON.stringify(value);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

async function body(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, "too_large", `the body is larger than ${MAX_BODY_BYTES} bytes`);
    chunks.push(c as Buffer);
  }
  try {
    const v: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    // The same rule as every other boundary: nothing nested past the bound, no key reaching into a prototype.
    const unsafe = findTreeProblem(v, BODY_MAX_DEPTH);
    if (unsafe) throw new HttpError(400, "invalid_request", `the body is refused: ${describeTreeProblem(unsafe)}`);
    if (isObject(v)) return v;
  } catch (e) {
    if (e instanceof HttpError) throw e;
  }
  throw new HttpError(400, "invalid_request", "the body is not a JSON object");
}
