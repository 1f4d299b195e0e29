// Whether D1 holds every migration this build was made with. The local server starts answering HTTP before it
// has applied them (Miniflare opens the port, then Node migrates), and a deployed Worker may be deployed before
// `wrangler d1 migrations apply`: in both cases a request that touches D1 would fail with "no such table".
// /health answers 503 until then, and so do the routes that need D1, saying what is missing.
import journal from "../../migrations/meta/_journal.json";
import { applyMigrations, migrationSetSchema, type MigrationDb } from "./migrate";

/** File names as wrangler and src/cli/server/migrations.ts record them in d1_migrations. */
export const EXPECTED_MIGRATIONS: readonly string[] = journal.entries.map((e) => `${e.tag}.sql`);

/** The slice of D1 this reads. */
export interface ReadyDb {
  prepare(sql: string): { all<T = unknown>(): Promise<{ results: T[] }> };
}

/** Answers the migrations not yet applied ([] = ready; all of them while the tracking table does not exist). */
export type ReadinessCheck = (db: ReadyDb) => Promise<string[]>;

export function readinessCheck(expected: readonly string[]): ReadinessCheck {
  // Once every migration is there it stays there: a ready isolate pays for one query, then none.
  let ready = false;
  return async (db) => {
    if (ready) return [];
    let names: string[];
    try {
      names = (await db.prepare("SELECT name FROM d1_migrations").all<{ name: string }>()).results.map((r) => r.name);
    } catch {
      return [...expected];
    }
    const have = new Set(names);
    const pending = expected.filter((n) => !have.has(n));
    ready = pending.length === 0;
    return pending;
  };
}

export const pendingMigrations: ReadinessCheck = readinessCheck(EXPECTED_MIGRATIONS);

/**
 * The migrations still pending, after applying them when the local server handed them over (`migrations`, its
 * WORLDS_MIGRATIONS binding; a deployed Worker has none and only reports). Applied here, beside the database,
 * one request does what took Node a D1 proxy and a round trip per statement batch at every start. Concurrent
 * requests share one application; a failure is logged and the migrations stay pending (503 says which).
 */
export type MigratingCheck = (db: ReadyDb & MigrationDb, migrations: unknown) => Promise<string[]>;

export function migratingCheck(check: ReadinessCheck): MigratingCheck {
  let migrating: Promise<void> | null = null;
  return async (db, migrations) => {
    const pending = await check(db);
    if (pending.length === 0 || migrations === undefined) return pending;
    const set = migrationSetSchema.parse(migrations);
    migrating ??= (async () => {
      try {
        await applyMigrations(db, set);
      } catch (e) {
        console.error(`worlds: applying the D1 migrations failed: ${(e as Error).message}`);
      } finally {
        migrating = null;
      }
    })();
    await migrating;
    return check(db);
  };
}

export const pendingAfterMigrating: MigratingCheck = migratingCheck(pendingMigrations);

export function notReadyMessage(pending: readonly string[]): string {
  return (
    `The server's database is not ready: ${pending.length} migration(s) not applied (${pending.join(", ")}). ` +
    "A local server applies them as it starts: retry in a moment. A deployed one needs `npx wrangler d1 migrations apply DB --remote`."
  );
}
