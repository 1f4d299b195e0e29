// Applies migrations/*.sql to the local server's D1 database from Node. The d1_migrations table has the same
// shape wrangler keeps, so a persisted directory is never migrated twice, by us or by `wrangler d1 migrations`.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** The slice of D1's API this needs (Miniflare's getD1Database returns the real binding). */
export interface MigrationDb {
  prepare(sql: string): { bind(...values: unknown[]): unknown; all<T = unknown>(): Promise<{ results: T[] }> };
  batch(statements: unknown[]): Promise<unknown>;
}

const TRACKING_TABLE = `CREATE TABLE IF NOT EXISTS d1_migrations(
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT UNIQUE,
  applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
)`;

export async function applyMigrations(db: MigrationDb, dir: string): Promise<string[]> {
  await db.batch([db.prepare(TRACKING_TABLE)]);
  const done = new Set((await db.prepare("SELECT name FROM d1_migrations").all<{ name: string }>()).results.map((r) => r.name));
  const applied: string[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".sql")).sort()) {
    if (done.has(file)) continue;
    const statements = splitSql(readFileSync(join(dir, file), "utf8"));
    // One batch = one transaction: a migration and its tracking row land together or not at all.
    await db.batch([...statements.map((s) => db.prepare(s)), db.prepare("INSERT INTO d1_migrations (name) VALUES (?)").bind(file)]);
    applied.push(file);
  }
  return applied;
}

/**
 * Splits a migration into statements. drizzle-kit separates them with `--> statement-breakpoint`; otherwise
 * split on semicolons outside quotes and comments (migrations here hold no triggers, whose bodies contain `;`).
 */
export function splitSql(text: string): string[] {
  const chunks = text.includes("--> statement-breakpoint") ? text.split(/^\s*-->\s*statement-breakpoint\s*$/m) : [text];
  return chunks.flatMap(splitOnSemicolons).map((s) => s.trim()).filter((s) => stripComments(s).trim() !== "");
}

function splitOnSemicolons(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === "'" || c === '"' || c === "`" || c === "[") {
      const close = c === "[" ? "]" : c;
      i = text.indexOf(close, i + 1);
      if (i < 0) break;
      i++;
    } else if (c === "-" && text[i + 1] === "-") {
      const nl = text.indexOf("\n", i);
      i = nl < 0 ? text.length : nl + 1;
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end < 0 ? text.length : end + 2;
    } else if (c === ";") {
      out.push(text.slice(start, i));
      start = ++i;
    } else i++;
  }
  out.push(text.slice(start));
  return out;
}

function stripComments(s: string): string {
  return s.replace(/--[^\n]*/g, "").replace(/\/\*[\s\S]*?\*\//g, "");
}
