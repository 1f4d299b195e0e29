// The world's object store: every read and write the twins make goes through here, and every write lands in
// the change log with the request that caused it. All methods are synchronous (SQLite in the Durable Object),
// so a request handler runs as one transaction and concurrent requests never interleave inside it.
import type { ChangeRecord, ObjectType } from "../../src/core/diff/types";
import { deterministicId } from "./ids";

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

  constructor(private readonly sql: SqlStorage) {}

  /** The request whose writes follow; recorded on every change. */
  beginRequest(requestId: string): void {
    this.requestId = requestId;
  }

  meta(key: string): string | null {
    const rows = this.sql.exec<{ v: string }>("SELECT v FROM meta WHERE k = ?", key).toArray();
    return rows.length ? rows[0].v : null;
  }

  setMeta(key: string, value: string): void {
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
    const rows = this.sql.exec<Row>("SELECT * FROM objects WHERE type = ? AND id = ?", type, id).toArray();
    if (!rows.length) return null;
    if (rows[0].deleted && !opts.includeDeleted) return null;
    return JSON.parse(rows[0].data) as T;
  }

  isDeleted(type: ObjectType, id: string): boolean {
    const rows = this.sql.exec<{ deleted: number }>("SELECT deleted FROM objects WHERE type = ? AND id = ?", type, id).toArray();
    return rows.length > 0 && rows[0].deleted === 1;
  }

  /** Newest first (created desc, then insertion order desc), as the billing API lists. */
  list<T extends StoredObject = StoredObject>(type: ObjectType, opts: ListOptions = {}): T[] {
    const del = opts.includeDeleted ? "" : " AND deleted = 0";
    const rows = opts.customer !== undefined
      ? this.sql.exec<Row>(`SELECT data FROM objects WHERE type = ? AND customer = ?${del} ORDER BY created DESC, seq DESC`, type, opts.customer).toArray()
      : this.sql.exec<Row>(`SELECT data FROM objects WHERE type = ?${del} ORDER BY created DESC, seq DESC`, type).toArray();
    return rows.map((r) => JSON.parse(r.data) as T);
  }

  count(type: ObjectType): number {
    return this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM objects WHERE type = ? AND deleted = 0", type).one().n;
  }

  /** Seeding path: no change log (the seed is the baseline the diff is measured from). */
  seedInsert(type: ObjectType, obj: StoredObject, customer: string | null, created: number): void {
    const seq = this.nextSeq();
    this.sql.exec(
      "INSERT INTO objects (type, id, seq, created, customer, deleted, data) VALUES (?, ?, ?, ?, ?, 0, ?)",
      type, obj.id, seq, created, customer, JSON.stringify(obj),
    );
  }

  /**
   * Bulk seeding: one statement per chunk through json_each, the fastest path measured in the DO. Chunks are cut
   * by size because SQLite refuses a bound string over 2 MB. Returns the chunks so an identical world can be
   * seeded again without normalising the seed a second time (see seed/cache.ts).
   */
  seedInsertMany(rows: Array<{ type: ObjectType; obj: StoredObject; customer: string | null; created: number }>): string[] {
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
      if (size + row.length > MAX_CHUNK_CHARS) flush();
      chunk.push(row);
      size += row.length + 1;
    }
    flush();
    this.insertSeedChunks(chunks);
    this.setMeta("seq", String(seq));
    return chunks;
  }

  insertSeedChunks(chunks: readonly string[]): void {
    for (const c of chunks)
      this.sql.exec(
        "INSERT INTO objects (type, id, seq, created, customer, deleted, data) SELECT value->>0, value->>1, value->>2, value->>3, value->>4, 0, value->>5 FROM json_each(?)",
        c,
      );
  }

  allMeta(): Array<[string, string]> {
    return this.sql.exec<{ k: string; v: string }>("SELECT k, v FROM meta ORDER BY k").toArray().map((r) => [r.k, r.v]);
  }

  insert(type: ObjectType, obj: StoredObject, customer: string | null): void {
    const created = typeof obj.created === "number" ? obj.created : this.now();
    this.seedInsert(type, obj, customer, created);
    this.log(type, obj.id, customer, null, obj);
  }

  /** Replaces an object's document; logs before/after. Returns the new document. */
  update<T extends StoredObject>(type: ObjectType, id: string, next: T): T {
    const rows = this.sql.exec<Row>("SELECT * FROM objects WHERE type = ? AND id = ?", type, id).toArray();
    if (!rows.length) throw new Error(`store: no ${type} ${id} to update`);
    const before = JSON.parse(rows[0].data) as StoredObject;
    if (JSON.stringify(before) === JSON.stringify(next)) return next;
    this.sql.exec("UPDATE objects SET data = ? WHERE type = ? AND id = ?", JSON.stringify(next), type, id);
    this.log(type, id, rows[0].customer, before, next);
    return next;
  }

  /** Marks an object deleted, keeping a stub that retrieve returns (as the billing API does for customers). */
  remove(type: ObjectType, id: string, stub: StoredObject): void {
    const rows = this.sql.exec<Row>("SELECT * FROM objects WHERE type = ? AND id = ?", type, id).toArray();
    if (!rows.length) throw new Error(`store: no ${type} ${id} to delete`);
    const before = JSON.parse(rows[0].data) as StoredObject;
    this.sql.exec("UPDATE objects SET deleted = 1, data = ? WHERE type = ? AND id = ?", JSON.stringify(stub), type, id);
    this.log(type, id, rows[0].customer, before, null);
  }

  /** A stored idempotent response (billing API), or null. */
  idempotencyRecord(key: string): IdempotencyRecord | null {
    const rows = this.sql.exec<IdempotencyRecord & { key: string }>("SELECT * FROM idempotency WHERE key = ?", key).toArray();
    return rows.length ? { fingerprint: rows[0].fingerprint, endpoint: rows[0].endpoint, status: rows[0].status, body: rows[0].body, request_id: rows[0].request_id } : null;
  }

  saveIdempotencyRecord(key: string, rec: IdempotencyRecord): void {
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

  private log(type: ObjectType, id: string, customer: string | null, before: StoredObject | null, after: StoredObject | null): void {
    this.sql.exec(
      "INSERT INTO changes (request_id, type, id, customer, before, after) VALUES (?, ?, ?, ?, ?, ?)",
      this.requestId, type, id, customer, before ? JSON.stringify(before) : null, after ? JSON.stringify(after) : null,
    );
  }
}
