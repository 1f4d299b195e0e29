// Disputes, the balance and its ledger through the official client: listing and filtering disputes, staging and
// submitting evidence, conceding, the state rules around both, and the ledger agreeing with the charges,
// refunds and disputes of the world (a refund the agent makes is a balance transaction at once).
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { moneySeed } from "./money-seed";
import { client, createWorld, diff, NOW, rejects, stripe as raw } from "./stripe-helpers";

const DAY = 86400;

function disputeSeed() {
  const base = moneySeed();
  return {
    ...base,
    data: {
      ...base.data,
      disputes: [
        { id: "du_AliceFraud", charge: "ch_AlicePaid", reason: "fraudulent", status: "needs_response", created: NOW - 2 * DAY, due_by: NOW + 5 * DAY },
        { id: "du_CarolInquiry", charge: "ch_CarolDup1", reason: "duplicate", status: "warning_needs_response", created: NOW - DAY },
        { id: "du_CarolWon", charge: "ch_CarolDup2", reason: "general", status: "won", created: NOW - 18 * DAY, due_by: NOW - 10 * DAY, evidence: { uncategorized_text: "Delivered." } },
        { id: "du_CarolLate", charge: "ch_CarolPartial", amount: 7500, status: "needs_response", created: NOW - 20 * DAY, due_by: NOW - DAY },
      ],
    },
  };
}

describe("disputes", () => {
  it("lists newest first with charge, payment_intent and created filters, and retrieves one", async () => {
    const w = await createWorld(disputeSeed());
    const s = client(w.key);
    const all = await s.disputes.list();
    expect(all.data.map((d) => d.id)).toEqual(["du_CarolInquiry", "du_AliceFraud", "du_CarolWon", "du_CarolLate"]);
    expect((await s.disputes.list({ charge: "ch_AlicePaid" })).data.map((d) => d.id)).toEqual(["du_AliceFraud"]);
    expect((await s.disputes.list({ payment_intent: "pi_AlicePaid" })).data.map((d) => d.id)).toEqual(["du_AliceFraud"]);
    expect((await s.disputes.list({ created: { gte: NOW - 3 * DAY } })).data.map((d) => d.id)).toEqual(["du_CarolInquiry", "du_AliceFraud"]);
    const page = await s.disputes.list({ limit: 2, starting_after: "du_AliceFraud" });
    expect(page.data.map((d) => d.id)).toEqual(["du_CarolWon", "du_CarolLate"]);
    expect(page.has_more).toBe(false);

    const fraud = await s.disputes.retrieve("du_AliceFraud", { expand: ["charge"] });
    expect(fraud).toMatchObject({
      object: "dispute", amount: 3000, currency: "usd", reason: "fraudulent", status: "needs_response", is_charge_refundable: false, payment_intent: "pi_AlicePaid",
      evidence_details: { due_by: NOW + 5 * DAY, has_evidence: false, past_due: false, submission_count: 0, submission_method: "not_submitted" },
    });
    expect((fraud.charge as Stripe.Charge).disputed).toBe(true);
    // A chargeback withdrew the amount and the dispute fee when it opened.
    expect(fraud.balance_transactions).toHaveLength(1);
    expect(fraud.balance_transactions[0]).toMatchObject({ object: "balance_transaction", amount: -3000, fee: 1500, net: -4500, type: "adjustment", reporting_category: "dispute", source: "du_AliceFraud" });
    const inquiry = await s.disputes.retrieve("du_CarolInquiry");
    expect(inquiry).toMatchObject({ is_charge_refundable: true, balance_transactions: [], evidence_details: { due_by: NOW + 6 * DAY } });
    const won = await s.disputes.retrieve("du_CarolWon");
    expect(won.balance_transactions.map((t) => [t.reporting_category, t.amount])).toEqual([["dispute_reversal", 2000], ["dispute", -2000]]);
    expect(won.evidence_details).toMatchObject({ due_by: null, has_evidence: true, submission_count: 1 });
    expect((await s.disputes.retrieve("du_CarolLate")).evidence_details.past_due).toBe(true);

    const missing = await rejects(s.disputes.retrieve("du_nope"));
    expect(missing).toMatchObject({ statusCode: 404, code: "resource_missing", message: "No such dispute: 'du_nope'" });
    expect((await rejects(s.disputes.list({ customer: "cus_Alice" } as Stripe.DisputeListParams))).code).toBe("parameter_unknown");
  });

  it("stages evidence, submits it (locking it), and keeps metadata writable; the diff shows each write", async () => {
    const w = await createWorld(disputeSeed());
    const s = client(w.key);
    const staged = await s.disputes.update("du_AliceFraud", { evidence: { customer_name: "Alice Example", uncategorized_text: "Logged in from the usual device." }, metadata: { ticket: "4101" } });
    expect(staged).toMatchObject({ status: "needs_response", evidence: { customer_name: "Alice Example", product_description: null }, evidence_details: { has_evidence: true, submission_count: 0 }, metadata: { ticket: "4101" } });
    const submitted = await s.disputes.update("du_AliceFraud", { evidence: { product_description: "Starter plan" }, submit: true });
    expect(submitted).toMatchObject({ status: "under_review", evidence: { customer_name: "Alice Example", product_description: "Starter plan" }, evidence_details: { submission_count: 1, submission_method: "manual", due_by: null } });
    const locked = await rejects(s.disputes.update("du_AliceFraud", { evidence: { customer_name: "Someone else" } }));
    expect(locked).toMatchObject({ statusCode: 400, type: "StripeInvalidRequestError" });
    expect(locked.message).toContain("under review");
    expect((await rejects(s.disputes.close("du_AliceFraud"))).message).toContain("under review");
    expect((await s.disputes.update("du_AliceFraud", { metadata: { note: "sent" } })).metadata).toEqual({ ticket: "4101", note: "sent" });
    // An inquiry moves to its own review state.
    expect((await s.disputes.update("du_CarolInquiry", { submit: true })).status).toBe("warning_under_review");
    // Past its due date a dispute takes no response at all.
    expect((await rejects(s.disputes.update("du_CarolLate", { submit: true }))).message).toContain("has passed");
    expect((await rejects(s.disputes.update("du_AliceFraud", { evidence: { not_a_field: "x" } } as unknown as Stripe.DisputeUpdateParams))).code).toBe("parameter_unknown");

    const d = await diff(w);
    const fraud = d.entries.find((e) => e.id === "du_AliceFraud")!;
    expect(fraud).toMatchObject({ type: "disputes", op: "updated", customer: "cus_Alice" });
    expect(fraud.fields!.status).toEqual({ before: "needs_response", after: "under_review" });
    expect(Object.keys(fraud.fields!)).toEqual(expect.arrayContaining(["evidence.customer_name", "metadata.ticket"]));
    expect(d.entries.find((e) => e.id === "du_CarolInquiry")!.fields!.status).toEqual({ before: "warning_needs_response", after: "warning_under_review" });
    expect(d.entries.some((e) => e.id === "du_CarolLate")).toBe(false);
  });

  it("closing concedes: a chargeback is lost, an inquiry closed; closing twice is refused, idempotent retries replay", async () => {
    const w = await createWorld(disputeSeed());
    const s = client(w.key);
    const lost = await s.disputes.close("du_AliceFraud", {}, { idempotencyKey: "close-1" });
    expect(lost).toMatchObject({ status: "lost", is_charge_refundable: false, evidence_details: { due_by: null } });
    expect((await s.disputes.close("du_AliceFraud", {}, { idempotencyKey: "close-1" })).status).toBe("lost");
    const again = await rejects(s.disputes.close("du_AliceFraud"));
    expect(again.message).toBe("You cannot close dispute du_AliceFraud because it has a status of lost.");
    expect((await s.disputes.close("du_CarolInquiry")).status).toBe("warning_closed");
    expect((await rejects(s.disputes.close("du_CarolWon"))).message).toContain("status of won");
    const d = await diff(w);
    expect(d.entries.filter((e) => e.type === "disputes").map((e) => [e.id, e.fields!.status])).toEqual([
      ["du_AliceFraud", { before: "needs_response", after: "lost" }],
      ["du_CarolInquiry", { before: "warning_needs_response", after: "warning_closed" }],
    ]);
  });

  it("refuses a refund on a charged-back charge but allows one during an inquiry", async () => {
    const w = await createWorld(disputeSeed());
    const s = client(w.key);
    expect((await rejects(s.refunds.create({ charge: "ch_AlicePaid" }))).code).toBe("charge_disputed");
    expect((await s.refunds.create({ charge: "ch_CarolDup1" })).status).toBe("succeeded");
  });
});

describe("balance and balance transactions", () => {
  it("derives the ledger from charges, refunds and disputes, with the balance as its sum", async () => {
    const w = await createWorld(disputeSeed());
    const s = client(w.key);
    const all = await s.balanceTransactions.list({ limit: 100 });
    const charges = all.data.filter((t) => t.type === "charge");
    // Every succeeded charge (five; one failed) and both seeded refunds, plus three dispute withdrawals and one reinstatement.
    expect(charges).toHaveLength(5);
    expect(all.data.filter((t) => t.type === "refund").map((t) => t.amount).sort((a, b) => a - b)).toEqual([-4000, -2500]);
    expect(all.data.filter((t) => t.reporting_category === "dispute")).toHaveLength(3);
    const created = all.data.map((t) => t.created);
    expect(created).toEqual([...created].sort((a, b) => b - a));
    const partial = charges.find((t) => t.source === "ch_CarolPartial")!;
    expect(partial).toMatchObject({ amount: 10000, fee: 320, net: 9680, status: "available", currency: "usd", fee_details: [{ amount: 320, type: "stripe_fee" }] });

    const ch = await s.charges.retrieve("ch_CarolPartial", { expand: ["balance_transaction"] });
    expect((ch.balance_transaction as Stripe.BalanceTransaction).id).toBe(partial.id);
    expect(await s.balanceTransactions.retrieve(partial.id)).toEqual(partial);
    const bySource = await s.balanceTransactions.retrieve(partial.id, { expand: ["source"] });
    expect((bySource.source as Stripe.Charge).object).toBe("charge");

    const balance = await s.balance.retrieve();
    const net = all.data.reduce((sum, t) => sum + t.net, 0);
    expect(balance.object).toBe("balance");
    expect(balance.available[0].amount + balance.pending[0].amount).toBe(net);

    // A refund the agent makes is a ledger entry at once, and comes off the balance.
    const refund = await s.refunds.create({ charge: "ch_CarolDup1", amount: 1000 });
    expect(typeof refund.balance_transaction).toBe("string");
    const txn = await s.balanceTransactions.retrieve(refund.balance_transaction as string);
    expect(txn).toMatchObject({ amount: -1000, net: -1000, type: "refund", source: refund.id });
    const after = await s.balance.retrieve();
    expect(after.available[0].amount).toBe(balance.available[0].amount - 1000);
    // The ledger is read, never written: the diff holds the refund and the charge it changed, nothing more.
    expect((await diff(w)).entries.map((e) => e.type).sort()).toEqual(["charges", "refunds"]);
  });

  it("filters by type, source, currency and created; a payout it does not have is missing; the legacy history path answers", async () => {
    const w = await createWorld(disputeSeed());
    const s = client(w.key);
    expect((await s.balanceTransactions.list({ type: "refund" })).data.every((t) => t.type === "refund")).toBe(true);
    expect((await s.balanceTransactions.list({ source: "du_CarolWon" })).data.map((t) => t.amount)).toEqual([2000, -2000]);
    expect((await s.balanceTransactions.list({ currency: "eur" })).data).toEqual([]);
    expect((await s.balanceTransactions.list({ created: { gte: NOW - 2 * DAY } })).data.map((t) => t.source)).toEqual(["du_AliceFraud"]);
    const payout = await rejects(s.balanceTransactions.list({ payout: "po_123" }));
    expect(payout).toMatchObject({ code: "resource_missing", param: "payout" });
    expect((await rejects(s.balanceTransactions.retrieve("txn_nope"))).message).toBe("No such balance transaction: 'txn_nope'");
    const history = await raw(w, "GET", "/v1/balance/history", { params: { limit: "3" } });
    expect(history.status).toBe(200);
    expect(history.body).toMatchObject({ object: "list", url: "/v1/balance/history", has_more: true });
    expect(history.body.data).toHaveLength(3);
  });
});
