// Refunds through the billing twin: partial then full then over-refund, refunds by payment intent, reason
// validation, concurrency on one charge, and the diff each action leaves.
import { describe, expect, it } from "vitest";
import { createWorld, diff, stripe } from "./stripe-helpers";
import { moneySeed } from "./money-seed";

describe("refunds", () => {
  it("refunds partially, then the rest by default, then refuses a third refund", async () => {
    const w = await createWorld(moneySeed());
    const first = await stripe(w, "POST", "/v1/refunds", { params: { charge: "ch_CarolDup2", amount: 500, reason: "duplicate", metadata: { ticket: "T-1" } } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ object: "refund", amount: 500, charge: "ch_CarolDup2", currency: "usd", status: "succeeded", reason: "duplicate", metadata: { ticket: "T-1" } });
    expect(first.body.id).toMatch(/^re_[A-Za-z0-9]{24}$/);
    let ch = await stripe(w, "GET", "/v1/charges/ch_CarolDup2");
    expect(ch.body).toMatchObject({ amount_refunded: 500, refunded: false });

    let d = await diff(w);
    expect(d.entries.map((e) => [e.type, e.id, e.op, e.customer])).toEqual([
      ["refunds", first.body.id, "created", "cus_Carol"],
      ["charges", "ch_CarolDup2", "updated", "cus_Carol"],
    ]);
    expect(d.entries[1].fields).toEqual({ amount_refunded: { before: 0, after: 500 } });

    const rest = await stripe(w, "POST", "/v1/refunds", { params: { charge: "ch_CarolDup2" } });
    expect(rest.status).toBe(200);
    expect(rest.body.amount).toBe(1500);
    ch = await stripe(w, "GET", "/v1/charges/ch_CarolDup2");
    expect(ch.body).toMatchObject({ amount_refunded: 2000, refunded: true });
    d = await diff(w);
    expect(d.entries.find((e) => e.id === "ch_CarolDup2")?.fields).toEqual({
      amount_refunded: { before: 0, after: 2000 },
      refunded: { before: false, after: true },
    });

    const again = await stripe(w, "POST", "/v1/refunds", { params: { charge: "ch_CarolDup2", amount: 100 } });
    expect(again.status).toBe(400);
    expect(again.body.error).toMatchObject({ type: "invalid_request_error", code: "charge_already_refunded", message: "Charge ch_CarolDup2 has already been refunded." });
    expect((await diff(w)).entries).toHaveLength(3);
  });

  it("refuses to refund more than what remains, naming the amounts", async () => {
    const w = await createWorld(moneySeed());
    const r = await stripe(w, "POST", "/v1/refunds", { params: { charge: "ch_CarolPartial", amount: 8000 } });
    expect(r.status).toBe(400);
    expect(r.body.error).toEqual({ message: "Refund amount ($80.00) is greater than unrefunded amount on charge ($75.00)", param: "amount", type: "invalid_request_error" });
    expect((await diff(w)).entries).toEqual([]);
    const ok = await stripe(w, "POST", "/v1/refunds", { params: { charge: "ch_CarolPartial", amount: 7500 } });
    expect(ok.status).toBe(200);
    const ch = await stripe(w, "GET", "/v1/charges/ch_CarolPartial", { params: { "expand[]": "refunds" } });
    expect(ch.body).toMatchObject({ amount_refunded: 10000, refunded: true });
    expect(ch.body.refunds.data.map((x: { id: string }) => x.id)).toEqual([ok.body.id, "re_CarolPartial"]);
  });

  it("refuses a charge the seed already refunded in full, and a failed charge", async () => {
    const w = await createWorld(moneySeed());
    const full = await stripe(w, "POST", "/v1/refunds", { params: { charge: "ch_CarolFull" } });
    expect(full.status).toBe(400);
    expect(full.body.error).toMatchObject({ code: "charge_already_refunded", message: "Charge ch_CarolFull has already been refunded." });
    const failed = await stripe(w, "POST", "/v1/refunds", { params: { charge: "ch_CarolFailed" } });
    expect(failed.status).toBe(400);
    expect(failed.body.error.param).toBe("charge");
  });

  it("refunds a payment intent through its latest charge, leaving the intent succeeded", async () => {
    const w = await createWorld(moneySeed());
    const r = await stripe(w, "POST", "/v1/refunds", { params: { payment_intent: "pi_AlicePaid", amount: 1000 } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ charge: "ch_AlicePaid", payment_intent: "pi_AlicePaid", amount: 1000, customer: "cus_Alice" });
    expect((await stripe(w, "GET", "/v1/payment_intents/pi_AlicePaid")).body).toMatchObject({ status: "succeeded", amount_received: 3000, latest_charge: "ch_AlicePaid" });
    expect((await stripe(w, "GET", "/v1/refunds", { params: { payment_intent: "pi_AlicePaid" } })).body.data.map((x: { id: string }) => x.id)).toEqual([r.body.id]);
    expect((await stripe(w, "GET", "/v1/refunds", { params: { charge: "ch_AlicePaid", payment_intent: "pi_AlicePaid" } })).body.data.map((x: { id: string }) => x.id)).toEqual([r.body.id]);
    expect((await stripe(w, "GET", "/v1/refunds", { params: { charge: "ch_AlicePaid", payment_intent: "pi_BobOpen" } })).body.data).toEqual([]);

    const none = await stripe(w, "POST", "/v1/refunds", { params: { payment_intent: "pi_BobOpen" } });
    expect(none.status).toBe(400);
    expect(none.body.error.message).toBe("This PaymentIntent (pi_BobOpen) does not have a successful charge to refund.");
    const mismatch = await stripe(w, "POST", "/v1/refunds", { params: { payment_intent: "pi_AlicePaid", charge: "ch_CarolDup1" } });
    expect(mismatch.status).toBe(400);
  });

  it("validates parameters: charge or payment_intent, amount, reason", async () => {
    const w = await createWorld(moneySeed());
    const missing = await stripe(w, "POST", "/v1/refunds", { params: { amount: 100 } });
    expect(missing.body.error).toMatchObject({ code: "parameter_missing", param: "charge", message: "Missing required param: charge." });
    const reason = await stripe(w, "POST", "/v1/refunds", { params: { charge: "ch_CarolDup1", reason: "changed_mind" } });
    expect(reason.status).toBe(400);
    expect(reason.body.error).toMatchObject({ param: "reason", message: "Invalid reason: must be one of duplicate, fraudulent, or requested_by_customer" });
    const zero = await stripe(w, "POST", "/v1/refunds", { params: { charge: "ch_CarolDup1", amount: 0 } });
    expect(zero.body.error.param).toBe("amount");
    const nosuch = await stripe(w, "POST", "/v1/refunds", { params: { charge: "ch_Nope" } });
    expect(nosuch.body.error).toMatchObject({ code: "resource_missing", param: "charge", message: "No such charge: 'ch_Nope'" });
    expect((await stripe(w, "GET", "/v1/refunds/re_Nope")).status).toBe(404);
    expect((await diff(w)).entries).toEqual([]);
  });

  it("never over-refunds a charge under 50 concurrent refund requests", async () => {
    const w = await createWorld(moneySeed());
    const replies = await Promise.all(Array.from({ length: 50 }, () => stripe(w, "POST", "/v1/refunds", { params: { charge: "ch_CarolPartial", amount: 400 } })));
    const ok = replies.filter((r) => r.status === 200);
    // 7,500 remained: 18 refunds of 400 fit (7,200), the rest are refused.
    expect(ok).toHaveLength(18);
    expect(replies.filter((r) => r.status === 400).every((r) => /greater than unrefunded amount/.test(r.body.error.message))).toBe(true);
    const ch = await stripe(w, "GET", "/v1/charges/ch_CarolPartial");
    expect(ch.body).toMatchObject({ amount_refunded: 2500 + 18 * 400, refunded: false });
    const listed = await stripe(w, "GET", "/v1/refunds", { params: { charge: "ch_CarolPartial", limit: 100 } });
    expect(listed.body.data.reduce((s: number, r: { amount: number }) => s + r.amount, 0)).toBe(ch.body.amount_refunded);
  });

  it("replays a retried refund by its Idempotency-Key instead of refunding twice", async () => {
    const w = await createWorld(moneySeed());
    const headers = { "idempotency-key": "refund-retry-1" };
    const a = await stripe(w, "POST", "/v1/refunds", { params: { charge: "ch_CarolDup1", amount: 700 }, headers });
    const b = await stripe(w, "POST", "/v1/refunds", { params: { amount: 700, charge: "ch_CarolDup1" }, headers });
    expect(b.headers.get("idempotent-replayed")).toBe("true");
    expect(b.body.id).toBe(a.body.id);
    expect((await stripe(w, "GET", "/v1/charges/ch_CarolDup1")).body.amount_refunded).toBe(700);
    // A refused refund is replayed as the same refusal, since the request did execute.
    const over = { "idempotency-key": "refund-over" };
    const c = await stripe(w, "POST", "/v1/refunds", { params: { charge: "ch_CarolDup1", amount: 5000 }, headers: over });
    const d = await stripe(w, "POST", "/v1/refunds", { params: { charge: "ch_CarolDup1", amount: 5000 }, headers: over });
    expect(c.status).toBe(400);
    expect(d.headers.get("idempotent-replayed")).toBe("true");
    expect(d.body).toEqual(c.body);
  });

  it("keeps the legacy charge-scoped refund endpoints working", async () => {
    const w = await createWorld(moneySeed());
    const viaCharge = await stripe(w, "POST", "/v1/charges/ch_CarolDup1/refund", { params: { amount: 300 } });
    expect(viaCharge.body).toMatchObject({ object: "charge", id: "ch_CarolDup1", amount_refunded: 300 });
    const sub = await stripe(w, "POST", "/v1/charges/ch_CarolDup1/refunds", { params: { amount: 200 } });
    expect(sub.body).toMatchObject({ object: "refund", amount: 200 });
    const list = await stripe(w, "GET", "/v1/charges/ch_CarolDup1/refunds");
    expect(list.body).toMatchObject({ object: "list", url: "/v1/charges/ch_CarolDup1/refunds" });
    expect(list.body.data).toHaveLength(2);
  });
});

describe("charges and payment intents", () => {
  it("shows refunds only when expanded, and inline for versions before 2022-11-15", async () => {
    const w = await createWorld(moneySeed());
    const cur = await stripe(w, "GET", "/v1/charges/ch_CarolPartial");
    expect(cur.body.refunds).toBeUndefined();
    expect(cur.body).toMatchObject({ amount: 10000, amount_refunded: 2500, refunded: false, paid: true, captured: true, status: "succeeded", livemode: false });
    const old = await stripe(w, "GET", "/v1/charges/ch_CarolPartial", { headers: { "stripe-version": "2020-08-27" } });
    expect(old.body.refunds).toMatchObject({ object: "list", data: [{ id: "re_CarolPartial", amount: 2500 }], url: "/v1/charges/ch_CarolPartial/refunds" });
    expect(old.body.invoice).toBeNull();
    const paidInvoice = await stripe(w, "GET", "/v1/charges/ch_AlicePaid", { headers: { "stripe-version": "2024-06-20" } });
    expect(paidInvoice.body.invoice).toBe("in_AlicePaid");
    expect((await stripe(w, "GET", "/v1/charges/ch_AlicePaid")).body.invoice).toBeUndefined();
    const pi = await stripe(w, "GET", "/v1/payment_intents/pi_AlicePaid", { headers: { "stripe-version": "2022-08-01" } });
    expect(pi.body).toMatchObject({ invoice: "in_AlicePaid", charges: { object: "list", data: [{ id: "ch_AlicePaid" }] } });
  });

  it("lists charges by customer and payment intent, and searches them", async () => {
    const w = await createWorld(moneySeed());
    const carol = await stripe(w, "GET", "/v1/charges", { params: { customer: "cus_Carol" } });
    expect(carol.body.data.map((c: { id: string }) => c.id)).toEqual(["ch_CarolFailed", "ch_CarolDup2", "ch_CarolDup1", "ch_CarolFull", "ch_CarolPartial"]);
    const byPi = await stripe(w, "GET", "/v1/charges", { params: { payment_intent: "pi_AlicePaid" } });
    expect(byPi.body.data.map((c: { id: string }) => c.id)).toEqual(["ch_AlicePaid"]);
    const found = await stripe(w, "GET", "/v1/charges/search", { params: { query: 'amount>3000 AND status:"succeeded"' } });
    expect(found.body.object).toBe("search_result");
    expect(found.body.data.map((c: { id: string }) => c.id)).toEqual(["ch_CarolFull", "ch_CarolPartial"]);
    const refunded = await stripe(w, "GET", "/v1/charges/search", { params: { query: "refunded:'true'" } });
    expect(refunded.body.data.map((c: { id: string }) => c.id)).toEqual(["ch_CarolFull"]);
    expect((await stripe(w, "GET", "/v1/payment_intents", { params: { customer: "cus_Bob" } })).body.data.map((p: { id: string }) => p.id)).toEqual(["pi_BobOpen"]);
    expect((await stripe(w, "GET", "/v1/payment_intents/pi_Nope")).body.error).toMatchObject({ code: "resource_missing", param: "intent" });
  });
});
