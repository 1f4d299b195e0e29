// Issue 11 item 14: /health answered 200 while the local server was still applying its D1 migrations, and the
// first POST /admin/worlds after it failed with internal_error ("no such table: worlds"). Health now means ready.
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { EXPECTED_MIGRATIONS, readinessCheck, type ReadyDb } from "../../src/db/ready";
import { killAllStarted, startCli } from "./helpers/cli";

afterAll(killAllStarted);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}

function fakeDb(names: () => string[] | Error): ReadyDb & { queries: number } {
  const db = {
    queries: 0,
    prepare: () => ({
      all: async <T>() => {
        db.queries++;
        const n = names();
        if (n instanceof Error) throw n;
        return { results: n.map((name) => ({ name })) as T[] };
      },
    }),
  };
  return db;
}

describe("readiness (src/db/ready.ts)", () => {
  it("names every migration in the journal, as d1_migrations records them", () => {
    expect(EXPECTED_MIGRATIONS[0]).toBe("0000_init.sql");
    expect(EXPECTED_MIGRATIONS.every((n) => /^\d{4}_\w+\.sql$/.test(n))).toBe(true);
  });

  it("is not ready without the tracking table or with a migration missing, then ready for good", async () => {
    let state: string[] | Error = new Error("no such table: d1_migrations");
    const db = fakeDb(() => state);
    const check = readinessCheck(["0000_a.sql", "0001_b.sql"]);
    expect(await check(db)).toEqual(["0000_a.sql", "0001_b.sql"]);
    state = ["0000_a.sql"];
    expect(await check(db)).toEqual(["0001_b.sql"]);
    state = ["0000_a.sql", "0001_b.sql"];
    expect(await check(db)).toEqual([]);
    const before = db.queries;
    expect(await check(db)).toEqual([]);
    expect(db.queries).toBe(before); // a ready server asks no more
  });
});

describe("worlds serve: health means ready", () => {
  it("the first POST /admin/worlds after the first healthy /health creates a world", { timeout: 120_000 }, async () => {
    // A fresh --persist directory, so the server has every migration to apply while its port is already open.
    const dir = mkdtempSync(join(tmpdir(), "worlds-ready-"));
    const port = await freePort();
    const token = "ready-test-token-0123456789";
    const p = startCli(["serve", "--port", String(port), "--token", token, "--persist", dir]);
    const url = `http://127.0.0.1:${port}`;
    const early: number[] = [];
    try {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const res = await fetch(`${url}/health`).catch(() => null);
        if (res?.status === 200) break;
        if (res) early.push(res.status);
        if (Date.now() > deadline || p.child.exitCode !== null) throw new Error(`no healthy server:\n${p.stderr()}`);
        await new Promise((r) => setTimeout(r, 2));
      }
      const created = await fetch(`${url}/admin/worlds`, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: JSON.stringify({ seed: "acme-small" }) });
      expect(created.status, await created.clone().text()).toBe(201);
      // What a not-yet-ready server answered, when the poll caught it: 503, never a 200 or a 500.
      expect(early.every((s) => s === 503)).toBe(true);
    } finally {
      p.signal("SIGTERM");
      await p.exited;
    }
  });
});
