// Applies D1 migrations, in order, each with its tracking row in one batch (one transaction). The d1_migrations
// table has the shape wrangler keeps, so a persisted directory is never migrated twice, by us or by
// `wrangler d1 migrations apply`. Runtime-neutral: the local server hands the Worker its migrations (the
// WORLDS_MIGRATIONS binding) and the Worker applies them itself, next to its database.
import { z } from "zod";

/** Migrations as the local server hands them over: file name, and its statements already split. */
export const migrationSetSchema = z
  .array(z.object({ name: z.string().regex(/^[\w.-]{1,200}$/), statements: z.array(z.string().max(1_000_000)).max(10_000) }).strict())
  .max(10_000);
export type MigrationSet = z.infer<typeof migrationSetSchema>;

/** The slice of D1's API this needs (the Worker's binding, or Miniflare's getD1Database from Node). */
export interface MigrationDb {
  prepare(sql: string): { bind(...values: unknown[]): unknown; all<T = unknown>(): Promise<{ results: T[] }> };
  batch(statements: unknown[]): Promise<unknown>;
}

const TRACKING_TABLE = `CREATE TABLE IF NOT EXISTS d1_migrations(
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT UNIQUE,
  applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
)`;

/** Applies the migrations not yet recorded; answers the names it applied. */
export async function applyMigrations(db: MigrationDb, migrations: MigrationSet): Promise<string[]> {
  await db.batch([db.prepare(TRACKING_TABLE)]);
  const done = new Set((await db.prepare("SELECT name FROM d1_migrations").all<{ name: string }>()).results.map((r) => r.name));
  const applied: string[] = [];
  for (const m of [...migrations].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (done.has(m.name)) continue;
    await db.batch([...m.statements.map((s) => db.prepare(s)), db.prepare("INSERT INTO d1_migrations (name) VALUES (?)").bind(m.name)]);
    applied.push(m.name);
  }
  return applied;
}
