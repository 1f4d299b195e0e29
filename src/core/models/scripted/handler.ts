// The scripted model itself, runtime-neutral: a plain request in, a plain response out. `worlds model serve`
// puts it behind node:http; tests (Node and Worker alike) can call it in-process as a fetch. It keeps a list of
// what it received, credentials left out, so a user or a test sees exactly what worlds sent.
import { isRecord, parseJson } from "../wire/common";
import { errorResponse, sleep, streamChunks, type ScriptedResponse, type ScriptedStream } from "./answer";
import { chatCompletion, chatStream, chatStreamOpening, chatStreamProblem } from "./chat";
import { messagesAnswer, messagesStream, messagesStreamOpening, messagesStreamProblem } from "./messages";
import { ruleOutcome } from "./reply";
import { anthropicFacts, openaiFacts, type RequestFacts, type Wire } from "./request";
import { readResponsesRequest, ResponseMemory, responsesAnswer, responsesStream, responsesStreamOpening, type ResponsesRequest } from "./responses";
import type { CompiledRule, ModelApi, Script } from "./script";
import { cyrb128 } from "../../util/cyrb128";

export type { ScriptedResponse, ScriptedStream } from "./answer";
export { streamChunks } from "./answer";

export interface ScriptedRequest {
  method: string;
  /** Path and query, e.g. /v1/chat/completions. */
  path: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: string;
  /** Aborted when the client goes away: a hanging rule then stops waiting. */
  signal?: AbortSignal;
}

export interface Received {
  n: number;
  at: string;
  method: string;
  path: string;
  wire: Wire | null;
  /** chat, responses or messages; null for a path the server does not serve. */
  api: ModelApi | null;
  /** Whether the answer was asked for as a stream. */
  stream: boolean;
  model: string | null;
  /** The rule that answered (its name, or "rule N"), or null when none matched. */
  rule: string | null;
  status: number | null;
  last_role: "user" | "tool" | null;
  last_message: string | null;
  tools: string[];
  schema: boolean;
  /** Whether credentials came with the request; their value is never kept. */
  credentials: boolean;
  /** The request body as sent (parsed JSON), for seeing exactly what a client sends. */
  body: unknown;
}

export const RECEIVED_PATH = "/_worlds/requests";
const MAX_RECEIVED = 1_000;
const MAX_KEPT_BODY_CHARS = 512 * 1024;
export const MAX_HANG_MS = 30 * 60 * 1000;

const API_OF: [suffix: string, api: ModelApi][] = [
  ["/chat/completions", "chat"],
  ["/responses", "responses"],
  ["/messages", "messages"],
];

export class ScriptedModel {
  private log: Received[] = [];
  private n = 0;
  private used = new Map<number, number>();
  private readonly responses = new ResponseMemory();
  /** How often each `p:` rule has drawn for each last message: the draw's key (probabilistic rules). */
  private drawn = new Map<string, number>();

  constructor(private readonly script: Script) {}

  received(): Received[] {
    return this.log.map((r) => ({ ...r }));
  }

  /** Forgets what was received, how often each rule answered and the responses kept for previous_response_id. */
  reset(): void {
    this.log = [];
    this.used.clear();
    this.responses.clear();
    this.drawn.clear();
  }

  async handle(req: ScriptedRequest): Promise<ScriptedResponse> {
    const path = req.path.split("?")[0].replace(/\/+$/, "") || "/";
    if (path === RECEIVED_PATH) {
      if (req.method === "GET") return { status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify({ requests: this.received() }) };
      if (req.method === "DELETE") {
        this.reset();
        return { status: 204, headers: {}, body: "" };
      }
    }
    if (req.method === "GET" && /\/models$/.test(path)) return this.models();
    const api = API_OF.find(([suffix]) => path.endsWith(suffix))?.[1] ?? null;
    const wire: Wire | null = api === null ? null : api === "messages" ? "anthropic" : "openai";
    const n = ++this.n;
    const entry: Received = { n, at: new Date().toISOString(), method: req.method, path, wire, api, stream: false, model: null, rule: null, status: null, last_role: null, last_message: null, tools: [], schema: false, credentials: !!(req.headers.authorization || req.headers["x-api-key"]), body: null };
    this.remember(entry);
    const done = (res: ScriptedResponse) => ((entry.status = res.status), res);
    if (!wire || !api)
      return done(errorResponse("openai", 404, `the scripted model server answers POST /v1/chat/completions and POST /v1/responses (OpenAI) and POST /v1/messages (Anthropic), not ${req.method} ${path}`));
    if (req.method !== "POST") return done(errorResponse(wire, 405, `${path} takes POST`));
    const parsed = parseJson(req.body);
    if (!parsed.ok || !isRecord(parsed.value)) return done(errorResponse(wire, 400, `the request body is not a JSON object${parsed.ok ? "" : ` (${parsed.message})`}`));
    const body = parsed.value;
    entry.body = req.body.length > MAX_KEPT_BODY_CHARS ? `${req.body.slice(0, MAX_KEPT_BODY_CHARS)}…` : body;
    entry.stream = body.stream === true;

    let facts: RequestFacts;
    let responses: ResponsesRequest | null = null;
    if (api === "responses") {
      const read = readResponsesRequest(body, this.responses);
      if (!read.ok) return done(read.error);
      responses = read.request;
      facts = responses.facts;
    } else {
      facts = api === "chat" ? openaiFacts(body) : anthropicFacts(body);
      if (!facts.model || !Array.isArray(body.messages)) return done(errorResponse(wire, 400, "the request needs model and messages"));
      const problem = api === "chat" ? chatStreamProblem(body) : messagesStreamProblem(body);
      if (problem) return done(problem);
    }
    Object.assign(entry, { model: facts.model, last_role: facts.lastRole, last_message: facts.lastMessage.slice(0, 4_000), tools: facts.tools, schema: facts.schema !== null });

    const match = this.match(facts);
    if (!match)
      return done(
        errorResponse(wire, 400, `no rule in the script matches this request (${api}, model ${facts.model}, ${facts.tools.length ? "tools" : "no tools"}, ${facts.schema ? "a response schema" : "no schema"}, last ${facts.lastRole ?? "message"}: "${facts.lastMessage.slice(0, 120)}")`),
      );
    const { rule, groups } = match;
    entry.rule = rule.label;
    const latency = rule.latency_ms ?? 0;
    const includeUsage = isRecord(body.stream_options) && body.stream_options.include_usage === true;
    const outcome = ruleOutcome(rule, facts, groups, n);
    if (outcome.kind === "error") {
      if (latency) await sleep(latency, req.signal);
      return done(errorResponse(wire, outcome.status, outcome.message, { retryAfter: outcome.retryAfter }));
    }
    if (entry.stream) {
      // A stream's latency is spread over its events; a hanging rule stops after the opening events.
      if (outcome.kind === "hang") return done(api === "chat" ? chatStreamOpening(facts, n, { includeUsage }, latency) : api === "messages" ? messagesStreamOpening(facts, n, latency) : responsesStreamOpening(responses!, n, latency));
      const r = outcome.reply;
      return done(api === "chat" ? chatStream(r, facts, { includeUsage }, latency) : api === "messages" ? messagesStream(r, facts, latency) : responsesStream(r, responses!, this.responses, latency));
    }
    if (latency) await sleep(latency, req.signal);
    if (outcome.kind === "hang") {
      await sleep(MAX_HANG_MS, req.signal);
      return done({ status: 504, headers: { "content-type": "application/json" }, body: JSON.stringify({ error: { message: "scripted hang ended" } }) });
    }
    const r = outcome.reply;
    return done(api === "chat" ? chatCompletion(r, facts) : api === "messages" ? messagesAnswer(r, facts) : responsesAnswer(r, responses!, this.responses));
  }

  private match(f: RequestFacts): { rule: CompiledRule; groups: string[] } | null {
    for (const rule of this.script.rules) {
      const w = rule.when;
      if (rule.times !== undefined && (this.used.get(rule.index) ?? 0) >= rule.times) continue;
      if (w.provider && w.provider !== f.wire) continue;
      if (w.api && w.api !== f.api) continue;
      if (rule.modelPattern && !rule.modelPattern.test(f.model)) continue;
      if (w.role && w.role !== f.lastRole) continue;
      if (w.tools !== undefined && w.tools !== f.tools.length > 0) continue;
      if (w.schema !== undefined && w.schema !== (f.schema !== null)) continue;
      if (w.answer !== undefined && w.answer !== f.schema?.name) continue;
      let groups: string[] = [];
      if (rule.pattern) {
        const m = rule.pattern.exec(f.lastMessage);
        if (!m) continue;
        groups = [...m].map((g) => g ?? "");
      }
      if (rule.p !== undefined && !this.draw(rule, f.lastMessage)) continue;
      this.used.set(rule.index, (this.used.get(rule.index) ?? 0) + 1);
      return { rule, groups };
    }
    return null;
  }

  /**
   * A keyed draw for a `p:` rule: the nth request with the same last message draws the same number in every run,
   * whatever order concurrent episodes arrive in (identical requests are interchangeable).
   */
  private draw(rule: CompiledRule, lastMessage: string): boolean {
    const key = `${rule.index}\u0000${lastMessage}`;
    const nth = (this.drawn.get(key) ?? 0) + 1;
    this.drawn.set(key, nth);
    return cyrb128(`${key}\u0000${nth}`)[0] / 2 ** 32 < rule.p!;
  }

  private models(): ScriptedResponse {
    const ids = [...new Set(this.script.rules.map((r) => r.when.model).filter((m): m is string => !!m && !m.includes("*")))];
    return { status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify({ object: "list", data: ids.map((id) => ({ id, object: "model", owned_by: "worlds-scripted" })) }) };
  }

  private remember(r: Received): void {
    this.log.push(r);
    if (this.log.length > MAX_RECEIVED) this.log.splice(0, this.log.length - MAX_RECEIVED);
  }
}

/** The scripted model as a fetch, for calling it in-process (no socket): `new ModelClient({ fetch: ... })`. */
export function scriptedFetch(model: ScriptedModel): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    const url = new URL(req.url);
    const headers = Object.create(null) as Record<string, string>;
    req.headers.forEach((v, k) => (headers[k] = v));
    const signal = init?.signal ?? undefined;
    const res = await model.handle({ method: req.method, path: url.pathname + url.search, headers, body: await req.text(), signal });
    if (signal?.aborted) throw new DOMException("The operation was aborted.", "AbortError");
    if (res.stream) return new Response(eventStream(res.stream, signal), { status: res.status, headers: res.headers });
    return new Response(res.status === 204 ? null : res.body, { status: res.status, headers: res.headers });
  }) as typeof fetch;
}

/** A stream's events as a body, played with its pacing; cancelling the body (or the signal) stops it. */
function eventStream(stream: ScriptedStream, signal?: AbortSignal): ReadableStream<Uint8Array> {
  const ctl = new AbortController();
  signal?.addEventListener("abort", () => ctl.abort(), { once: true });
  const chunks = streamChunks(stream, ctl.signal, MAX_HANG_MS);
  const bytes = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(bytes.encode(next.value));
    },
    cancel() {
      ctl.abort();
    },
  });
}
