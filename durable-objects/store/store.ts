// The world's object store: every read and write the twins make goes through here, and every write lands in
// the change log with the request that caused it. All methods are synchronous (SQLite in the Durable Object),
// so a request handler runs as one transaction and concurrent requests never interleave inside it.
// Objects live in two layers: the seeded base (read-only, store/base.ts) and the objects table, which holds
// every object the agent created, changed or deleted and hides the base row of the same id.
import type { ChangeRecord, ObjectType } from "../../src/core/world/diff/types";
import { deterministicId } from "./ids";
import { EMPTY_BASE, type BaseLayer, type BaseRow } from "./base";

export type StoredObject = Record<string, unknown> & { id: string };

export interface ListOptions {
  customer?: string;
  /** Include deleted stubs (only retrieve by id shows them). */
  includeDeleted?: boolean;
}

export type IdempotencyRecord = {
  fingerprint: string;
  endpoint: string;
  status: number;
  body: string;
  request_id: string;
};

type Row = Record<string, SqlStorageValue> & {
  id: string;
  seq: number;
  created: number;
  customer: string | null;
  deleted: number;
  data: string;
};

export class Store {
  private requestId = "seed";
  /**
   * Meta as the world last committed it (counters, clock, key hash...), read several times by every request.
   * Writes go through; a transaction that rolls back must call forgetMeta, since what it wrote is undone.
   */
  private metaCache = new Map<string, string | null>();
  /**
   * Moves on every write (objects, meta, idempotency records) and whenever the base changes, rolled-back writes
   * included: two reads at the same generation see the same state (the World's read cache relies on it).
   */
  generation = 0;

  constructor(private readonly sql: SqlStorage) {}

  /** The request whose writes follow; recorded on every change. */
  beginRequest(requestId: string): void {
    this.requestId = requestId;
  }

  meta(key: string): string | null {
    const cached = this.metaCache.get(key);
    if (cached !== undefined) return cached;
    const rows = this.sql.exec<{ v: string }>("SELECT v FROM meta WHERE k = ?", key).toArray();
    const value = rows.length ? rows[0].v : null;
    this.metaCache.set(key, value);
    return value;
  }

  /** After a rollback: meta is read from storage again. */
  forgetMeta(): void {
    this.metaCache.clear();
  }

  setMeta(key: string, value: string): void {
    this.generation++;
    this.metaCache.set(key, value);
    this.sql.exec("INSERT INTO meta (k, v) VALUES (?, ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v", key, value);
  }

  /** The world's fixed clock, unix seconds. */
  now(): number {
    return Number(this.meta("clock_unix") ?? "0");
  }

  /** A fresh deterministic id for a new object; the counter lives in the world so ids never repeat. */
  newId(prefix: string): string {
    const n = Number(this.meta("id_counter") ?? "0") + 1;
    this.setMeta("id_counter", String(n));
    return deterministicId(prefix, this.meta("seed_hash") ?? "", n);
  }

  /** Next integer id for the help desk's numeric ids (tickets, comments, users, audits). */
  nextNumber(kind: string, floor = 0): number {
    const key = `num_${kind}`;
    const n = Math.max(Number(this.meta(key) ?? "0"), floor) + 1;
    this.setMeta(key, String(n));
    return n;
  }

  get<T extends StoredObject = StoredObject>(type: ObjectType, id: string, opts: { includeDeleted?: boolean } = {}): T | null {
    const row = this.row(type, id);
    if (!row) return null;
    if (row.deleted && !opts.includeDeleted) return null;
    return JSON.parse(row.data) as T;
  }

  isDeleted(type: ObjectType, id: string): boolean {
    return this.row(type, id)?.deleted === 1;
  }

  /** Newest first (created desc, then insertion order desc), as the billing API lists. */
  list<T extends StoredObject = StoredObject>(type: ObjectType, opts: ListOptions = {}): T[] {
    return this.rows(type, opts).map((r) => JSON.parse(r.data) as T);
  }

  count(type: ObjectType): number {
    return this.rows(type, {}).length;
  }

  /** Live objects per collection (deleted ones excluded), for a world's summary. */
  countsByType(): Partial<Record<ObjectType, number>> {
    const types = new Set<ObjectType>(this.base().types());
    for (const r of this.sql.exec<{ type: string }>("SELECT DISTINCT type FROM objects").toArray()) types.add(r.type as ObjectType);
    const out: Partial<Record<ObjectType, number>> = {};
    for (const t of [...types].sort()) {
      const n = this.count(t);
      if (n > 0) out[t] = n;
    }
    return out;
  }

  private row(type: ObjectType, id: string): Pick<Row, "seq" | "created" | "customer" | "deleted" | "data"> | null {
    const rows = this.sql.exec<Row>("SELECT * FROM objects WHERE type = ? AND id = ?", type, id).toArray();
    if (rows.length) return rows[0];
    const b = this.base().get(type, id);
    return b ? { ...b, deleted: 0 } : null;
  }

  /** The merged layers for one collection: base rows not overridden, plus the table's rows, newest first. */
  private rows(type: ObjectType, opts: ListOptions): Array<{ data: string; created: number; seq: number }> {
    const table = this.sql.exec<Row>("SELECT * FROM objects WHERE type = ?", type).toArray();
    const overridden = new Set(table.map((r) => r.id));
    const out: Array<{ data: string; created: number; seq: number }> = [];
    for (const r of this.base().rows(type)) {
      if (overridden.has(r.id)) continue;
      if (opts.customer !== undefined && r.customer !== opts.customer) continue;
      out.push(r);
    }
    for (const r of table) {
      if (r.deleted && !opts.includeDeleted) continue;
      if (opts.customer !== undefined && r.customer !== opts.customer) continue;
      out.push(r);
    }
    if (table.length) out.sort((a, b) => b.created - a.created || b.seq - a.seq);
    return out;
  }

  private baseLayer: BaseLayer | null = null;

  /** The seeded layer. The World loads it (async, from R2 on a cold start) before anything reads objects. */
  private base(): BaseLayer {
    if (this.baseLayer) return this.baseLayer;
    if (this.meta("base_key") === null) return EMPTY_BASE;
    throw new Error("store: the world's seeded objects are not loaded (World.ensureBase must run first)");
  }

  hasBase(): boolean {
    return this.baseLayer !== null;
  }

  setBase(base: BaseLayer): void {
    this.generation++;
    this.baseLayer = base;
  }

  /** Forgets the base and everything remembered from meta (the world's storage was deleted). */
  reset(): void {
    this.generation++;
    this.baseLayer = null;
    this.metaCache.clear();
  }

  /** Seeding path: no change log (the seed is the baseline the diff is measured from). */
  seedInsert(type: ObjectType, obj: StoredObject, customer: string | null, created: number, data = JSON.stringify(obj)): void {
    this.generation++;
    const seq = this.nextSeq();
    this.sql.exec(
      "INSERT INTO objects (type, id, seq, created, customer, deleted, data) VALUES (?, ?, ?, ?, ?, 0, ?)",
      type, obj.id, seq, created, customer, data,
    );
  }

  /**
   * The seeded rows as the base layer stores them: JSON chunks of [type, id, seq, created, customer, data],
   * each at most about 1 MB (an R2 object holds them all; the cap keeps any one string well inside the
   * runtime's limits). Sequence numbers continue from the world's, so agent-made objects order after them.
   * `parsed` receives the same rows as JSON.parse of the chunks would give them.
   */
  seedChunks(rows: Array<{ type: ObjectType; obj: StoredObject; customer: string | null; created: number }>, parsed: BaseRow[] = []): string[] {
    let seq = Number(this.meta("seq") ?? "0");
    const MAX_CHUNK_CHARS = 1_000_000;
    const chunks: string[] = [];
    let chunk: string[] = [];
    let size = 0;
    const flush = () => {
      if (!chunk.length) return;
      chunks.push(`[${chunk.join(",")}]`);
      chunk = [];
      size = 0;
    };
    for (const r of rows) {
      const data = JSON.stringify(r.obj);
      if (data.length > MAX_CHUNK_CHARS) throw new Error(`seed object ${r.obj.id} is ${data.length} characters; a world object may be at most ${MAX_CHUNK_CHARS}`);
      const row = JSON.stringify([r.type, r.obj.id, ++seq, r.created, r.customer, data]);
      // As JSON.parse gives the row back: -0 reads as 0, a number JSON cannot write as null.
      parsed.push({ type: r.type, id: r.obj.id, seq, created: Number.isFinite(r.created) ? r.created + 0 : (null as unknown as number), customer: r.customer ?? null, data });
      if (size + row.length > MAX_CHUNK_CHARS) flush();
      chunk.push(row);
      size += row.length + 1;
    }
    flush();
    this.setMeta("seq", String(seq));
    return chunks;
  }

  allMeta(): Array<[string, string]> {
    return this.sql.exec<{ k: string; v: string }>("SELECT k, v FROM meta ORDER BY k").toArray().map((r) => [r.k, r.v]);
  }

  insert(type: ObjectType, obj: StoredObject, customer: string | null): void {
    const created = typeof obj.created === "number" ? obj.created : this.now();
    const data = JSON.stringify(obj);
    this.seedInsert(type, obj, customer, created, data);
    this.log(type, obj.id, customer, null, data);
  }

  /**
   * Replaces an object's document; logs before/after. Returns the new document. Stored documents are always
   * JSON.stringify output, so the stored text is compared and logged as it is, never parsed again.
   */
  update<T extends StoredObject>(type: ObjectType, id: string, next: T): T {
    const row = this.row(type, id);
    if (!row) throw new Error(`store: no ${type} ${id} to update`);
    const data = JSON.stringify(next);
    if (data === row.data) return next;
    this.write(type, id, row, 0, data);
    this.log(type, id, row.customer, row.data, data);
    return next;
  }

  /** Marks an object deleted, keeping a stub that retrieve returns (as the billing API does for customers). */
  remove(type: ObjectType, id: string, stub: StoredObject): void {
    const row = this.row(type, id);
    if (!row) throw new Error(`store: no ${type} ${id} to delete`);
    this.write(type, id, row, 1, JSON.stringify(stub));
    this.log(type, id, row.customer, row.data, null);
  }

  /** Writes an object's new state to the table; a base object is copied in with its place in the order. */
  private write(type: ObjectType, id: string, row: Pick<BaseRow, "seq" | "created" | "customer">, deleted: 0 | 1, data: string): void {
    this.generation++;
    this.sql.exec(
      "INSERT INTO objects (type, id, seq, created, customer, deleted, data) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(type, id) DO UPDATE SET deleted = excluded.deleted, data = excluded.data",
      type, id, row.seq, row.created, row.customer, deleted, data,
    );
  }

  /** A stored idempotent response (billing API), or null. */
  idempotencyRecord(key: string): IdempotencyRecord | null {
    const rows = this.sql.exec<IdempotencyRecord & { key: string }>("SELECT * FROM idempotency WHERE key = ?", key).toArray();
    return rows.length ? { fingerprint: rows[0].fingerprint, endpoint: rows[0].endpoint, status: rows[0].status, body: rows[0].body, request_id: rows[0].request_id } : null;
  }

  saveIdempotencyRecord(key: string, rec: IdempotencyRecord): void {
    this.generation++;
    this.sql.exec(
      "INSERT INTO idempotency (key, fingerprint, endpoint, status, body, request_id) VALUES (?, ?, ?, ?, ?, ?)",
      key, rec.fingerprint, rec.endpoint, rec.status, rec.body, rec.request_id,
    );
  }

  changes(): ChangeRecord[] {
    return this.sql
      .exec<{ seq: number; request_id: string; type: string; id: string; customer: string | null; before: string | null; after: string | null }>(
        "SELECT * FROM changes ORDER BY seq",
      )
      .toArray()
      .map((r) => ({
        seq: r.seq,
        request_id: r.request_id,
        type: r.type as ObjectType,
        id: r.id,
        customer: r.customer,
        before: r.before ? (JSON.parse(r.before) as Record<string, unknown>) : null,
        after: r.after ? (JSON.parse(r.after) as Record<string, unknown>) : null,
      }));
  }

  private nextSeq(): number {
    const n = Number(this.meta("seq") ?? "0") + 1;
    this.setMeta("seq", String(n));
    return n;
  }

  /** before / after: the documents as stored (JSON text), null for a creation / deletion. */
  private log(type: ObjectType, id: string, customer: string | null, before: string | null, after: string | null): void {
    this.sql.exec(
      "INSERT INTO changes (request_id, type, id, customer, before, after) VALUES (?, ?, ?, ?, ?, ?)",
      this.requestId, type, id, customer, before, after,
    );
  }
}
