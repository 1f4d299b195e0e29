// The billing endpoints a support agent reaches for beyond reads and refunds, through the official client:
// one-off invoices (create, send), previews of the next invoice and of a credit note (which write nothing),
// payment intent cancellation, starting and resuming subscriptions, changing one subscription item.
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { moneySeed } from "./money-seed";
import { client, createWorld, diff, rejects, stripe as raw } from "./stripe-helpers";

describe("invoices: create, send, preview", () => {
  it("creates a draft one-off invoice, finalizes and sends it", async () => {
    const w = await createWorld(moneySeed());
    const s = client(w.key);
    const draft = await s.invoices.create({ customer: "cus_Carol", collection_method: "send_invoice", days_until_due: 14, description: "Workshop follow-up" });
    expect(draft).toMatchObject({ object: "invoice", status: "draft", customer: "cus_Carol", collection_method: "send_invoice", billing_reason: "manual", total: 0 });
    expect((await rejects(s.invoices.sendInvoice(draft.id))).code).toBe("invoice_not_editable");
    const open = await s.invoices.finalizeInvoice(draft.id);
    // Nothing on it yet: finalizing a zero invoice settles it at once, as the real API does; it can still be sent.
    expect(open.status).toBe("paid");
    const sent = await s.invoices.sendInvoice(open.id);
    expect(sent).toMatchObject({ id: draft.id, status: "paid" });
    expect((await rejects(s.invoices.create({ customer: "cus_Carol", collection_method: "send_invoice" }))).param).toBe("days_until_due");
    expect((await rejects(s.invoices.create({ customer: "cus_nope" }))).code).toBe("resource_missing");
    const d = await diff(w);
    expect(d.entries.filter((e) => e.type === "invoices" && e.op === "created").map((e) => e.id)).toEqual([draft.id]);
  });

  it("previews the next invoice without writing, and routes upcoming by version", async () => {
    const w = await createWorld(moneySeed());
    const current = client(w.key);
    const preview = await current.invoices.createPreview({ customer: "cus_Alice" });
    expect(preview).toMatchObject({ object: "invoice", status: "draft", billing_reason: "upcoming", customer: "cus_Alice", total: 3000, amount_due: 3000 });
    expect(preview.id).toMatch(/^upcoming_in_/);
    expect(preview.lines.data[0]).toMatchObject({ amount: 3000, pricing: { price_details: { price: "price_StarterMonthly" } } });
    expect(preview.lines.data[0].id).toMatch(/^il_tmp_/);
    // Bob's credit balance (-500) comes off what the next invoice will ask for.
    const bob = await current.invoices.createPreview({ subscription: "sub_Bob" });
    expect(bob).toMatchObject({ total: 18000, starting_balance: -500, ending_balance: 0, amount_due: 17500 });
    expect((await rejects(current.invoices.createPreview({ subscription: "sub_CarolOld" }))).code).toBe("invoice_upcoming_none");

    // GET /v1/invoices/upcoming is the upcoming invoice under the versions that had it, never "invoice 'upcoming'".
    const old = await raw(w, "GET", "/v1/invoices/upcoming", { params: { customer: "cus_Alice" }, headers: { "stripe-version": "2020-08-27" } });
    expect(old.status).toBe(200);
    expect(old.body).toMatchObject({ object: "invoice", subscription: "sub_Alice", total: 3000 });
    expect(old.body.id).toBeUndefined();
    const lines = await raw(w, "GET", "/v1/invoices/upcoming/lines", { params: { customer: "cus_Alice" }, headers: { "stripe-version": "2020-08-27" } });
    expect(lines.body.data[0]).toMatchObject({ type: "subscription", subscription_item: "si_Alice", amount: 3000 });
    const gone = await raw(w, "GET", "/v1/invoices/upcoming", { params: { customer: "cus_Alice" } });
    expect(gone.status).toBe(400);
    expect(gone.body.error.message).toContain("create_preview");
    expect((await diff(w)).entries).toEqual([]);
  });
});

describe("credit note previews", () => {
  it("shows what a credit note would issue, and its lines, leaving the world unchanged", async () => {
    const w = await createWorld(moneySeed());
    const s = client(w.key);
    const preview = await s.creditNotes.preview({ invoice: "in_AliceOpen", amount: 1000 });
    expect(preview).toMatchObject({ object: "credit_note", amount: 1000, invoice: "in_AliceOpen", pre_payment_amount: 1000, post_payment_amount: 0, type: "pre_payment" });
    const lines = await s.creditNotes.listPreviewLineItems({ invoice: "in_AlicePaid", amount: 500, credit_amount: 500 });
    expect(lines.data.map((l) => l.amount)).toEqual([500]);
    const bad = await rejects(s.creditNotes.preview({ invoice: "in_AlicePaid", amount: 500 }));
    expect(bad.param).toBe("credit_amount");
    expect((await diff(w)).entries).toEqual([]);
    // The real create afterwards gets the same number the preview showed.
    const real = await s.creditNotes.create({ invoice: "in_AliceOpen", amount: 1000 });
    expect(real.number).toBe(preview.number);
  });
});

describe("payment intents: cancel", () => {
  it("cancels an intent still waiting for payment and refuses a succeeded one", async () => {
    const w = await createWorld(moneySeed());
    const s = client(w.key);
    const canceled = await s.paymentIntents.cancel("pi_BobOpen", { cancellation_reason: "requested_by_customer" });
    expect(canceled).toMatchObject({ status: "canceled", cancellation_reason: "requested_by_customer" });
    expect(canceled.canceled_at).toBeGreaterThan(0);
    const err = await rejects(s.paymentIntents.cancel("pi_AlicePaid"));
    expect(err.code).toBe("payment_intent_unexpected_state");
    expect(err.statusCode).toBe(400);
    expect((await rejects(s.paymentIntents.cancel("pi_BobOpen"))).code).toBe("payment_intent_unexpected_state");
    const d = await diff(w);
    expect(d.entries.map((e) => [e.type, e.id, e.op])).toEqual([["payment_intents", "pi_BobOpen", "updated"]]);
  });
});

describe("subscriptions: create, resume, one item", () => {
  it("starts a subscription billed now, or on trial billed nothing", async () => {
    const w = await createWorld(moneySeed());
    const s = client(w.key);
    const sub = await s.subscriptions.create({ customer: "cus_Carol", items: [{ price: "price_GrowthMonthly", quantity: 2 }], metadata: { via: "support" } }, { idempotencyKey: "start-carol" });
    expect(sub).toMatchObject({ object: "subscription", status: "active", customer: "cus_Carol", metadata: { via: "support" } });
    expect(sub.items.data[0]).toMatchObject({ quantity: 2, price: { id: "price_GrowthMonthly" } });
    const inv = await s.invoices.retrieve(sub.latest_invoice as string);
    expect(inv).toMatchObject({ status: "paid", total: 18000, billing_reason: "subscription_create" });
    const again = await s.subscriptions.create({ customer: "cus_Carol", items: [{ price: "price_GrowthMonthly", quantity: 2 }], metadata: { via: "support" } }, { idempotencyKey: "start-carol" });
    expect(again.id).toBe(sub.id);
    const trial = await s.subscriptions.create({ customer: "cus_Alice", items: [{ price: "price_GrowthYearly" }], trial_period_days: 14 });
    expect(trial).toMatchObject({ status: "trialing", latest_invoice: null });
    expect((await rejects(s.subscriptions.create({ customer: "cus_Alice", items: [{ price: "price_LegacyMonthly" }] }))).param).toBe("items[0][price]");
    const d = await diff(w);
    expect(d.entries.filter((e) => e.type === "subscriptions").map((e) => e.op)).toEqual(["created", "created"]);
  });

  it("resumes a paused subscription with a new period, and only a paused one", async () => {
    const seed = moneySeed();
    seed.data.subscriptions = seed.data.subscriptions.map((x) => (x.id === "sub_Alice" ? { ...x, status: "paused" } : x));
    const w = await createWorld(seed);
    const s = client(w.key);
    const resumed = await s.subscriptions.resume("sub_Alice", { billing_cycle_anchor: { type: "now" } });
    expect(resumed.status).toBe("active");
    expect(resumed.items.data[0].current_period_start).toBe(resumed.billing_cycle_anchor);
    expect((await rejects(s.subscriptions.resume("sub_Bob"))).code).toBe("subscription_not_paused");
  });

  it("changes one item's quantity through /v1/subscription_items, as the subscription update does", async () => {
    const w = await createWorld(moneySeed());
    const s = client(w.key);
    const item = await s.subscriptionItems.update("si_Bob", { quantity: 3, proration_behavior: "none" });
    expect(item).toMatchObject({ id: "si_Bob", object: "subscription_item", quantity: 3, subscription: "sub_Bob" });
    const sub = await s.subscriptions.retrieve("sub_Bob");
    expect(sub.items.data[0].quantity).toBe(3);
    expect((await rejects(s.subscriptionItems.update("si_nope", { quantity: 1 }))).statusCode).toBe(404);
  });
});
