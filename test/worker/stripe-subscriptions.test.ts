// Subscriptions through the billing twin: lists and filters, cancel at period end, plan changes that keep the
// item id with each proration behaviour, immediate cancel, search, and the diff each leaves.
import { describe, expect, it } from "vitest";
import { billingSeed, createWorld, diff, NOW, stripe } from "./stripe-helpers";

const DAY = 86400;

describe("billing twin: subscriptions", () => {
  it("stores the full shape with embedded items, prices and plans", async () => {
    const w = await createWorld();
    const r = await stripe(w, "GET", "/v1/subscriptions/sub_Bob");
    expect(r.body).toMatchObject({
      id: "sub_Bob",
      object: "subscription",
      status: "past_due",
      customer: "cus_Bob",
      currency: "usd",
      cancel_at_period_end: false,
      collection_method: "charge_automatically",
      items: { object: "list", url: "/v1/subscription_items?subscription=sub_Bob", has_more: false, total_count: 1 },
    });
    expect(r.body.items.data[0]).toMatchObject({
      id: "si_Bob",
      object: "subscription_item",
      quantity: 2,
      current_period_end: NOW + 20 * DAY,
      price: { id: "price_GrowthMonthly", object: "price", unit_amount: 9000 },
      plan: { id: "price_GrowthMonthly", object: "plan", amount: 9000, interval: "month" },
      subscription: "sub_Bob",
    });
    const items = await stripe(w, "GET", "/v1/subscription_items", { params: { subscription: "sub_Bob" } });
    expect(items.body.data.map((i: { id: string }) => i.id)).toEqual(["si_Bob"]);
    expect((await stripe(w, "GET", "/v1/subscription_items/si_Bob")).body.quantity).toBe(2);
  });

  it("lists without canceled ones by default; status=all and status=canceled include them", async () => {
    const w = await createWorld();
    const ids = async (params: Record<string, unknown> = {}) =>
      (await stripe(w, "GET", "/v1/subscriptions", { params })).body.data.map((s: { id: string }) => s.id);
    expect(await ids()).toEqual(["sub_Bob", "sub_Alice"]);
    expect(await ids({ status: "all" })).toEqual(["sub_CarolOld", "sub_Bob", "sub_Alice"]);
    expect(await ids({ status: "canceled" })).toEqual(["sub_CarolOld"]);
    expect(await ids({ status: "past_due" })).toEqual(["sub_Bob"]);
    expect(await ids({ customer: "cus_Alice" })).toEqual(["sub_Alice"]);
    expect(await ids({ price: "price_GrowthMonthly" })).toEqual(["sub_Bob"]);
    expect(await ids({ current_period_end: { lte: NOW + 16 * DAY } })).toEqual(["sub_Alice"]);
  });

  it("cancels at period end: stays active, cancel_at = period end, canceled_at = now; and can be undone", async () => {
    const w = await createWorld();
    const r = await stripe(w, "POST", "/v1/subscriptions/sub_Alice", { params: { cancel_at_period_end: true, cancellation_details: { feedback: "too_expensive" } } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      status: "active",
      cancel_at_period_end: true,
      cancel_at: NOW + 15 * DAY,
      canceled_at: NOW,
      cancellation_details: { feedback: "too_expensive", reason: "cancellation_requested" },
    });
    const d = await diff(w);
    expect(d.entries[0]).toMatchObject({ type: "subscriptions", id: "sub_Alice", op: "updated", customer: "cus_Alice" });
    expect(Object.keys(d.entries[0].fields!).sort()).toEqual(["cancel_at", "cancel_at_period_end", "canceled_at", "cancellation_details.feedback", "cancellation_details.reason"]);
    const undo = await stripe(w, "POST", "/v1/subscriptions/sub_Alice", { params: { cancel_at_period_end: false } });
    expect(undo.body).toMatchObject({ cancel_at_period_end: false, cancel_at: null, canceled_at: null });
  });

  it("changes plan keeping the si_ id, resets quantity, and with proration_behavior=none leaves no invoice items", async () => {
    const w = await createWorld();
    const r = await stripe(w, "POST", "/v1/subscriptions/sub_Bob", {
      params: { items: [{ id: "si_Bob", price: "price_StarterMonthly" }], proration_behavior: "none" },
    });
    expect(r.status).toBe(200);
    expect(r.body.items.data).toHaveLength(1);
    expect(r.body.items.data[0]).toMatchObject({ id: "si_Bob", quantity: 1, price: { id: "price_StarterMonthly" }, plan: { id: "price_StarterMonthly" } });
    const d = await diff(w);
    expect(d.entries.map((e) => `${e.type}:${e.op}`)).toEqual(["subscriptions:updated"]);
    expect(d.entries[0].fields!["items.data"]).toBeDefined();
    expect((await stripe(w, "GET", "/v1/invoiceitems", { params: { customer: "cus_Bob" } })).body.data).toEqual([]);
  });

  it("creates proration invoice items by default: credit for unused time, charge for the remainder", async () => {
    const w = await createWorld();
    // Alice: Starter 3000/month, period [now-15d, now+15d]: half the period remains.
    const r = await stripe(w, "POST", "/v1/subscriptions/sub_Alice", { params: { items: [{ id: "si_Alice", price: "price_GrowthMonthly" }] } });
    expect(r.body.items.data[0]).toMatchObject({ id: "si_Alice", price: { id: "price_GrowthMonthly" } });
    const items = await stripe(w, "GET", "/v1/invoiceitems", { params: { customer: "cus_Alice", pending: true } });
    const amounts = items.body.data.map((i: { amount: number; proration: boolean; invoice: null }) => [i.amount, i.proration, i.invoice]);
    expect(amounts.sort()).toEqual([[-1500, true, null], [4500, true, null]].sort());
    expect(items.body.data.find((i: { amount: number }) => i.amount === -1500).description).toBe("Unused time on Starter after 15 Sep 2026");
    expect(items.body.data[0].parent).toMatchObject({ type: "subscription_details", subscription_details: { subscription: "sub_Alice", subscription_item: "si_Alice" } });
    const d = await diff(w);
    expect(d.entries.map((e) => `${e.type}:${e.op}`).sort()).toEqual(["invoice_items:created", "invoice_items:created", "subscriptions:updated"]);
  });

  it("resets the billing period when the interval changes (monthly to yearly)", async () => {
    const w = await createWorld();
    const r = await stripe(w, "POST", "/v1/subscriptions/sub_Bob", { params: { items: [{ id: "si_Bob", price: "price_GrowthYearly", quantity: 2 }], proration_behavior: "none" } });
    expect(r.body.billing_cycle_anchor).toBe(NOW);
    expect(r.body.items.data[0]).toMatchObject({ quantity: 2, current_period_start: NOW, current_period_end: NOW + 365 * DAY });
  });

  it("refuses unknown items, inactive and one-time prices, and adding without a price", async () => {
    const w = await createWorld();
    const unknownItem = await stripe(w, "POST", "/v1/subscriptions/sub_Alice", { params: { items: [{ id: "si_Nope", price: "price_GrowthMonthly" }] } });
    expect(unknownItem.body.error).toMatchObject({ code: "resource_missing", param: "items[0][id]" });
    const inactive = await stripe(w, "POST", "/v1/subscriptions/sub_Alice", { params: { items: [{ id: "si_Alice", price: "price_LegacyMonthly" }] } });
    expect(inactive.body.error.param).toBe("items[0][price]");
    expect(inactive.body.error.message).toMatch(/inactive/);
    const oneTime = await stripe(w, "POST", "/v1/subscriptions/sub_Alice", { params: { items: [{ id: "si_Alice", price: "price_Setup" }] } });
    expect(oneTime.body.error.message).toMatch(/type=recurring/);
    const noPrice = await stripe(w, "POST", "/v1/subscriptions/sub_Alice", { params: { items: [{ quantity: 2 }] } });
    expect(noPrice.body.error).toMatchObject({ code: "parameter_missing", param: "items[0][price]" });
    const badBehavior = await stripe(w, "POST", "/v1/subscriptions/sub_Alice", { params: { proration_behavior: "sometimes" } });
    expect(badBehavior.body.error.param).toBe("proration_behavior");
    expect((await diff(w)).entries).toEqual([]);
  });

  it("adds a second item without an id", async () => {
    const w = await createWorld();
    const r = await stripe(w, "POST", "/v1/subscriptions/sub_Alice", { params: { items: [{ price: "price_GrowthMonthly" }], proration_behavior: "none" } });
    expect(r.body.items.data.map((i: { price: { id: string } }) => i.price.id)).toEqual(["price_StarterMonthly", "price_GrowthMonthly"]);
    expect(r.body.items.data[1].id).toMatch(/^si_/);
    expect(r.body.items.total_count).toBe(2);
  });

  it("DELETE cancels now and the subscription leaves the default list; a second cancel is refused", async () => {
    const w = await createWorld();
    const r = await stripe(w, "DELETE", "/v1/subscriptions/sub_Alice", { params: { cancellation_details: { comment: "asked by email" } } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ object: "subscription", status: "canceled", canceled_at: NOW, ended_at: NOW, cancellation_details: { comment: "asked by email", reason: "cancellation_requested" } });
    const list = await stripe(w, "GET", "/v1/subscriptions");
    expect(list.body.data.map((s: { id: string }) => s.id)).toEqual(["sub_Bob"]);
    const again = await stripe(w, "DELETE", "/v1/subscriptions/sub_Alice");
    expect(again.status).toBe(400);
    const edit = await stripe(w, "POST", "/v1/subscriptions/sub_Alice", { params: { cancel_at_period_end: true } });
    expect(edit.status).toBe(400);
    const meta = await stripe(w, "POST", "/v1/subscriptions/sub_Alice", { params: { metadata: { note: "x" } } });
    expect(meta.status).toBe(200);
    const d = await diff(w);
    expect(d.entries).toHaveLength(1);
    expect(d.entries[0].fields).toMatchObject({ status: { before: "active", after: "canceled" }, ended_at: { before: null, after: NOW } });
  });

  it("DELETE with prorate=true credits the unused time", async () => {
    const w = await createWorld();
    await stripe(w, "DELETE", "/v1/subscriptions/sub_Alice", { params: { prorate: true } });
    const items = await stripe(w, "GET", "/v1/invoiceitems", { params: { customer: "cus_Alice" } });
    expect(items.body.data.map((i: { amount: number }) => i.amount)).toEqual([-1500]);
  });

  it("ends a trial now: trialing becomes active; an active subscription is left as it is", async () => {
    const seed = billingSeed();
    seed.data.subscriptions.push({
      id: "sub_CarolTrial",
      customer: "cus_Carol",
      status: "trialing",
      created: NOW - 2 * DAY,
      trial_start: NOW - 2 * DAY,
      trial_end: NOW + 12 * DAY,
      items: [{ id: "si_CarolTrial", price: "price_GrowthMonthly", current_period_start: NOW - 2 * DAY, current_period_end: NOW + 12 * DAY }],
    } as never);
    const w = await createWorld(seed);
    const r = await stripe(w, "POST", "/v1/subscriptions/sub_CarolTrial", { params: { trial_end: "now" } });
    expect(r.body).toMatchObject({ status: "active", trial_end: NOW, trial_start: NOW - 2 * DAY });
    const active = await stripe(w, "POST", "/v1/subscriptions/sub_Alice", { params: { trial_end: "now" } });
    expect(active.body).toMatchObject({ status: "active", trial_end: null });
    const bad = await stripe(w, "POST", "/v1/subscriptions/sub_Alice", { params: { trial_end: "soon" } });
    expect(bad.body.error.param).toBe("trial_end");
  });

  it("searches by status and metadata", async () => {
    const w = await createWorld();
    const s = await stripe(w, "GET", "/v1/subscriptions/search", { params: { query: 'status:"active" AND metadata["plan"]:"starter"' } });
    expect(s.body.data.map((x: { id: string }) => x.id)).toEqual(["sub_Alice"]);
    const bad = await stripe(w, "GET", "/v1/subscriptions/search", { params: { query: 'customer:"cus_Alice"' } });
    expect(bad.status).toBe(400);
  });

  it("serves invoice items' legacy fields to old versions", async () => {
    const w = await createWorld();
    await stripe(w, "DELETE", "/v1/subscriptions/sub_Alice", { params: { prorate: true } });
    const old = await stripe(w, "GET", "/v1/invoiceitems", { params: { customer: "cus_Alice" }, headers: { "stripe-version": "2024-04-10" } });
    expect(old.body.data[0]).toMatchObject({ subscription: "sub_Alice", subscription_item: "si_Alice", price: { id: "price_StarterMonthly" } });
  });
});

describe("billing twin: invoicing subscription changes now", () => {
  it("always_invoice bills the prorations on a new paid invoice and points latest_invoice at it", async () => {
    const w = await createWorld();
    const r = await stripe(w, "POST", "/v1/subscriptions/sub_Alice", {
      params: { items: [{ id: "si_Alice", price: "price_GrowthMonthly" }], proration_behavior: "always_invoice" },
    });
    expect(r.status).toBe(200);
    const inv = await stripe(w, "GET", `/v1/invoices/${r.body.latest_invoice}`);
    expect(inv.body).toMatchObject({
      object: "invoice",
      status: "paid",
      billing_reason: "subscription_update",
      customer: "cus_Alice",
      total: 3000,
      amount_paid: 3000,
      amount_remaining: 0,
      parent: { type: "subscription_details", subscription_details: { subscription: "sub_Alice" } },
    });
    expect(inv.body.lines.data.map((l: { amount: number }) => l.amount)).toEqual([-1500, 4500]);
    const pending = await stripe(w, "GET", "/v1/invoiceitems", { params: { customer: "cus_Alice", pending: true } });
    expect(pending.body.data).toEqual([]);
    const d = await diff(w);
    const kinds = d.entries.map((e) => `${e.type}:${e.op}`);
    expect(kinds).toContain("invoices:created");
    expect(kinds).toContain("charges:created");
  });

  it("a downgrade billed now credits the net amount to the customer's balance", async () => {
    const w = await createWorld();
    // Bob: 2 × 9000 with 20 of 30 days left -> credit 12000; Starter 3000 for 20 days -> 2000; net -10000.
    const r = await stripe(w, "POST", "/v1/subscriptions/sub_Bob", {
      params: { items: [{ id: "si_Bob", price: "price_StarterMonthly" }], proration_behavior: "always_invoice" },
    });
    const inv = await stripe(w, "GET", `/v1/invoices/${r.body.latest_invoice}`);
    expect(inv.body).toMatchObject({ total: -10000, amount_due: 0, status: "paid", starting_balance: -500, ending_balance: -10500 });
    const cus = await stripe(w, "GET", "/v1/customers/cus_Bob");
    expect(cus.body.balance).toBe(-10500);
    const ledger = await stripe(w, "GET", "/v1/customers/cus_Bob/balance_transactions", { params: { limit: 1 } });
    expect(ledger.body.data[0].ending_balance).toBe(-10500);
  });

  it("cancel with prorate and invoice_now credits unused time on a final invoice", async () => {
    const w = await createWorld();
    const r = await stripe(w, "DELETE", "/v1/subscriptions/sub_Alice", { params: { prorate: true, invoice_now: true } });
    expect(r.body.status).toBe("canceled");
    const inv = await stripe(w, "GET", `/v1/invoices/${r.body.latest_invoice}`);
    expect(inv.body).toMatchObject({ total: -1500, amount_due: 0 });
    expect((await stripe(w, "GET", "/v1/customers/cus_Alice")).body.balance).toBe(-1500);
  });
});
