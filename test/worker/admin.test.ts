import { exports, env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { forgetCachedBases } from "../../durable-objects/store/base";

const admin = { authorization: "Bearer test-token", "content-type": "application/json" };
const call = (path: string, init: RequestInit = {}) => exports.default.fetch(new Request(`http://twin.test${path}`, init));

describe("admin API", () => {
  it("answers health without a token", async () => {
    const res = await call("/health");
    expect(res.status).toBe(200);
  });

  it("refuses admin routes without the server token", async () => {
    expect((await call("/admin/seeds")).status).toBe(401);
    expect((await call("/admin/seeds", { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
  });

  it("creates a world from a bundled seed, registers it in D1, and deletes it with its trace archived in R2", async () => {
    const res = await call("/admin/worlds", { method: "POST", headers: admin, body: JSON.stringify({ seed: "acme-small" }) });
    expect(res.status).toBe(201);
    const world = (await res.json()) as { id: string; key: string; stripe_api_base: string };
    expect(world.id).toMatch(/^w_[A-Za-z0-9]{16}$/);
    expect(world.key.startsWith("sk_test_")).toBe(true);
    const row = await env.DB.prepare("SELECT seed_name FROM worlds WHERE id = ?").bind(world.id).first<{ seed_name: string }>();
    expect(row?.seed_name).toBe("acme-small");
    const del = await call(`/admin/worlds/${world.id}`, { method: "DELETE", headers: admin });
    expect(del.status).toBe(200);
    expect(await env.ARTIFACTS.head(`traces/${world.id}.jsonl`)).not.toBeNull();
    expect((await call(`/admin/worlds/${world.id}`, { headers: admin })).status).toBe(404);
  });

  it("names the path of every problem in an inline seed", async () => {
    const res = await call("/admin/worlds", {
      method: "POST",
      headers: admin,
      body: JSON.stringify({ seed: { version: 1, name: "x", clock: "2026-01-01T00:00:00Z", currency: "usd", data: { customers: [{ id: "cus_1", email: null, name: null, colour: "red" }] } } }),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { issues: Array<{ path: string; message: string }> } };
    expect(body.error.issues).toContainEqual({ path: "data.customers[0].colour", message: "unknown field" });
  });

  it("seeds a world whose objects add up to more than SQLite's 2 MB bound-string limit", async () => {
    const customers = Array.from({ length: 3000 }, (_, i) => ({
      id: `cus_Big${String(i).padStart(5, "0")}`,
      email: `c${i}@example.com`,
      name: `Customer ${i}`,
      description: "x".repeat(1200),
    }));
    const seed = { version: 1, name: "big", clock: "2026-01-01T00:00:00Z", currency: "usd", data: { customers } };
    const res = await call("/admin/worlds", { method: "POST", headers: admin, body: JSON.stringify({ seed }) });
    expect(res.status).toBe(201);
    const world = (await res.json()) as { id: string; objects: number };
    expect(world.objects).toBeGreaterThanOrEqual(3000);
    const info = (await (await call(`/admin/worlds/${world.id}`, { headers: admin })).json()) as { objects: Record<string, number> };
    expect(info.objects.customers).toBe(3000);
  });

  it("seeds a second world from the isolate's snapshot identically to the first, ids and counters included", async () => {
    const make = async () => (await (await call("/admin/worlds", { method: "POST", headers: admin, body: JSON.stringify({ seed: "acme-small" }) })).json()) as { id: string; key: string };
    const a = await make();
    const b = await make();
    for (const type of ["customers", "invoices", "charges", "tickets", "ticket_comments", "users"]) {
      const objs = async (w: { id: string }) => (await call(`/admin/worlds/${w.id}/objects?type=${type}`, { headers: admin })).text();
      expect(await objs(b)).toBe(await objs(a));
    }
    // The same agent actions mint the same ids in both worlds (refund ids, comment ids, audit ids).
    const act = async (w: { key: string }) => {
      const auth = { authorization: `Bearer ${w.key}` };
      const refund = await (await call("/v1/refunds", { method: "POST", headers: { ...auth, "content-type": "application/x-www-form-urlencoded" }, body: "charge=ch_AcmeNorthwindDup" })).json();
      const reply = await (await call("/api/v2/tickets/4101.json", { method: "PUT", headers: { ...auth, "content-type": "application/json" }, body: JSON.stringify({ ticket: { comment: { body: "Refunded.", public: true }, status: "solved" } }) })).json();
      return JSON.stringify([refund, reply]);
    };
    expect(await act(b)).toBe(await act(a));
  });

  it("refuses a seed whose money does not add up with a 400 naming the object, before any world exists", async () => {
    const seed = {
      version: 1, name: "bad-money", clock: "2026-01-01T00:00:00Z", currency: "usd",
      data: {
        customers: [{ id: "cus_A", email: "a@example.com", name: "A" }],
        charges: [{ id: "ch_A", customer: "cus_A", amount: 1000 }],
        refunds: [{ id: "re_A", charge: "ch_A", amount: 1500 }],
      },
    };
    const res = await call("/admin/worlds", { method: "POST", headers: admin, body: JSON.stringify({ seed }) });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; issues: Array<{ path: string; message: string }> } };
    expect(body.error.code).toBe("invalid_seed");
    expect(body.error.issues[0].message).toContain("ch_A");
  });

  it("traces every request in the order it was answered, reads included, whenever the trace is read", async () => {
    const world = (await (await call("/admin/worlds", { method: "POST", headers: admin, body: JSON.stringify({ seed: "acme-small" }) })).json()) as { id: string; key: string };
    const auth = { authorization: `Bearer ${world.key}` };
    await call("/v1/customers/cus_AcmeNorthwind", { headers: auth });
    await call("/api/v2/tickets/4101.json", { headers: auth });
    await call("/v1/refunds", { method: "POST", headers: { ...auth, "content-type": "application/x-www-form-urlencoded" }, body: "charge=ch_AcmeNorthwindDup" });
    await call("/v1/charges/ch_AcmeNorthwindDup", { headers: auth });
    const info = (await (await call(`/admin/worlds/${world.id}`, { headers: admin })).json()) as { requests: { stripe: number; helpdesk: number } };
    expect(info.requests).toEqual({ stripe: 3, helpdesk: 1 });
    const lines = (await (await call(`/admin/worlds/${world.id}/trace`, { headers: admin })).text()).trim().split("\n").map((l) => JSON.parse(l) as { method: string; path: string; seq: number });
    expect(lines.map((l) => `${l.method} ${l.path}`)).toEqual([
      "GET /v1/customers/cus_AcmeNorthwind",
      "GET /api/v2/tickets/4101.json",
      "POST /v1/refunds",
      "GET /v1/charges/ch_AcmeNorthwindDup",
    ]);
  });

  it("reloads a world's seeded objects from R2 when its isolate has never seen them (a cold start)", async () => {
    const world = (await (await call("/admin/worlds", { method: "POST", headers: admin, body: JSON.stringify({ seed: "acme-small" }) })).json()) as { id: string; key: string };
    const auth = { authorization: `Bearer ${world.key}` };
    await call("/v1/refunds", { method: "POST", headers: { ...auth, "content-type": "application/x-www-form-urlencoded" }, body: "charge=ch_AcmeNorthwindDup&amount=500" });
    // The isolate forgets every base, and this world's object forgets the one it held.
    forgetCachedBases();
    await runInDurableObject(env.WORLD.getByName(world.id), (instance) => {
      (instance as unknown as { store: { reset(): void } }).store.reset();
    });
    const charge = (await (await call("/v1/charges/ch_AcmeNorthwindDup", { headers: auth })).json()) as { amount_refunded: number };
    expect(charge.amount_refunded).toBe(500);
    const customers = (await (await call("/v1/customers?limit=100", { headers: auth })).json()) as { data: unknown[] };
    expect(customers.data).toHaveLength(15);
    const diff = (await (await call(`/admin/worlds/${world.id}/diff`, { headers: admin })).json()) as { entries: Array<{ type: string; op: string }> };
    expect(diff.entries.filter((e) => e.type === "refunds" && e.op === "created")).toHaveLength(1);
  });

  it("refuses twin request bodies over 1 MB with 413 in each service's own error shape", async () => {
    const world = (await (await call("/admin/worlds", { method: "POST", headers: admin, body: JSON.stringify({ seed: "acme-small" }) })).json()) as { id: string; key: string };
    const auth = { authorization: `Bearer ${world.key}` };
    const big = "x".repeat(1024 * 1024 + 1);
    const billing = await call("/v1/customers", { method: "POST", headers: { ...auth, "content-type": "application/x-www-form-urlencoded" }, body: `description=${big}` });
    expect(billing.status).toBe(413);
    expect(((await billing.json()) as { error: { type: string } }).error.type).toBe("invalid_request_error");
    const desk = await call("/api/v2/tickets/4101.json", { method: "PUT", headers: { ...auth, "content-type": "application/json" }, body: JSON.stringify({ ticket: { comment: { body: big } } }) });
    expect(desk.status).toBe(413);
    expect(((await desk.json()) as { error: string }).error).toBe("RequestTooLarge");
    // Nothing reached the world.
    const diff = (await (await call(`/admin/worlds/${world.id}/diff`, { headers: admin })).json()) as { entries: unknown[] };
    expect(diff.entries).toEqual([]);
  });
});
