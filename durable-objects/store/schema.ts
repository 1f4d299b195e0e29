// The world's SQLite schema. One JSON-document table with the columns lists and attribution need, plus the
// change log (the diff's source), idempotency records and the request trace.
export const WORLD_SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS objects (
  type TEXT NOT NULL,
  id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  created INTEGER NOT NULL,
  customer TEXT,
  deleted INTEGER NOT NULL DEFAULT 0,
  data TEXT NOT NULL
);
-- A rowid table with a unique index: documents are large, and WITHOUT ROWID tables store whole rows in the
-- index b-tree, which measured 40% slower to seed.
-- Lists merge this table with the seeded base and order in memory, so (type, id) is the only index a query
-- uses; ordering and customer indexes cost every write and were never read.
CREATE UNIQUE INDEX IF NOT EXISTS objects_by_id ON objects (type, id);
CREATE TABLE IF NOT EXISTS changes (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  request_id TEXT NOT NULL,
  type TEXT NOT NULL,
  id TEXT NOT NULL,
  customer TEXT,
  before TEXT,
  after TEXT
);
CREATE TABLE IF NOT EXISTS idempotency (
  key TEXT PRIMARY KEY,
  fingerprint TEXT NOT NULL,
  endpoint TEXT NOT NULL,
  status INTEGER NOT NULL,
  body TEXT NOT NULL,
  request_id TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS trace (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  request_id TEXT NOT NULL,
  service TEXT NOT NULL,
  method TEXT NOT NULL,
  path TEXT NOT NULL,
  query TEXT NOT NULL,
  request_body TEXT NOT NULL,
  status INTEGER NOT NULL,
  response_body TEXT NOT NULL,
  replayed INTEGER NOT NULL DEFAULT 0,
  note TEXT,
  -- A read answered from the read cache: the request whose row holds the identical body (response_body is then
  -- empty). Repeated large lists are stored once; reading the trace puts the body back.
  response_of TEXT
);
`;

/**
 * Brings a world persisted by an older version up to this schema: trace.response_of (SQLite has no ADD COLUMN
 * IF NOT EXISTS) and the two objects indexes nothing reads any more.
 */
export function upgradeWorldSchema(sql: SqlStorage): void {
  const columns = sql.exec<{ name: string }>("PRAGMA table_info(trace)").toArray().map((c) => c.name);
  if (!columns.includes("response_of")) sql.exec("ALTER TABLE trace ADD COLUMN response_of TEXT");
  sql.exec("DROP INDEX IF EXISTS objects_by_created; DROP INDEX IF EXISTS objects_by_customer;");
}
