// The local server hands its Worker the migrations and the Worker applies them on its first health check
// (src/db/ready.ts, src/db/migrate.ts): in order, each with its tracking row, once, never twice.
import { describe, expect, it } from "vitest";
import { applyMigrations } from "../../src/db/migrate";
import { EXPECTED_MIGRATIONS, migratingCheck, readinessCheck } from "../../src/db/ready";
import { readMigrations } from "../../src/cli/server/migrations";
import { join } from "node:path";

const fresh = () => migratingCheck(readinessCheck(EXPECTED_MIGRATIONS));

/** A D1 stand-in that records the statements of each batch and keeps the d1_migrations rows. */
function fakeD1(opts: { failOn?: string } = {}) {
  const tracked: string[] = [];
  const batches: string[][] = [];
  let table = false;
  const stmt = (sql: string, args: unknown[] = []) => ({
    sql,
    args,
    bind: (...values: unknown[]) => stmt(sql, values),
    all: async <T>() => {
      if (!table) throw new Error("no such table: d1_migrations");
      return { results: tracked.map((name) => ({ name })) as T[] };
    },
  });
  return {
    tracked,
    batches,
    prepare: (sql: string) => stmt(sql),
    batch: async (statements: unknown[]) => {
      const list = statements as ReturnType<typeof stmt>[];
      batches.push(list.map((s) => s.sql));
      await new Promise((r) => setTimeout(r, 1));
      if (opts.failOn && list.some((s) => s.sql.includes(opts.failOn!))) throw new Error(`near "${opts.failOn}": syntax error`);
      for (const s of list) {
        if (s.sql.startsWith("CREATE TABLE IF NOT EXISTS d1_migrations")) table = true;
        if (s.sql.startsWith("INSERT INTO d1_migrations")) tracked.push(String(s.args[0]));
      }
    },
  };
}

describe("D1 migrations applied by the Worker", () => {
  it("applies each migration once, in file order, with its tracking row in the same batch", async () => {
    const db = fakeD1();
    const set = [
      { name: "0001_b.sql", statements: ["CREATE TABLE b (y)"] },
      { name: "0000_a.sql", statements: ["CREATE TABLE a (x)", "CREATE INDEX ia ON a (x)"] },
    ];
    expect(await applyMigrations(db, set)).toEqual(["0000_a.sql", "0001_b.sql"]);
    expect(db.batches.slice(1)).toEqual([
      ["CREATE TABLE a (x)", "CREATE INDEX ia ON a (x)", "INSERT INTO d1_migrations (name) VALUES (?)"],
      ["CREATE TABLE b (y)", "INSERT INTO d1_migrations (name) VALUES (?)"],
    ]);
    expect(await applyMigrations(db, set)).toEqual([]);
    expect(db.tracked).toEqual(["0000_a.sql", "0001_b.sql"]);
  });

  it("the project's migrations, handed over as the local server does, leave nothing pending; concurrent checks apply them once", async () => {
    const db = fakeD1();
    const set = readMigrations(join(__dirname, "..", "..", "migrations"));
    expect(set.map((m) => m.name)).toEqual(EXPECTED_MIGRATIONS);
    const check = fresh();
    const results = await Promise.all([check(db, set), check(db, set), check(db, set)]);
    expect(results).toEqual([[], [], []]);
    expect(db.tracked).toEqual(EXPECTED_MIGRATIONS);
  });

  it("without migrations handed over (a deployed Worker) it only reports; a failing one stays pending", async () => {
    expect(await fresh()(fakeD1(), undefined)).toEqual(EXPECTED_MIGRATIONS);
    const set = readMigrations(join(__dirname, "..", "..", "migrations"));
    const broken = fakeD1({ failOn: set[1]!.statements[0]!.slice(0, 30) });
    const pending = await fresh()(broken, set);
    expect(pending[0]).toBe(set[1]!.name);
    await expect(fresh()(fakeD1(), [{ name: "../x", statements: [] }])).rejects.toThrow();
  });
});
