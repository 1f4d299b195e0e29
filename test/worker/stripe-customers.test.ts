// Customers and their balance ledger through the billing twin, and the diff each action leaves.
import { describe, expect, it } from "vitest";
import { createWorld, diff, NOW, stripe } from "./stripe-helpers";

describe("billing twin: customers", () => {
  it("creates a customer in the full API shape with a deterministic id", async () => {
    const a = await createWorld();
    const b = await createWorld();
    const ra = await stripe(a, "POST", "/v1/customers", { params: { email: "new@example.com", name: "New", metadata: { src: "t" } } });
    const rb = await stripe(b, "POST", "/v1/customers", { params: { email: "new@example.com", name: "New", metadata: { src: "t" } } });
    expect(ra.status).toBe(200);
    expect(ra.body).toMatchObject({
      object: "customer",
      email: "new@example.com",
      name: "New",
      balance: 0,
      created: NOW,
      livemode: false,
      metadata: { src: "t" },
      invoice_settings: { default_payment_method: null },
      tax_exempt: "none",
    });
    expect(ra.body.id).toMatch(/^cus_[A-Za-z0-9]{24}$/);
    expect(rb.body.id).toBe(ra.body.id);
    const d = await diff(a);
    expect(d.entries).toHaveLength(1);
    expect(d.entries[0]).toMatchObject({ type: "customers", id: ra.body.id, op: "created", customer: ra.body.id });
  });

  it("refuses an invalid email", async () => {
    const w = await createWorld();
    const r = await stripe(w, "POST", "/v1/customers", { params: { email: "not-an-email" } });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: "email_invalid", param: "email" });
  });

  it("updates fields, merges metadata, unsets a key with '' and clears all with metadata=", async () => {
    const w = await createWorld();
    const r = await stripe(w, "POST", "/v1/customers/cus_Alice", { raw: "name=Alice+A.&metadata[vip]=yes&metadata[tier]=&description=" });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ name: "Alice A.", metadata: { vip: "yes" }, description: null });
    const d = await diff(w);
    expect(d.entries[0].fields).toEqual({
      "metadata.tier": { before: "gold", after: null },
      "metadata.vip": { before: null, after: "yes" },
      name: { before: "Alice Anders", after: "Alice A." },
    });
    const cleared = await stripe(w, "POST", "/v1/customers/cus_Alice", { raw: "metadata=" });
    expect(cleared.body.metadata).toEqual({});
  });

  it("deletes a customer: the stub reads back, live subscriptions are canceled, updates 404", async () => {
    const w = await createWorld();
    const del = await stripe(w, "DELETE", "/v1/customers/cus_Alice");
    expect(del.body).toEqual({ id: "cus_Alice", object: "customer", deleted: true });
    const get = await stripe(w, "GET", "/v1/customers/cus_Alice");
    expect(get.status).toBe(200);
    expect(get.body).toEqual({ id: "cus_Alice", object: "customer", deleted: true });
    expect((await stripe(w, "POST", "/v1/customers/cus_Alice", { params: { name: "x" } })).status).toBe(404);
    expect((await stripe(w, "DELETE", "/v1/customers/cus_Alice")).status).toBe(404);
    const list = await stripe(w, "GET", "/v1/customers");
    expect(list.body.data.map((c: { id: string }) => c.id)).not.toContain("cus_Alice");
    const sub = await stripe(w, "GET", "/v1/subscriptions/sub_Alice");
    expect(sub.body).toMatchObject({ status: "canceled", canceled_at: NOW, ended_at: NOW });
    const d = await diff(w);
    expect(d.entries.map((e) => `${e.type}:${e.id}:${e.op}`)).toEqual(["subscriptions:sub_Alice:updated", "customers:cus_Alice:deleted"]);
  });
});

describe("billing twin: customer balance transactions", () => {
  it("credits with a negative amount and keeps balance and ending_balance consistent", async () => {
    const w = await createWorld();
    const r = await stripe(w, "POST", "/v1/customers/cus_Bob/balance_transactions", { params: { amount: -1500, currency: "usd", description: "Goodwill credit" } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ object: "customer_balance_transaction", amount: -1500, ending_balance: -2000, type: "adjustment", customer: "cus_Bob", currency: "usd", description: "Goodwill credit" });
    expect(r.body.id).toMatch(/^cbtxn_/);
    const cus = await stripe(w, "GET", "/v1/customers/cus_Bob");
    expect(cus.body.balance).toBe(-2000);
    const list = await stripe(w, "GET", "/v1/customers/cus_Bob/balance_transactions");
    expect(list.body).toMatchObject({ object: "list", url: "/v1/customers/cus_Bob/balance_transactions" });
    expect(list.body.data.map((t: { id: string; ending_balance: number }) => [t.id, t.ending_balance])).toEqual([
      [r.body.id, -2000],
      ["cbtxn_BobInitial", -500],
    ]);
    const one = await stripe(w, "GET", `/v1/customers/cus_Bob/balance_transactions/${r.body.id}`);
    expect(one.body.id).toBe(r.body.id);
    expect((await stripe(w, "GET", `/v1/customers/cus_Alice/balance_transactions/${r.body.id}`)).status).toBe(404);
    const d = await diff(w);
    expect(d.entries.map((e) => `${e.type}:${e.op}`)).toEqual(["balance_transactions:created", "customers:updated"]);
    expect(d.entries[1].fields).toEqual({ balance: { before: -500, after: -2000 } });
    expect(d.entries.every((e) => e.customer === "cus_Bob")).toBe(true);
  });

  it("sets the customer's currency with the first transaction and refuses another currency later", async () => {
    const w = await createWorld();
    const first = await stripe(w, "POST", "/v1/customers/cus_Alice/balance_transactions", { params: { amount: 700, currency: "usd" } });
    expect(first.body.ending_balance).toBe(700);
    expect((await stripe(w, "GET", "/v1/customers/cus_Alice")).body).toMatchObject({ currency: "usd", balance: 700 });
    const eur = await stripe(w, "POST", "/v1/customers/cus_Alice/balance_transactions", { params: { amount: 100, currency: "eur" } });
    expect(eur.status).toBe(400);
    expect(eur.body.error.param).toBe("currency");
  });

  it("records a balance set through customer update as a ledger entry", async () => {
    const w = await createWorld();
    const r = await stripe(w, "POST", "/v1/customers/cus_Bob", { params: { balance: -800 } });
    expect(r.body.balance).toBe(-800);
    const list = await stripe(w, "GET", "/v1/customers/cus_Bob/balance_transactions", { params: { limit: 1 } });
    expect(list.body.data[0]).toMatchObject({ amount: -300, ending_balance: -800, type: "adjustment" });
  });

  it("updates only description and metadata, and 404s for an unknown customer", async () => {
    const w = await createWorld();
    const u = await stripe(w, "POST", "/v1/customers/cus_Bob/balance_transactions/cbtxn_BobInitial", { params: { description: "Opening credit", metadata: { k: "v" } } });
    expect(u.body).toMatchObject({ description: "Opening credit", metadata: { k: "v" }, amount: -500 });
    const bad = await stripe(w, "POST", "/v1/customers/cus_Bob/balance_transactions/cbtxn_BobInitial", { params: { amount: 5 } });
    expect(bad.body.error.code).toBe("parameter_unknown");
    const missing = await stripe(w, "POST", "/v1/customers/cus_Ghost/balance_transactions", { params: { amount: -5, currency: "usd" } });
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe("No such customer: 'cus_Ghost'");
  });
});

describe("billing twin: products and prices", () => {
  it("lists every product, filters by active, retrieves and searches", async () => {
    const w = await createWorld();
    const all = await stripe(w, "GET", "/v1/products");
    expect(all.body.data.map((p: { id: string }) => p.id)).toEqual(["prod_Growth", "prod_Starter", "prod_Legacy"]);
    const active = await stripe(w, "GET", "/v1/products", { params: { active: false } });
    expect(active.body.data.map((p: { id: string }) => p.id)).toEqual(["prod_Legacy"]);
    expect((await stripe(w, "GET", "/v1/products/prod_Growth")).body).toMatchObject({ object: "product", name: "Growth", active: true, type: "service" });
    const s = await stripe(w, "GET", "/v1/products/search", { params: { query: 'name~"grow" AND active:"true"' } });
    expect(s.body.data.map((p: { id: string }) => p.id)).toEqual(["prod_Growth"]);
  });

  it("lists active prices by default, inactive on request, with filters and expand of product", async () => {
    const w = await createWorld();
    const def = await stripe(w, "GET", "/v1/prices");
    expect(def.body.data.map((p: { id: string }) => p.id)).toEqual(["price_GrowthYearly", "price_GrowthMonthly", "price_Setup", "price_StarterMonthly"]);
    const inactive = await stripe(w, "GET", "/v1/prices", { params: { active: false } });
    expect(inactive.body.data.map((p: { id: string }) => p.id)).toEqual(["price_LegacyMonthly"]);
    const growth = await stripe(w, "GET", "/v1/prices", { raw: "product=prod_Growth&recurring[interval]=year&expand[]=data.product" });
    expect(growth.body.data).toHaveLength(1);
    expect(growth.body.data[0].product).toMatchObject({ id: "prod_Growth", object: "product" });
    const oneTime = await stripe(w, "GET", "/v1/prices", { params: { type: "one_time" } });
    expect(oneTime.body.data.map((p: { id: string }) => p.id)).toEqual(["price_Setup"]);
    const byKey = await stripe(w, "GET", "/v1/prices", { raw: "lookup_keys[]=starter_monthly" });
    expect(byKey.body.data.map((p: { id: string }) => p.id)).toEqual(["price_StarterMonthly"]);
    const p = await stripe(w, "GET", "/v1/prices/price_GrowthYearly");
    expect(p.body).toMatchObject({
      object: "price",
      unit_amount: 90000,
      unit_amount_decimal: "90000",
      currency: "usd",
      type: "recurring",
      recurring: { interval: "year", interval_count: 1, usage_type: "licensed" },
    });
    const s = await stripe(w, "GET", "/v1/prices/search", { params: { query: 'product:"prod_Growth" AND -type:"one_time"' } });
    expect(s.body.data).toHaveLength(2);
  });
});
