// Repeated reads of an unchanged world are answered from the world's read cache: same bytes, their own request
// ids, every one traced with its full body, and never an answer from a state the world has left.
import { exports, env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { upgradeWorldSchema } from "../../durable-objects/store/schema";

const admin = { authorization: "Bearer test-token", "content-type": "application/json" };
const call = (path: string, init: RequestInit = {}) => exports.default.fetch(new Request(`http://twin.test${path}`, init));

async function world(): Promise<{ id: string; auth: Record<string, string> }> {
  const w = (await (await call("/admin/worlds", { method: "POST", headers: admin, body: JSON.stringify({ seed: "acme-small" }) })).json()) as { id: string; key: string };
  return { id: w.id, auth: { authorization: `Bearer ${w.key}` } };
}

async function trace(id: string): Promise<Array<{ request_id: string; path: string; response_body: string }>> {
  const text = await (await call(`/admin/worlds/${id}/trace`, { headers: admin })).text();
  return text.trim().split("\n").map((l) => JSON.parse(l) as { request_id: string; path: string; response_body: string });
}

describe("the world's read cache", () => {
  it("answers a repeated list with the same bytes under a new request id, and traces each answer in full", async () => {
    const { id, auth } = await world();
    const first = await call("/v1/invoices?limit=100", { headers: auth });
    const second = await call("/v1/invoices?limit=100", { headers: auth });
    const [a, b] = [await first.text(), await second.text()];
    expect(b).toBe(a);
    expect(JSON.parse(a).data.length).toBeGreaterThan(10);
    expect(second.headers.get("request-id")).not.toBe(first.headers.get("request-id"));
    const rows = await trace(id);
    expect(rows.map((r) => r.request_id)).toEqual([first.headers.get("request-id"), second.headers.get("request-id")]);
    expect(rows.map((r) => r.response_body)).toEqual([a, a]);
  });

  it("traces a long run of buffered reads and the write after them, every row in order with its body", async () => {
    // 70 reads: one full batch of 64 flushed by count (several multi-row INSERTs) and six more flushed by the write.
    const { id, auth } = await world();
    const ids: string[] = [];
    const bodies: string[] = [];
    for (let i = 0; i < 70; i++) {
      const res = await call(i % 2 ? "/v1/customers/cus_AcmeNorthwind" : "/v1/customers?limit=3", { headers: auth });
      ids.push(res.headers.get("request-id")!);
      bodies.push(await res.text());
    }
    const write = await call("/v1/customers", { method: "POST", headers: { ...auth, "content-type": "application/x-www-form-urlencoded" }, body: "email=last%40example.com" });
    ids.push(write.headers.get("request-id")!);
    bodies.push(await write.text());
    const rows = await trace(id);
    expect(rows.map((r) => r.request_id)).toEqual(ids);
    expect(rows.map((r) => r.response_body)).toEqual(bodies);
  });

  it("never serves a read from before a write", async () => {
    const { auth } = await world();
    const read = async () => ((await (await call("/v1/charges/ch_AcmeNorthwindDup", { headers: auth })).json()) as { amount_refunded: number }).amount_refunded;
    const before = await read();
    expect(await read()).toBe(before);
    const refund = await call("/v1/refunds", { method: "POST", headers: { ...auth, "content-type": "application/x-www-form-urlencoded" }, body: "charge=ch_AcmeNorthwindDup&amount=500" });
    expect(refund.status).toBe(200);
    expect(await read()).toBe(before + 500);
  });

  it("never answers one world's read with another's, though the isolate's cache is shared", async () => {
    const a = await world();
    const b = await world();
    const read = async (auth: Record<string, string>) => ((await (await call("/v1/charges/ch_AcmeNorthwindDup", { headers: auth })).json()) as { amount_refunded: number }).amount_refunded;
    const untouched = await read(b.auth);
    await call("/v1/refunds", { method: "POST", headers: { ...a.auth, "content-type": "application/x-www-form-urlencoded" }, body: "charge=ch_AcmeNorthwindDup&amount=500" });
    expect(await read(a.auth)).toBe(untouched + 500);
    expect(await read(b.auth)).toBe(untouched);
    expect(await read(a.auth)).toBe(untouched + 500);
  });

  it("shows a ticket's new status after a reply on the help desk", async () => {
    const { auth } = await world();
    const show = async () => ((await (await call("/api/v2/tickets/4101.json", { headers: auth })).json()) as { ticket: { status: string } }).ticket.status;
    expect(await show()).not.toBe("solved");
    await show();
    const put = await call("/api/v2/tickets/4101.json", { method: "PUT", headers: { ...auth, "content-type": "application/json" }, body: JSON.stringify({ ticket: { status: "solved", comment: { body: "Done.", public: true } } }) });
    expect(put.status).toBe(200);
    expect(await show()).toBe("solved");
  });

  it("keys answers by API version: the same path under an older Stripe-Version gets that version's shapes", async () => {
    const { auth } = await world();
    const current = (await (await call("/v1/invoices?limit=1", { headers: auth })).json()) as { data: Array<Record<string, unknown>> };
    const legacy = (await (await call("/v1/invoices?limit=1", { headers: { ...auth, "stripe-version": "2024-06-20" } })).json()) as { data: Array<Record<string, unknown>> };
    expect("paid" in current.data[0]).toBe(false);
    expect("paid" in legacy.data[0]).toBe(true);
  });

  it("reads meta again after a rolled-back transaction instead of trusting what it wrote", async () => {
    const { id } = await world();
    await runInDurableObject(env.WORLD.getByName(id), (instance) => {
      const w = instance as unknown as { transact<T>(fn: () => T): T; store: { meta(k: string): string | null; setMeta(k: string, v: string): void } };
      const before = w.store.meta("id_counter");
      expect(() =>
        w.transact(() => {
          w.store.setMeta("id_counter", "999999");
          throw new Error("handler failed");
        }),
      ).toThrow("handler failed");
      expect(w.store.meta("id_counter")).toBe(before);
    });
  });

  it("adds the trace's response_of column to a world stored before it existed, once", async () => {
    const { id } = await world();
    await runInDurableObject(env.WORLD.getByName(id), (_instance, state) => {
      const sql = state.storage.sql;
      sql.exec("DROP TABLE trace");
      sql.exec("CREATE TABLE trace (seq INTEGER PRIMARY KEY AUTOINCREMENT, request_id TEXT NOT NULL, service TEXT NOT NULL, method TEXT NOT NULL, path TEXT NOT NULL, query TEXT NOT NULL, request_body TEXT NOT NULL, status INTEGER NOT NULL, response_body TEXT NOT NULL, replayed INTEGER NOT NULL DEFAULT 0, note TEXT)");
      upgradeWorldSchema(sql);
      upgradeWorldSchema(sql);
      const columns = sql.exec<{ name: string }>("PRAGMA table_info(trace)").toArray().map((c) => c.name);
      expect(columns.filter((c) => c === "response_of")).toHaveLength(1);
    });
  });
});
