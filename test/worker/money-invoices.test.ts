// The invoice state machine through the billing twin: every valid transition and the refusals for invalid
// ones, the objects a payment creates, customer balance applied and returned, legacy shapes, lists and lines.
import { describe, expect, it } from "vitest";
import { createWorld, diff, stripe, type TestWorld } from "./stripe-helpers";
import { moneySeed } from "./money-seed";
import { NOW } from "./stripe-helpers";

const post = (w: TestWorld, path: string, params?: Record<string, unknown>) => stripe(w, "POST", path, { params });

describe("invoice transitions", () => {
  it("finalizes a draft once: number, finalized_at, then invoice_not_editable", async () => {
    const w = await createWorld(moneySeed());
    const draft = await stripe(w, "GET", "/v1/invoices/in_AliceDraft");
    expect(draft.body).toMatchObject({ status: "draft", number: null, total: 6200, amount_due: 6200, ending_balance: null, hosted_invoice_url: null });
    const fin = await post(w, "/v1/invoices/in_AliceDraft/finalize");
    expect(fin.status).toBe(200);
    // Alice has two numbered invoices in the seed (ALICEXXX-0001, -0002).
    expect(fin.body).toMatchObject({ status: "open", number: "ALICEXXX-0003", amount_due: 6200, amount_remaining: 6200, starting_balance: 0, ending_balance: 0 });
    expect(fin.body.status_transitions.finalized_at).toBe(NOW);
    const again = await post(w, "/v1/invoices/in_AliceDraft/finalize");
    expect(again.status).toBe(400);
    expect(again.body.error).toMatchObject({ code: "invoice_not_editable", message: "This invoice is already finalized, you can't re-finalize a non-draft invoice." });
    const d = await diff(w);
    expect(d.entries.map((e) => [e.type, e.id, e.op])).toEqual([["invoices", "in_AliceDraft", "updated"]]);
    expect(d.entries[0].fields).toMatchObject({ status: { before: "draft", after: "open" }, number: { before: null, after: "ALICEXXX-0003" } });
  });

  it("pays an open invoice by charging the card on file: payment intent, charge, invoice payment", async () => {
    const w = await createWorld(moneySeed());
    const paid = await post(w, "/v1/invoices/in_AliceOpen/pay");
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ status: "paid", amount_paid: 3000, amount_remaining: 0, attempted: true });
    expect(paid.body.status_transitions.paid_at).toBe(NOW);
    expect(paid.body.payments).toBeUndefined();
    const withPayments = await stripe(w, "GET", "/v1/invoices/in_AliceOpen", { params: { "expand[]": "payments" } });
    const payment = withPayments.body.payments.data[0];
    expect(payment).toMatchObject({ object: "invoice_payment", status: "paid", amount_paid: 3000, is_default: true, payment: { type: "payment_intent" } });
    const pi = await stripe(w, "GET", `/v1/payment_intents/${payment.payment.payment_intent}`);
    expect(pi.body).toMatchObject({ status: "succeeded", amount: 3000, amount_received: 3000, customer: "cus_Alice" });
    const ch = await stripe(w, "GET", `/v1/charges/${pi.body.latest_charge}`);
    expect(ch.body).toMatchObject({ amount: 3000, status: "succeeded", customer: "cus_Alice", payment_intent: pi.body.id, description: "Payment for Invoice" });
    const d = await diff(w);
    expect(d.entries.map((e) => [e.type, e.op, e.customer])).toEqual([
      ["payment_intents", "created", "cus_Alice"],
      ["charges", "created", "cus_Alice"],
      ["invoices", "updated", "cus_Alice"],
    ]);
    const again = await post(w, "/v1/invoices/in_AliceOpen/pay");
    expect(again.status).toBe(400);
    expect(again.body.error.message).toBe("Invoice is already paid");
  });

  it("pays out of band without moving money, and shows paid_out_of_band to old versions", async () => {
    const w = await createWorld(moneySeed());
    const r = await post(w, "/v1/invoices/in_AliceOpen/pay", { paid_out_of_band: true });
    expect(r.body).toMatchObject({ status: "paid", amount_paid: 3000, amount_paid_off_stripe: 3000 });
    expect((await diff(w)).entries.map((e) => e.type)).toEqual(["invoices"]);
    const old = await stripe(w, "GET", "/v1/invoices/in_AliceOpen", { headers: { "stripe-version": "2024-06-20" } });
    expect(old.body).toMatchObject({ paid: true, paid_out_of_band: true, charge: null, subscription: "sub_Alice" });
  });

  it("pays the open invoice of a past_due subscription through its payment intent and reactivates it", async () => {
    const w = await createWorld(moneySeed());
    const before = await stripe(w, "GET", "/v1/invoices/in_BobOpen");
    expect(before.body).toMatchObject({ total: 18000, starting_balance: -500, ending_balance: 0, amount_due: 17500 });
    const r = await post(w, "/v1/invoices/in_BobOpen/pay");
    expect(r.body).toMatchObject({ status: "paid", amount_paid: 17500 });
    const pi = await stripe(w, "GET", "/v1/payment_intents/pi_BobOpen");
    expect(pi.body).toMatchObject({ status: "succeeded", amount_received: 17500 });
    expect(pi.body.latest_charge).toMatch(/^ch_/);
    expect((await stripe(w, "GET", "/v1/subscriptions/sub_Bob")).body.status).toBe("active");
  });

  it("voids only open or uncollectible invoices, with the API's refusals otherwise", async () => {
    const w = await createWorld(moneySeed());
    const v = await post(w, "/v1/invoices/in_AliceOpen/void");
    expect(v.body).toMatchObject({ status: "void", amount_paid: 0 });
    expect(v.body.status_transitions.voided_at).toBe(NOW);
    const twice = await post(w, "/v1/invoices/in_AliceOpen/void");
    expect(twice.body.error).toMatchObject({ message: "You can only pass in open invoices. This invoice isn't open.", code: "status_transition_invalid" });
    const paid = await post(w, "/v1/invoices/in_AlicePaid/void");
    expect(paid.body.error.message).toBe("Invoices with `paid` payments cannot be voided.");
    const draft = await post(w, "/v1/invoices/in_AliceDraft/void");
    expect(draft.status).toBe(400);
    const bad = await post(w, "/v1/invoices/in_CarolBad/void");
    expect(bad.body.status).toBe("void");
    expect((await post(w, "/v1/invoices/in_CarolVoid/pay")).body.error.message).toBe("You can only pass in open invoices. This invoice isn't open.");
    expect((await post(w, "/v1/invoices/in_Nope/void")).body.error).toMatchObject({ code: "resource_missing", param: "id" });
  });

  it("returns the customer credit an invoice consumed when it is voided, and cancels its payment intent", async () => {
    const w = await createWorld(moneySeed());
    const v = await post(w, "/v1/invoices/in_BobOpen/void");
    expect(v.body.status).toBe("void");
    expect((await stripe(w, "GET", "/v1/customers/cus_Bob")).body.balance).toBe(-1000);
    const txns = await stripe(w, "GET", "/v1/customers/cus_Bob/balance_transactions");
    expect(txns.body.data[0]).toMatchObject({ type: "unapplied_from_invoice", amount: -500, invoice: "in_BobOpen", ending_balance: -1000 });
    expect((await stripe(w, "GET", "/v1/payment_intents/pi_BobOpen")).body).toMatchObject({ status: "canceled", cancellation_reason: "void_invoice" });
  });

  it("applies the customer's credit balance when a draft is finalized", async () => {
    const seed = moneySeed();
    seed.data.invoices.push({ id: "in_BobDraft", customer: "cus_Bob", status: "draft", created: NOW - 3600, lines: [{ id: "il_BobDraft1", amount: 1200, description: "Add-on", period: { start: NOW, end: NOW } }] } as never);
    const w = await createWorld(seed);
    const fin = await post(w, "/v1/invoices/in_BobDraft/finalize");
    expect(fin.body).toMatchObject({ status: "open", total: 1200, starting_balance: -500, ending_balance: 0, amount_due: 700 });
    expect((await stripe(w, "GET", "/v1/customers/cus_Bob")).body.balance).toBe(0);
    const paidNow = await post(w, "/v1/invoices/in_BobDraft/pay");
    expect(paidNow.body).toMatchObject({ status: "paid", amount_paid: 700 });
  });

  it("marks uncollectible only from open, then pays it", async () => {
    const w = await createWorld(moneySeed());
    const u = await post(w, "/v1/invoices/in_AliceOpen/mark_uncollectible");
    expect(u.body).toMatchObject({ status: "uncollectible" });
    expect(u.body.status_transitions.marked_uncollectible_at).toBe(NOW);
    expect((await post(w, "/v1/invoices/in_AliceOpen/mark_uncollectible")).body.error.message).toBe("This invoice has already been marked uncollectible.");
    expect((await post(w, "/v1/invoices/in_AliceDraft/mark_uncollectible")).body.error.message).toBe("You can only pass in open invoices. This invoice isn't open.");
    const p = await post(w, "/v1/invoices/in_AliceOpen/pay");
    expect(p.body).toMatchObject({ status: "paid", amount_paid: 3000 });
  });

  it("pays a draft by finalizing it first", async () => {
    const w = await createWorld(moneySeed());
    const p = await post(w, "/v1/invoices/in_AliceDraft/pay");
    expect(p.body).toMatchObject({ status: "paid", amount_paid: 6200, number: "ALICEXXX-0003" });
  });

  it("refuses edits to finalized invoices but takes metadata, and deletes only drafts", async () => {
    const w = await createWorld(moneySeed());
    const meta = await post(w, "/v1/invoices/in_AlicePaid", { metadata: { note: "checked" } });
    expect(meta.body.metadata).toEqual({ note: "checked" });
    const desc = await post(w, "/v1/invoices/in_AlicePaid", { description: "x" });
    expect(desc.body.error).toMatchObject({ code: "invoice_not_editable", param: "description" });
    expect((await stripe(w, "DELETE", "/v1/invoices/in_AlicePaid")).body.error.message).toBe("You can only delete draft invoices.");
    expect((await stripe(w, "DELETE", "/v1/invoices/in_AliceDraft")).body).toEqual({ id: "in_AliceDraft", object: "invoice", deleted: true });
  });
});

describe("invoice reads", () => {
  it("serves the current shape, and the pre-2025-03-31 shape to older versions", async () => {
    const w = await createWorld(moneySeed());
    const cur = await stripe(w, "GET", "/v1/invoices/in_AlicePaid");
    expect(cur.body).toMatchObject({
      object: "invoice",
      status: "paid",
      total: 3000,
      subtotal: 3000,
      amount_due: 3000,
      amount_paid: 3000,
      amount_remaining: 0,
      livemode: false,
      parent: { type: "subscription_details", subscription_details: { subscription: "sub_Alice" } },
      lines: { object: "list", total_count: 1, has_more: false, url: "/v1/invoices/in_AlicePaid/lines" },
    });
    for (const legacy of ["charge", "payment_intent", "paid", "subscription"]) expect(cur.body[legacy]).toBeUndefined();
    expect(cur.body.lines.data[0]).toMatchObject({ id: "il_AlicePaid1", object: "line_item", parent: { type: "subscription_item_details" }, pricing: { price_details: { price: "price_StarterMonthly" } } });
    const old = await stripe(w, "GET", "/v1/invoices/in_AlicePaid", { headers: { "stripe-version": "2024-06-20" } });
    expect(old.body).toMatchObject({ charge: "ch_AlicePaid", payment_intent: "pi_AlicePaid", paid: true, paid_out_of_band: false, subscription: "sub_Alice" });
    expect(old.body.parent).toBeUndefined();
    expect(old.body.lines.data[0]).toMatchObject({ type: "subscription", subscription_item: "si_Alice", proration: false, price: { id: "price_StarterMonthly", object: "price" }, plan: { id: "price_StarterMonthly", object: "plan", amount: 3000 } });
    const expanded = await stripe(w, "GET", "/v1/invoices/in_AlicePaid", { headers: { "stripe-version": "2024-06-20" }, params: { "expand[]": "charge" } });
    expect(expanded.body.charge).toMatchObject({ id: "ch_AlicePaid", object: "charge", invoice: "in_AlicePaid" });
    const carol = await stripe(w, "GET", "/v1/invoices/in_CarolPaid", { headers: { "stripe-version": "2023-10-16" } });
    expect(carol.body).toMatchObject({ charge: "ch_CarolDup1", payment_intent: null, post_payment_credit_notes_amount: 500 });
  });

  it("lists by customer, status and subscription; pages lines; searches", async () => {
    const w = await createWorld(moneySeed());
    const ids = (r: { body: Record<string, any> }) => (r.body.data as Array<{ id: string }>).map((x) => x.id);
    expect(ids(await stripe(w, "GET", "/v1/invoices", { params: { customer: "cus_Alice" } }))).toEqual(["in_AliceDraft", "in_AliceOpen", "in_AlicePaid"]);
    expect(ids(await stripe(w, "GET", "/v1/invoices", { params: { status: "open" } }))).toEqual(["in_BobOpen", "in_AliceOpen"]);
    expect(ids(await stripe(w, "GET", "/v1/invoices", { params: { subscription: "sub_Alice" } }))).toEqual(["in_AliceOpen", "in_AlicePaid"]);
    expect((await stripe(w, "GET", "/v1/invoices", { params: { status: "late" } })).body.error.param).toBe("status");
    const lines = await stripe(w, "GET", "/v1/invoices/in_AliceDraft/lines", { params: { limit: 1 } });
    expect(lines.body).toMatchObject({ object: "list", has_more: true, url: "/v1/invoices/in_AliceDraft/lines" });
    expect(ids(lines)).toEqual(["il_AliceSetup"]);
    expect(ids(await stripe(w, "GET", "/v1/invoices/in_AliceDraft/lines", { params: { starting_after: "il_AliceSetup" } }))).toEqual(["il_AliceExtra"]);
    const found = await stripe(w, "GET", "/v1/invoices/search", { params: { query: 'status:"open" AND total>10000' } });
    expect(ids(found)).toEqual(["in_BobOpen"]);
    expect(ids(await stripe(w, "GET", "/v1/invoices/search", { params: { query: 'subscription:"sub_Alice"' } }))).toEqual(["in_AliceOpen", "in_AlicePaid"]);
  });
});

describe("invoice payments", () => {
  it("lists and retrieves the payments that live inside invoices", async () => {
    const w = await createWorld(moneySeed());
    const paid = await post(w, "/v1/invoices/in_AliceOpen/pay");
    expect(paid.status).toBe(200);
    const list = await stripe(w, "GET", "/v1/invoice_payments", { params: { invoice: "in_AliceOpen" } });
    expect(list.body).toMatchObject({ object: "list", url: "/v1/invoice_payments", data: [{ object: "invoice_payment", invoice: "in_AliceOpen", status: "paid", amount_paid: 3000 }] });
    const byIntent = await stripe(w, "GET", "/v1/invoice_payments", { params: { payment: { type: "payment_intent", payment_intent: "pi_AlicePaid" } } });
    expect(byIntent.body.data.map((p: { invoice: string }) => p.invoice)).toEqual(["in_AlicePaid"]);
    const open = await stripe(w, "GET", "/v1/invoice_payments", { params: { status: "open" } });
    expect(open.body.data.map((p: { invoice: string }) => p.invoice)).toEqual(["in_BobOpen"]);
    const one = await stripe(w, "GET", `/v1/invoice_payments/${list.body.data[0].id}`);
    expect(one.body.id).toBe(list.body.data[0].id);
    expect((await stripe(w, "GET", "/v1/invoice_payments/inpay_Nope")).status).toBe(404);
  });
});
