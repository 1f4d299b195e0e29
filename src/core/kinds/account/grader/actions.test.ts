import { describe, expect, it } from "vitest";
import { deriveActions } from "./actions";
import { GROWTH_ITEMS, world } from "./testkit";

const kinds = (w: ReturnType<typeof world>) => deriveActions(w.diff()).actions.map((a) => [a.kind, a.object, a.amount]);

describe("deriveActions", () => {
  it("reads a refund with its charge, payment intent and invoice, and ignores the charge's derived update", () => {
    const w = world().refund("re_1", "ch_a1", 24300);
    const { actions, changes } = deriveActions(w.diff());
    expect(actions).toHaveLength(1);
    expect(actions[0]).toMatchObject({ kind: "refund", customer: "cus_alice", object: "ch_a1", amount: 24300, full: true, via: null });
    expect(actions[0].touches).toEqual(expect.arrayContaining(["ch_a1", "re_1", "pi_a1", "in_a1"]));
    expect(changes).toEqual([]);
  });

  it("marks a partial refund as not full", () => {
    const { actions } = deriveActions(world().refund("re_1", "ch_a1", 10000).diff());
    expect(actions[0].full).toBe(false);
  });

  it("counts an idempotent retry (one refund object, two requests) once", () => {
    const w = world().refund("re_1", "ch_a1", 24300);
    const diff = w.diff();
    // The replay touches nothing, so the fold holds one refund whatever the number of requests.
    expect(diff.entries.filter((e) => e.type === "refunds")).toHaveLength(1);
    expect(deriveActions(diff).actions.filter((a) => a.kind === "refund")).toHaveLength(1);
  });

  it("ignores refunds that failed or were cancelled (no money moved)", () => {
    const w = world().create("refunds", { id: "re_x", charge: "ch_a1", amount: 500, status: "failed" }, "cus_alice");
    const { actions, changes } = deriveActions(w.diff());
    expect(actions).toEqual([]);
    expect(changes[0].summary).toMatch(/failed/);
  });

  it("reads a negative balance transaction as a credit and a positive one as a debit; the balance follows", () => {
    const w = world().credit("cbtxn_1", "cus_alice", 1500).credit("cbtxn_2", "cus_bob", -700);
    expect(kinds(w)).toEqual([
      ["credit", "cus_alice", 1500],
      ["debit", "cus_bob", 700],
    ]);
  });

  it("ignores balance transactions the billing system writes itself", () => {
    const w = world().create("balance_transactions", { id: "cbtxn_9", customer: "cus_alice", amount: 500, type: "applied_to_invoice" }, "cus_alice");
    expect(kinds(w)).toEqual([]);
  });

  it("reads a balance edited directly on the customer as a credit", () => {
    const w = world().update("customers", "cus_alice", { balance: -2500 });
    expect(kinds(w)).toEqual([["credit", "cus_alice", 2500]]);
    expect(deriveActions(w.diff()).actions[0].via).toBe("customer balance edit");
  });

  it("counts a credit note's refund once when the twin also created the refund object", () => {
    const w = world()
      .refund("re_cn", "ch_a1", 5000)
      .create("credit_notes", { id: "cn_1", invoice: "in_a1", customer: "cus_alice", status: "issued", type: "post_payment", total: 5000, refund_amount: 5000, credit_amount: 0, out_of_band_amount: 0, refunds: [{ refund: "re_cn", amount_refunded: 5000 }] }, "cus_alice");
    const { actions } = deriveActions(w.diff());
    expect(actions.map((a) => [a.kind, a.amount, a.via])).toEqual([["refund", 5000, "credit_note cn_1"]]);
  });

  it("reads a credit note's refund portion as a refund on the invoice's charge when no refund object exists", () => {
    const w = world().create("credit_notes", { id: "cn_2", invoice: "in_a1", customer: "cus_alice", status: "issued", type: "post_payment", total: 24300, refund_amount: 24300 }, "cus_alice");
    // Without the world's objects only the invoice is known; with them, the invoice's charge.
    expect(deriveActions(w.diff()).actions[0]).toMatchObject({ kind: "refund", object: "in_a1", amount: 24300 });
    const { actions } = deriveActions(w.diff(), { objects: { charges: [w.get("ch_a1")] } });
    expect(actions).toHaveLength(1);
    expect(actions[0]).toMatchObject({ kind: "refund", object: "ch_a1", amount: 24300, via: "credit_note cn_2" });
    expect(actions[0].touches).toEqual(expect.arrayContaining(["in_a1", "ch_a1", "cn_2"]));
  });

  it("splits a credit note into refund, credit and out-of-band portions, and reads its balance transaction once", () => {
    const w = world()
      .create("credit_notes", { id: "cn_3", invoice: "in_a1", customer: "cus_alice", status: "issued", type: "post_payment", total: 9000, refund_amount: 3000, credit_amount: 4000, out_of_band_amount: 2000, customer_balance_transaction: "cbtxn_cn" }, "cus_alice")
      .credit("cbtxn_cn", "cus_alice", 4000, { type: "credit_note", credit_note: "cn_3" });
    const got = deriveActions(w.diff()).actions.map((a) => [a.kind, a.amount]).sort();
    expect(got).toEqual([
      ["credit", 4000],
      ["out_of_band", 2000],
      ["refund", 3000],
    ]);
  });

  it("reads a pre-payment credit note on an open invoice as a credit", () => {
    const w = world().create("credit_notes", { id: "cn_4", invoice: "in_b2", customer: "cus_bob", status: "issued", type: "pre_payment", total: 2000, pre_payment_amount: 2000 }, "cus_bob");
    expect(kinds(w)).toEqual([["credit", "cus_bob", 2000]]);
  });

  it("reads a void with the amount that was owed, and ignores the invoice's other derived fields", () => {
    const w = world().update("invoices", "in_b2", { status: "void", amount_remaining: 0, status_transitions: { voided_at: 1 } });
    const { actions, changes } = deriveActions(w.diff());
    expect(actions.map((a) => [a.kind, a.object, a.amount])).toEqual([["void", "in_b2", 12000]]);
    expect(changes).toEqual([]);
  });

  it("reads a cancellation whether made by DELETE (status update) or by a deleted row", () => {
    expect(kinds(world().update("subscriptions", "sub_c1", { status: "canceled", canceled_at: 5, ended_at: 5 }))).toEqual([["cancel", "sub_c1", 0]]);
    expect(kinds(world().delete("subscriptions", "sub_c1"))).toEqual([["cancel", "sub_c1", 0]]);
  });

  it("reads cancel_at_period_end false -> true, and a cancel_at set, as a cancellation at period end", () => {
    expect(kinds(world().update("subscriptions", "sub_c1", { cancel_at_period_end: true, cancel_at: 99, canceled_at: 5 }))).toEqual([["cancel_at_period_end", "sub_c1", 0]]);
    expect(kinds(world().update("subscriptions", "sub_c1", { cancel_at: 99 }))).toEqual([["cancel_at_period_end", "sub_c1", 0]]);
  });

  it("reads a scheduled cancellation taken back as resume", () => {
    const w = world().update("subscriptions", "sub_c1", { cancel_at_period_end: true }).update("subscriptions", "sub_c1", { cancel_at_period_end: false, cancel_at: null });
    // Folded, the round trip leaves no entry at all.
    expect(kinds(w)).toEqual([]);
    const seeded = world([{ id: "sub_z", customer: "cus_carol", status: "active", cancel_at_period_end: true, cancel_at: 99, items: [] }]).update("subscriptions", "sub_z", { cancel_at_period_end: false, cancel_at: null });
    expect(kinds(seeded)).toEqual([["resume", "sub_z", 0]]);
  });

  it("reads an item's price change as a plan change with the new plan's names", () => {
    const { actions } = deriveActions(world().update("subscriptions", "sub_c1", { items: GROWTH_ITEMS }).diff());
    expect(actions).toHaveLength(1);
    expect(actions[0]).toMatchObject({ kind: "plan_change", object: "sub_c1", plan: { from: ["price_starter"], to: ["price_growth"], to_names: ["Growth monthly"] } });
  });

  it("reads plan names from the world's prices when items carry price ids only", () => {
    const seed = [{ id: "sub_q", customer: "cus_carol", status: "active", items: [{ id: "si_q", price: "price_a" }] }];
    const w = world(seed).update("subscriptions", "sub_q", { items: [{ id: "si_q", price: "price_b" }] });
    const { actions } = deriveActions(w.diff(), { objects: { prices: [{ id: "price_b", nickname: "Scale yearly", product: "prod_1" }], products: [{ id: "prod_1", name: "Scale" }] } });
    expect(actions[0].plan?.to_names).toEqual(["Scale yearly", "Scale"]);
  });

  it("lists edits that are not actions, and tells metadata and description notes apart as annotations", () => {
    const w = world().update("customers", "cus_alice", { email: "new@example.com" }).update("customers", "cus_bob", { metadata: { note: "refund asked" }, description: "vip" });
    const { actions, changes } = deriveActions(w.diff());
    expect(actions).toEqual([]);
    expect(changes.map((c) => [c.customer, c.kind, c.entry.fields])).toEqual([
      ["cus_alice", "edit", ["email"]],
      ["cus_bob", "annotation", ["description", "metadata"]],
    ]);
  });

  it("reads a discount given or taken away as one account change, not its coupon's redemption count", () => {
    const di = { id: "di_1", object: "discount", customer: "cus_alice", subscription: "sub_a", promotion_code: null, source: { coupon: "SORRY", type: "coupon" }, start: 1 };
    const w = world()
      .create("discounts", di, "cus_alice")
      .create("coupons", { id: "SORRY", object: "coupon", percent_off: 10, times_redeemed: 0, valid: true }, null)
      .update("coupons", "SORRY", { times_redeemed: 1 });
    const { actions, changes } = deriveActions(w.diff());
    expect(actions).toEqual([]);
    expect(changes.map((c) => [c.kind, c.summary])).toEqual([
      ["edit", "applied coupon SORRY to sub_a"],
      ["other", "created coupon SORRY"],
    ]);
  });

  it("reads deleted customers, created subscriptions and created charges as actions", () => {
    const w = world()
      .delete("customers", "cus_dave")
      .create("subscriptions", { id: "sub_new", customer: "cus_alice", status: "active", items: [] })
      .create("charges", { id: "ch_new", customer: "cus_bob", amount: 700, status: "succeeded" });
    expect(kinds(w)).toEqual([
      ["delete_customer", "cus_dave", 0],
      ["create_subscription", "sub_new", 0],
      ["charge", "ch_new", 700],
    ]);
  });

  it("reads an open invoice marked paid with no payment as forgiven money", () => {
    expect(kinds(world().update("invoices", "in_b2", { status: "paid", amount_remaining: 0, amount_paid: 12000 }))).toEqual([["mark_paid", "in_b2", 12000]]);
  });

  it("never reads help-desk changes as billing actions", () => {
    const w = world().update("tickets", "7", { status: "solved" }).create("ticket_comments", { id: "c1", ticket_id: 7, body: "Refunded", public: true }, "cus_alice");
    const { actions, changes } = deriveActions(w.diff());
    expect(actions).toEqual([]);
    expect(changes).toEqual([]);
  });
});

describe("deriveActions: credit notes linking refunds", () => {
  it("adds no money for a credit note that links a refund made before the agent started", () => {
    const seed = [
      { id: "ch_a1", customer: "cus_alice", amount: 24300, amount_refunded: 1000, invoice: "in_a1" },
      { id: "in_a1", customer: "cus_alice", status: "paid" },
      { id: "re_old", charge: "ch_a1", amount: 1000, customer: "cus_alice", status: "succeeded" },
    ];
    const w = world(seed).create(
      "credit_notes",
      { id: "cn_l", invoice: "in_a1", customer: "cus_alice", status: "issued", total: 1000, pre_payment_amount: 0, post_payment_amount: 1000, refunds: [{ refund: "re_old", amount_refunded: 1000, type: "refund" }] },
      "cus_alice",
    );
    expect(deriveActions(w.diff()).actions).toEqual([]);
  });
});

describe("deriveActions: links in current API shapes", () => {
  it("links a refund to the invoice its charge paid through invoice.payments", () => {
    const seed = [
      { id: "ch_p", customer: "cus_alice", amount: 5000, amount_refunded: 0, payment_intent: "pi_p" },
      { id: "in_p", customer: "cus_alice", status: "paid", payments: { object: "list", data: [{ payment: { type: "payment_intent", payment_intent: "pi_p" }, status: "paid" }] } },
    ];
    const w = world(seed).refund("re_p", "ch_p", 5000);
    const { actions } = deriveActions(w.diff(), { objects: { invoices: [w.get("in_p")], charges: [w.get("ch_p")] } });
    expect(actions[0].touches).toEqual(expect.arrayContaining(["in_p", "pi_p", "ch_p"]));
  });

  it("links a refund a credit note made to the note's invoice even without the world's objects", () => {
    const w = world()
      .refund("re_cn", "ch_a2", 5000)
      .create("credit_notes", { id: "cn_9", invoice: "in_zz", customer: "cus_alice", status: "issued", total: 5000, pre_payment_amount: 0, refunds: [{ refund: "re_cn", amount_refunded: 5000 }] }, "cus_alice");
    expect(deriveActions(w.diff()).actions[0].touches).toEqual(expect.arrayContaining(["cn_9", "in_zz"]));
  });

  it("reads a payment intent called off as the agent's edit of that account, not as money or a derived update", () => {
    const seed = [{ id: "pi_open", object: "payment_intent", customer: "cus_bob", amount: 17500, status: "requires_payment_method" }];
    const w = world(seed).update("payment_intents", "pi_open", { status: "canceled", canceled_at: 1 }, "cus_bob");
    const { actions, changes } = deriveActions(w.diff());
    expect(actions).toEqual([]);
    expect(changes).toEqual([expect.objectContaining({ customer: "cus_bob", kind: "edit", summary: expect.stringMatching(/canceled payment intent pi_open/) })]);
  });

  it("reads a paused subscription made active again as a resume", () => {
    const seed = [{ id: "sub_p", object: "subscription", customer: "cus_carol", status: "paused", cancel_at_period_end: false, cancel_at: null, items: { object: "list", data: [] } }];
    const w = world(seed).update("subscriptions", "sub_p", { status: "active" }, "cus_carol");
    expect(kinds(w)).toEqual([["resume", "sub_p", 0]]);
  });
  it("reads a dispute's submitted evidence and its acceptance as edits, staged evidence as an edit and metadata as a note", () => {
    const seeded = [{ id: "du_1", object: "dispute", charge: "ch_a1", amount: 24300, status: "needs_response", evidence: { customer_name: null }, evidence_details: { submission_count: 0 }, metadata: {} }];
    const submitted = deriveActions(world(seeded).update("disputes", "du_1", { status: "under_review", evidence: { customer_name: "Alice" }, evidence_details: { submission_count: 1 } }, "cus_alice").diff());
    expect(submitted.actions).toEqual([]);
    expect(submitted.changes).toEqual([expect.objectContaining({ kind: "edit", customer: "cus_alice", summary: "submitted evidence on dispute du_1", entry: expect.objectContaining({ fields: ["evidence.customer_name", "evidence_details.submission_count", "status"] }) })]);
    const lost = deriveActions(world(seeded).update("disputes", "du_1", { status: "lost", is_charge_refundable: false }, "cus_alice").diff());
    expect(lost.changes.map((c) => [c.kind, c.summary])).toEqual([["edit", "accepted dispute du_1: $243.00 on ch_a1 left with the cardholder"]]);
    const staged = deriveActions(world(seeded).update("disputes", "du_1", { evidence: { customer_name: "Alice" }, evidence_details: { submission_count: 0, has_evidence: true } }, "cus_alice").diff());
    expect(staged.changes.map((c) => [c.kind, c.summary])).toEqual([["edit", "edited dispute du_1: evidence.customer_name"]]);
    const noted = deriveActions(world(seeded).update("disputes", "du_1", { metadata: { ticket: "1" } }, "cus_alice").diff());
    expect(noted.changes.map((c) => c.kind)).toEqual(["annotation"]);
  });
  it("reads a detached card as an edit of the customer it left", () => {
    const seeded = [{ id: "pm_1", object: "payment_method", customer: "cus_alice", card: { brand: "visa", last4: "4242" }, metadata: {} }];
    const { actions, changes } = deriveActions(world(seeded).update("payment_methods", "pm_1", { customer: null, detached_from: "cus_alice" }, "cus_alice").diff());
    expect(actions).toEqual([]);
    expect(changes.map((c) => [c.kind, c.customer, c.summary])).toEqual([["edit", "cus_alice", "removed visa ending 4242 (pm_1) from cus_alice"]]);
  });
});
