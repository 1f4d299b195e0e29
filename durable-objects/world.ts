// A world: one simulated account (billing store + help desk) in one SQLite Durable Object.
// RPC methods only; the Worker authenticates and shapes HTTP, the services here enforce the domain rules.
import { DurableObject } from "cloudflare:workers";
import type { SeedDocument } from "../src/core/world/seed/schema";
import { foldChanges } from "../src/core/world/diff/fold";
import type { ObjectType, WorldDiff } from "../src/core/world/diff/types";
import { upgradeWorldSchema, WORLD_SCHEMA } from "./store/schema";
import { ReadCache } from "./read-cache";
import { AnswerCache } from "./surface/answer-cache";
import { Store, type StoredObject } from "./store/store";
import type { Service, ServiceHandler, TraceRecord, TraceService, TwinRequest, TwinResponse } from "./twin";
import type { TwinWireResponse } from "./protocol";
import { stripeService } from "./stripe/service";
import { helpdeskService } from "./helpdesk/service";
import { seedBilling } from "./stripe/seed";
import { seedHelpdeskAccount, seedHelpdeskTickets } from "./helpdesk/seed";
import { seedTools } from "./tools/seed";
import { seedReplay } from "./replay/seed";
import { unauthorized } from "./unauthorized";
import { cachedSeed, rememberSeed, type OwnRows, type SeedSnapshot } from "./seed/cache";
import { accountDigest, cachedAccount, rememberAccount, type SeededAccount } from "./seed/account";
import { baseFromChunks, cachedBase, LayeredBase, rowsOfChunks, SeedBase, type BaseLayer, type BaseRow } from "./store/base";
import { loadBase, storeBase } from "./store/base-r2";
import { sha256Hex } from "../src/core/util/canonical";
import type { Env } from "../src/env";
import { runScenario } from "./scenarios/engine";
import { storedScenario } from "./scenarios/stored";
import type { ScenarioDocument } from "../src/core/kinds/account/scenario/schema";
import { TOOL_ERROR_STATUS, type ToolCallContext, type ToolDefinition, type ToolOutcome } from "./surface/catalogue";
import { catalogueFor, KIND_META, kindOf, seedKind } from "./surface/kinds";
import { TOOLS_TRACE_METHOD, TOOLS_TRACE_SERVICE, type ToolCallRequest } from "./surface/protocol";
import { twinRequestOf, type ServiceCall, type ServiceSender } from "./surface/service-call";
import { PERSON_META, personState, savePersonTurn, type PersonSave, type PersonState } from "./replay/person";
import type { PersonConversation } from "../src/core/kinds/replay/person/schema";
import type { PersonSetup } from "../src/core/kinds/replay/person/setup";
import { personTraceRow, PERSON_TRACE_METHOD, PERSON_TRACE_PATH, PERSON_TRACE_SERVICE } from "../src/core/kinds/replay/person/trace";

export interface WorldInit {
  worldId: string;
  keyHash: string;
  seed: SeedDocument;
  seedHash: string;
  /** A scenario document (rate limits, latency...) applied to the twins; null = a well-behaved API. */
  scenario?: unknown;
  /** The person the agent talks to (/person/v1), or null for none. */
  person?: PersonSetup | null;
}

/** What a world held when it ended (see World.end). */
export interface WorldEnd {
  /** Null unless asked for. */
  diff: WorldDiff | null;
  trace: TraceRecord[];
  /** The person's setup and the conversation as it ended; null when the world has no person. */
  person: PersonState | null;
}

export interface WorldInfo {
  id: string;
  seed: { name: string; hash: string };
  clock: string;
  objects: Partial<Record<ObjectType, number>>;
  requests: { stripe: number; helpdesk: number };
  changes: number;
}

/** request_id, service, method, path, query, request_body, status, response_body, replayed, note, response_of */
type TraceRow = [string, string, string, string, string, string, number, string, number, string | null, string | null];
const TRACE_BATCH = 64;
const TRACE_FLUSH_MS = 250;
/** Unreadable tool arguments are kept in the trace up to this many characters (enough to show what was wrong). */
const UNREADABLE_TRACE_CHARS = 4096;

const ROLLBACK = Symbol("rollback");
/** Meta holding a world's own seeded rows (JSON of their chunks), or the content key they are stored under. */
const OWN_ROWS_META = "own_rows";
const OWN_KEY_META = "own_key";
/** Own rows up to this many characters live in the world's meta (an isolated task's ticket is a few KB). */
const OWN_ROWS_INLINE_CHARS = 128 * 1024;
/**
 * What seeding answers: the world's object count, or why its id cannot be seeded (already seeded differently,
 * or deleted: an id is spent once its world ends). A refusal is an answer, not a throw: it crosses RPC as data.
 */
export type InitOutcome = { objects: number } | { refused: "seeded" | "ended" };
const utf8 = new TextEncoder();

function traceRow(req: TwinRequest, res: Pick<TwinResponse, "status" | "body" | "note" | "replayed">, responseOf: string | null): TraceRow {
  return [req.requestId, req.service, req.method, req.path, req.query, req.body, res.status, res.body, res.replayed ? 1 : 0, res.note ?? null, responseOf];
}

function toWire(res: TwinResponse): TwinWireResponse {
  return { status: res.status, headers: res.headers, body: utf8.encode(res.body) };
}

const SERVICES: Record<Service, ServiceHandler> = { stripe: stripeService, helpdesk: helpdeskService };
/** Listing a catalogue sends nothing; a sender that would answer a refusal keeps the types honest. */
const LISTING_ONLY: ServiceSender = () => ({ status: 503, headers: {}, body: "" });

export class World extends DurableObject {
  private readonly store: Store;

  constructor(ctx: DurableObjectState, env: unknown) {
    super(ctx, env as never);
    this.store = new Store(ctx.storage.sql);
    ctx.blockConcurrencyWhile(async () => {
      ctx.storage.sql.exec(WORLD_SCHEMA);
      upgradeWorldSchema(ctx.storage.sql);
    });
  }

  /**
   * Seeds the world. The account's seeders run once per account per isolate (seed/account.ts): their rows are
   * the shared base (stored in R2 by content hash); the world's own rows (its tickets, its tools block's records)
   * are seeded over it, and what the seeders wrote to meta is kept as a snapshot, so every later world of the
   * same seed is a handful of meta rows (initFromCache). Refuses a second seeding: a world's baseline never moves.
   */
  async init(args: WorldInit): Promise<InitOutcome> {
    const repeat = this.repeatedInit(args);
    if (repeat) return repeat;
    const account = await this.seededAccount(args.seed);
    const ownRows: BaseRow[] = [];
    // The seeders write counters to meta through the store; run them in a transaction that is always rolled
    // back, keep what they wrote, and apply it with the world's identity once the base is safely stored.
    const seeded = this.rolledBack(() => {
      for (const [k, v] of account.meta) this.store.setMeta(k, v);
      const clockUnix = Math.floor(Date.parse(args.seed.clock) / 1000);
      this.store.setMeta("seed_name", args.seed.name);
      this.store.setMeta("seed_hash", args.seedHash);
      this.store.setMeta("clock", args.seed.clock);
      this.store.setMeta("clock_unix", String(clockUnix));
      this.store.setMeta("currency", args.seed.currency);
      this.store.setMeta("stripe_version", args.seed.stripe_version ?? "");
      this.store.setMeta(KIND_META, seedKind(args.seed));
      const ctx = { clock: clockUnix, currency: args.seed.currency };
      const rows = [...seedHelpdeskTickets(args.seed, ctx, this.store, account.desk), ...seedTools(args.seed, ctx, this.store), ...seedReplay(args.seed, this.store)];
      const chunks = this.store.seedChunks(rows, ownRows);
      return { meta: this.store.allMeta(), chunks, objects: account.objects + rows.length };
    });
    const snapshot: SeedSnapshot = { meta: seeded.meta, baseKey: account.baseKey, own: await this.ownRowsOf(seeded.chunks, ownRows), objects: seeded.objects };
    rememberSeed(args.seedHash, snapshot);
    return this.seedFrom(args, snapshot, ownRows);
  }

  /**
   * The seed's account layer: seeded in this isolate before (another task's world of the same account), or
   * seeded now and its rows stored as the shared base.
   */
  private async seededAccount(seed: SeedDocument): Promise<SeededAccount> {
    const digest = await accountDigest(seed);
    const known = cachedAccount(digest);
    if (known) return known;
    const rows: BaseRow[] = [];
    const seeded = this.rolledBack(() => {
      const ctx = { clock: Math.floor(Date.parse(seed.clock) / 1000), currency: seed.currency };
      const desk = seedHelpdeskAccount(seed, ctx, this.store);
      const all = [...seedBilling(seed, ctx), ...desk.rows];
      const chunks = this.store.seedChunks(all, rows);
      return { meta: this.store.allMeta(), chunks, objects: all.length, desk: desk.desk };
    });
    const baseKey = await sha256Hex(seeded.chunks.join("\n"));
    await storeBase(this.env as Env, baseKey, seeded.chunks);
    // Indexed now, from the rows the chunks were written from (cached per isolate by its content key).
    baseFromChunks(baseKey, seeded.chunks, rows);
    const account: SeededAccount = { baseKey, meta: seeded.meta, objects: seeded.objects, desk: seeded.desk };
    rememberAccount(digest, account);
    return account;
  }

  /** Runs seeders in a transaction that is always rolled back: what they return is kept, what they wrote is not. */
  private rolledBack<T>(fn: () => T): T {
    let out: { value: T } | null = null;
    try {
      this.ctx.storage.transactionSync(() => {
        out = { value: fn() };
        throw ROLLBACK;
      });
    } catch (e) {
      this.store.forgetMeta();
      if (e !== ROLLBACK) throw e;
    }
    const done = out as { value: T } | null;
    if (!done) throw new Error("seeding produced nothing");
    return done.value;
  }

  /** Where a world keeps its own seeded rows: in its meta when small, else stored once like a base. */
  private async ownRowsOf(chunks: string[], rows: readonly BaseRow[]): Promise<OwnRows> {
    if (!chunks.length) return null;
    const text = JSON.stringify(chunks);
    if (text.length <= OWN_ROWS_INLINE_CHARS) return { chunks: text };
    const key = await sha256Hex(chunks.join("\n"));
    await storeBase(this.env as Env, key, chunks);
    baseFromChunks(key, chunks, rows);
    return { key };
  }

  /**
   * Seeds the world from a snapshot of an earlier world seeded with the same seed in this isolate; null when
   * there is none (the caller then sends the seed to init). Saves normalising and shipping the whole seed.
   */
  async initFromCache(args: Omit<WorldInit, "seed">): Promise<InitOutcome | null> {
    const repeat = this.repeatedInit(args);
    if (repeat) return repeat;
    const snapshot = cachedSeed(args.seedHash);
    if (!snapshot) return null;
    return this.seedFrom(args, snapshot);
  }

  /** `ownRows`: the world's own rows as seeding just built them, when it did. */
  private async seedFrom(args: Omit<WorldInit, "seed">, snapshot: SeedSnapshot, ownRows?: readonly BaseRow[]): Promise<{ objects: number }> {
    this.store.setBase(await this.baseOf(snapshot.baseKey, snapshot.own, ownRows));
    return this.transact(() => {
      for (const [k, v] of snapshot.meta) this.store.setMeta(k, v);
      this.store.setMeta("base_key", snapshot.baseKey);
      if (snapshot.own && "chunks" in snapshot.own) this.store.setMeta(OWN_ROWS_META, snapshot.own.chunks);
      if (snapshot.own && "key" in snapshot.own) this.store.setMeta(OWN_KEY_META, snapshot.own.key);
      this.store.setMeta("objects", String(snapshot.objects));
      this.setIdentity(args);
      return { objects: snapshot.objects };
    });
  }

  /** The world's seeded objects: its account's base (this isolate's, else R2's) with its own rows over it. */
  private async baseOf(baseKey: string, own: OwnRows, ownRows?: readonly BaseRow[]): Promise<BaseLayer> {
    const account = await this.sharedBase(baseKey);
    if (!own) return account;
    const mine = "key" in own ? await this.sharedBase(own.key) : new SeedBase([], ownRows ?? rowsOfChunks(JSON.parse(own.chunks) as string[]));
    return new LayeredBase(account, mine);
  }

  private async sharedBase(key: string): Promise<SeedBase> {
    return cachedBase(key) ?? baseFromChunks(key, await loadBase(this.env as Env, key));
  }

  /** Loads the seeded layer before anything reads objects: from this isolate's cache, else from R2. */
  private async ensureBase(): Promise<void> {
    if (this.store.hasBase()) return;
    const key = this.store.meta("base_key");
    if (key === null) return;
    const inline = this.store.meta(OWN_ROWS_META);
    const ownKey = this.store.meta(OWN_KEY_META);
    const base = await this.baseOf(key, inline !== null ? { chunks: inline } : ownKey !== null ? { key: ownKey } : null);
    // Another call may have loaded it while this one waited on R2; either is the same base.
    if (!this.store.hasBase()) this.store.setBase(base);
  }

  /**
   * A world made by an idempotent creation request is named by the request's key (src/hosted/worlds/lifecycle.ts), so a
   * retried request arrives here again: with the same key, seed and scenario it gets the first answer back, and
   * anything else is a second seeding, refused (a world's baseline never moves).
   */
  private repeatedInit(args: Omit<WorldInit, "seed">): InitOutcome | null {
    if (this.store.meta("ended")) return { refused: "ended" };
    if (!this.store.meta("world_id")) return null;
    const same =
      this.store.meta("key_hash") === args.keyHash && this.store.meta("seed_hash") === args.seedHash && this.store.meta("scenario") === JSON.stringify(args.scenario ?? null) &&
      (this.store.meta(PERSON_META) ?? "null") === JSON.stringify(args.person ?? null);
    const objects = this.store.meta("objects");
    return same && objects !== null ? { objects: Number(objects) } : { refused: "seeded" };
  }

  private setIdentity(args: Omit<WorldInit, "seed">): void {
    this.store.setMeta("world_id", args.worldId);
    this.store.setMeta("key_hash", args.keyHash);
    this.store.setMeta("scenario", JSON.stringify(args.scenario ?? null));
    this.store.setMeta(PERSON_META, JSON.stringify(args.person ?? null));
  }

  /** The world's person and the conversation so far: null when the key does not open the world, {none} without a person. */
  personConversation(keyHash: string): PersonState | { none: true } | null {
    if (!this.opensFor(keyHash)) return null;
    return personState(this.store) ?? { none: true };
  }

  /**
   * Saves one answered turn, unless another landed since `fromTurns` (or the conversation ended): then "conflict".
   * The turn is traced with the save, in the same transaction, so the trace never shows a turn the world lost.
   */
  personSave(keyHash: string, fromTurns: number, next: PersonConversation): PersonSave | null {
    if (!this.opensFor(keyHash)) return null;
    return this.transact(() => {
      const saved = savePersonTurn(this.store, fromTurns, next);
      if (saved === "saved") {
        const r = personTraceRow(fromTurns, next);
        this.recordTrace([r.request_id, PERSON_TRACE_SERVICE, PERSON_TRACE_METHOD, PERSON_TRACE_PATH, "", r.request_body, 200, r.response_body, 0, null, null], false);
      }
      return saved;
    });
  }

  async twin(req: TwinRequest): Promise<TwinWireResponse> {
    if (!this.opensFor(req.keyHash)) return toWire(unauthorized(req.service));
    if (!this.store.hasBase()) await this.ensureBase();
    const scenario = this.scenario();
    // A scenario's schedule counts requests, so under one every read runs; otherwise a repeated read of an
    // unchanged world is answered as before, and its trace row points at the first answer's body.
    const cacheKey = scenario === null ? ReadCache.keyOf(req) : null;
    const generation = this.store.generation;
    const hit = cacheKey === null ? null : this.readCache.get(cacheKey, generation, req.requestId);
    if (hit) {
      // The body is the first answer's; the row points at it rather than storing it again.
      this.recordTrace(traceRow(req, { status: hit.wire.status, body: "", note: hit.note }, hit.firstRequestId), true);
      return hit.wire;
    }
    // Everything up to the trace runs synchronously, so concurrent requests keep their order; only the
    // scenario's latency is awaited, after the answer is recorded.
    const { res, delayMs } = this.serve(req, scenario);
    const wire = toWire(res);
    if (cacheKey !== null && this.store.generation === generation) this.readCache.put(cacheKey, generation, req.requestId, res, wire);
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    return wire;
  }

  /** Whether a presented key opens this world: its own key, while it is seeded and not closing. */
  private opensFor(keyHash: string): boolean {
    return this.store.meta("world_id") !== null && !this.closing && this.store.meta("key_hash") === keyHash;
  }

  /** One request through a twin: the scenario, the service's handling, the trace row. Synchronous. */
  private serve(req: TwinRequest, scenario: ScenarioDocument | null): { res: TwinResponse; delayMs: number } {
    this.store.beginRequest(req.requestId);
    const { response: res, delayMs } = runScenario(scenario, req, {
      sql: this.ctx.storage.sql,
      store: this.store,
      transact: <T>(fn: () => T): T => this.transact(fn),
      handle: (t) => SERVICES[req.service].handle(this.store, req, t),
    });
    this.recordTrace(traceRow(req, res, null), req.method === "GET" && scenario === null);
    return { res, delayMs };
  }

  /** The tools this world offers (its kind's catalogue); null when the key does not open it. */
  async toolList(keyHash: string): Promise<ToolDefinition[] | null> {
    if (!this.opensFor(keyHash)) return null;
    await this.ensureBase();
    const kind = kindOf(this.store.meta(KIND_META));
    const catalogue = kind && catalogueFor(kind, LISTING_ONLY);
    return catalogue ? catalogue.list(this.store) : [];
  }

  /**
   * Calls one tool; null when the key does not open the world. A tool built on a REST twin sends the request
   * an agent would have sent, through serve (scenario, trace, change log), under `<call id>.<n>`; the call
   * itself is traced too (service tools, method CALL, path = the tool), after the requests it made.
   */
  async toolCall(call: ToolCallRequest): Promise<ToolOutcome | null> {
    const done = await this.callTool(call);
    return done && (done.outcome ?? { ok: true, result: JSON.parse(done.text) as Record<string, unknown> });
  }

  /**
   * The same call for the JSON surface, answered as its HTTP status and body text: the text is the trace row's,
   * so the answer crosses back to the Worker as one string rather than an object to clone and serialise again
   * (bench/tools-call.mjs).
   */
  async toolCallAnswer(call: ToolCallRequest): Promise<{ status: number; body: string } | null> {
    const done = await this.callTool(call);
    return done && { status: done.status, body: done.text };
  }

  /** The call's status and body text, and its outcome unless it was answered from the answer cache (then: ok, the text's result). */
  private async callTool(call: ToolCallRequest): Promise<{ outcome: ToolOutcome | null; status: number; text: string } | null> {
    if (!this.opensFor(call.keyHash)) return null;
    if (!this.store.hasBase()) await this.ensureBase();
    const scenario = this.scenario();
    let sent = 0;
    let delayMs = 0;
    const send = (_ctx: ToolCallContext, inner: ServiceCall): TwinResponse => {
      const served = this.serve(twinRequestOf(inner, { requestId: `${call.requestId}.${++sent}`, keyHash: call.keyHash, origin: call.origin }), scenario);
      delayMs += served.delayMs;
      return served.res;
    };
    const kind = kindOf(this.store.meta(KIND_META));
    const catalogue = kind && catalogueFor(kind, send);
    const argumentsText = call.unreadable ? call.unreadable.text.slice(0, UNREADABLE_TRACE_CHARS) : JSON.stringify(call.arguments);
    const traced = (status: number, text: string, responseOf: string | null): TraceRow => [call.requestId, TOOLS_TRACE_SERVICE, TOOLS_TRACE_METHOD, call.name, `via=${call.via}`, argumentsText, status, text, 0, null, responseOf];
    const generation = this.store.generation;
    // As for the twins' reads: no reuse under a scenario, whose schedule counts calls. A reused answer's trace
    // row points at the row holding its body, which traceRecords puts back, so the trace reads as before.
    const reuse = scenario === null && !call.unreadable && catalogue?.reuse?.stable(this.store, call.name) ? catalogue.reuse : null;
    const cacheKey = reuse ? AnswerCache.keyOf(call.name, argumentsText) : null;
    const hit = cacheKey === null ? null : this.answerCache.get(cacheKey, generation);
    if (hit && reuse?.recount(this.store, call.name)) {
      this.recordTrace(traced(200, "", hit.requestId), true);
      return { outcome: null, status: 200, text: hit.text };
    }
    const ctx: ToolCallContext = { store: this.store, transact: <T>(fn: () => T): T => this.transact(fn), requestId: call.requestId, origin: call.origin };
    let outcome: ToolOutcome;
    this.store.beginRequest(call.requestId);
    try {
      outcome = call.unreadable
        ? { ok: false, error: { code: "invalid_arguments", message: call.unreadable.message } }
        : catalogue
        ? catalogue.call(ctx, call.name, call.arguments)
        : { ok: false, error: { code: "unavailable", message: `This world's kind (${this.store.meta(KIND_META)}) offers no tools on this server.` } };
    } catch (e) {
      console.error("worlds: tool call failed", e);
      outcome = { ok: false, error: { code: "unavailable", message: `The tool ${call.name} failed inside the world: ${(e as Error).message}` } };
    }
    const status = outcome.ok ? 200 : TOOL_ERROR_STATUS[outcome.error.code];
    // The JSON surface's body: the result, or the failure in the kind's idiom (OpenAI's {"error": {code, message}}
    // unless the kind has its own: a tools world answers in its set's format).
    const text = JSON.stringify(outcome.ok ? outcome.result : (catalogue?.failureBody?.(this.store, call.name, outcome.error) ?? { error: outcome.error }));
    const unchanged = this.store.generation === generation;
    if (cacheKey !== null && outcome.ok && unchanged) this.answerCache.put(cacheKey, generation, call.requestId, text);
    // Like a GET: a call that changed nothing is buffered; anything else is traced at once, in order.
    this.recordTrace(traced(status, text, null), unchanged && scenario === null);
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    return { outcome, status, text };
  }

  private readonly answerCache = new AnswerCache();
  private readonly readCache = new ReadCache();

  /** One storage transaction; what the store remembers of meta is dropped if it rolls back. */
  private transact<T>(fn: () => T): T {
    try {
      return this.ctx.storage.transactionSync(fn);
    } catch (e) {
      this.store.forgetMeta();
      throw e;
    }
  }

  /**
   * Reads are traced in batches: a write per GET made every read a durable commit and cost three quarters of
   * read throughput (bench/twin-throughput.mjs). Buffered rows are flushed within a quarter second, with the
   * next write, or before anything reads the trace. Writes and requests under a scenario (whose schedule counts
   * traced requests) are traced at once, in order after everything buffered before them.
   */
  private traceBuffer: TraceRow[] = [];
  private flushTimer: ReturnType<typeof setTimeout> | null = null;

  private recordTrace(row: TraceRow, buffer: boolean): void {
    if (buffer) {
      this.traceBuffer.push(row);
      if (this.traceBuffer.length >= TRACE_BATCH) this.flushTrace();
      else this.flushTimer ??= setTimeout(() => this.flushTrace(), TRACE_FLUSH_MS);
      return;
    }
    this.flushTrace();
    this.insertTrace([row]);
  }

  private flushTrace(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    if (!this.traceBuffer.length) return;
    const rows = this.traceBuffer;
    this.traceBuffer = [];
    this.insertTrace(rows);
  }

  private insertTrace(rows: TraceRow[]): void {
    for (const row of rows)
      this.ctx.storage.sql.exec(
        "INSERT INTO trace (request_id, service, method, path, query, request_body, status, response_body, replayed, note, response_of) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        ...row,
      );
  }

  /** The scenario stored at init, parsed once per instance (it never changes for the life of a world). */
  private scenarioDoc: ScenarioDocument | null | undefined;
  private scenario(): ScenarioDocument | null {
    if (this.scenarioDoc === undefined) this.scenarioDoc = storedScenario(this.store.meta("scenario"));
    return this.scenarioDoc;
  }

  async diff(): Promise<WorldDiff> {
    this.requireSeeded();
    await this.ensureBase();
    return foldChanges(this.store.changes(), {
      world: this.store.meta("world_id")!,
      seed: { name: this.store.meta("seed_name")!, hash: this.store.meta("seed_hash")! },
      clock: this.store.meta("clock")!,
    });
  }

  async objects(type: ObjectType): Promise<StoredObject[]> {
    this.requireSeeded();
    await this.ensureBase();
    return this.store.list(type, { includeDeleted: true });
  }

  traceRecords(): TraceRecord[] {
    this.flushTrace();
    const rows = this.ctx.storage.sql
      .exec<{ seq: number; request_id: string; service: string; method: string; path: string; query: string; request_body: string; status: number; response_body: string; replayed: number; note: string | null; response_of: string | null }>(
        "SELECT * FROM trace ORDER BY seq",
      )
      .toArray();
    const bodies = new Map<string, string>();
    for (const r of rows) if (r.response_of === null) bodies.set(r.request_id, r.response_body);
    return rows.map(({ response_of, ...r }) => ({
      ...r,
      response_body: response_of === null ? r.response_body : (bodies.get(response_of) ?? ""),
      service: r.service as TraceService,
      replayed: r.replayed === 1,
      note: (r.note as TraceRecord["note"]) ?? null,
    }));
  }

  /** Whether the world is seeded and not destroyed: the cheap check before reading it (info counts everything). */
  exists(): boolean {
    return this.store.meta("world_id") !== null;
  }

  async info(): Promise<WorldInfo | null> {
    this.flushTrace();
    const id = this.store.meta("world_id");
    if (!id) return null;
    await this.ensureBase();
    const objects = this.store.countsByType();
    const req = (s: Service) => this.ctx.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM trace WHERE service = ?", s).one().n;
    return {
      id,
      seed: { name: this.store.meta("seed_name")!, hash: this.store.meta("seed_hash")! },
      clock: this.store.meta("clock")!,
      objects,
      requests: { stripe: req("stripe"), helpdesk: req("helpdesk") },
      changes: this.ctx.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM changes").one().n,
    };
  }

  /**
   * The end of a world in one call: what it held (the trace, and the diff when asked), archived to R2 under
   * `archiveKey` before its storage is deleted, so nothing is lost if the archive fails. An episode needed
   * exists + diff + trace + archive + delete, four admin round trips and five calls into the world
   * (bench/harness-overhead.mjs). Agent requests arriving while it closes are refused like a wrong key: none
   * can slip in between the archive and the delete. Returns null when there is no such world.
   */
  async end(opts: { archiveKey: string; diff: boolean }): Promise<WorldEnd | null> {
    if (!this.exists() || this.closing) return null;
    this.closing = true;
    try {
      const diff = opts.diff ? await this.diff() : null;
      const trace = this.traceRecords();
      const person = personState(this.store);
      const lines = trace.map((t) => JSON.stringify(t) + "\n").join("");
      await (this.env as Env).ARTIFACTS.put(opts.archiveKey, lines, { httpMetadata: { contentType: "application/x-ndjson" }, customMetadata: { world: this.store.meta("world_id")! } });
      await this.wipe();
      return { diff, trace, person };
    } finally {
      this.closing = false;
    }
  }

  /**
   * Deletes everything the world holds, without archiving (hosted runs archive the trace under the run).
   * Answers whether there was a world, so a caller needs no exists() call first.
   */
  async destroy(): Promise<boolean> {
    if (!this.exists()) return false;
    await this.wipe();
    return true;
  }

  private closing = false;

  private async wipe(): Promise<void> {
    // Trace rows still buffered belong to a world that is going away.
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    this.traceBuffer = [];
    await this.ctx.storage.deleteAll();
    // The tables again, empty: a later request for this id finds no world rather than a missing table.
    this.ctx.storage.sql.exec(WORLD_SCHEMA);
    // The store's generation moves on reset, so no answer cached before is served again.
    this.store.reset();
    // A tombstone: an idempotent creation request repeated after the world's end must not bring it back.
    this.store.setMeta("ended", "1");
    this.scenarioDoc = undefined;
  }

  private requireSeeded(): void {
    if (!this.store.meta("world_id")) throw new Error("world not found");
  }
}
