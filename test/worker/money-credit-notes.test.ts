// Credit notes through the billing twin: the credit + refund split on a paid invoice and its void, the
// pre-payment reduction of an open invoice, lines priced from the invoice, and the refusals.
import { describe, expect, it } from "vitest";
import { createWorld, diff, stripe, type TestWorld } from "./stripe-helpers";
import { moneySeed } from "./money-seed";

const post = (w: TestWorld, path: string, params?: Record<string, unknown>) => stripe(w, "POST", path, { params });

describe("credit notes", () => {
  it("splits a credit note on a paid invoice into balance credit and a refund, and voids it", async () => {
    const w = await createWorld(moneySeed());
    const cn = await post(w, "/v1/credit_notes", { invoice: "in_AlicePaid", amount: 1000, credit_amount: 400, refund_amount: 600, reason: "order_change", memo: "Seat removed" });
    expect(cn.status).toBe(200);
    expect(cn.body).toMatchObject({
      object: "credit_note",
      invoice: "in_AlicePaid",
      customer: "cus_Alice",
      amount: 1000,
      total: 1000,
      type: "post_payment",
      pre_payment_amount: 0,
      post_payment_amount: 1000,
      status: "issued",
      reason: "order_change",
      memo: "Seat removed",
      out_of_band_amount: null,
      number: "ALICEXXX-0001-CN-01",
    });
    expect(cn.body.lines.data).toMatchObject([{ object: "credit_note_line_item", amount: 1000, type: "custom_line_item" }]);
    const refundId = cn.body.refunds[0].refund;
    expect(cn.body.refunds).toEqual([{ amount_refunded: 600, payment_record_refund: null, refund: refundId, type: "refund" }]);
    expect((await stripe(w, "GET", `/v1/refunds/${refundId}`)).body).toMatchObject({ charge: "ch_AlicePaid", amount: 600 });
    expect((await stripe(w, "GET", "/v1/charges/ch_AlicePaid")).body).toMatchObject({ amount_refunded: 600, refunded: false });
    const txn = await stripe(w, "GET", `/v1/customers/cus_Alice/balance_transactions/${cn.body.customer_balance_transaction}`);
    expect(txn.body).toMatchObject({ type: "credit_note", amount: -400, credit_note: cn.body.id, invoice: "in_AlicePaid", ending_balance: -400 });
    expect((await stripe(w, "GET", "/v1/customers/cus_Alice")).body.balance).toBe(-400);
    expect((await stripe(w, "GET", "/v1/invoices/in_AlicePaid")).body).toMatchObject({ status: "paid", post_payment_credit_notes_amount: 1000, amount_paid: 3000 });

    let d = await diff(w);
    expect(d.entries.map((e) => [e.type, e.op])).toEqual([
      ["refunds", "created"],
      ["charges", "updated"],
      ["balance_transactions", "created"],
      ["customers", "updated"],
      ["credit_notes", "created"],
      ["invoices", "updated"],
    ]);
    expect(d.entries.every((e) => e.customer === "cus_Alice")).toBe(true);

    const old = await stripe(w, "GET", `/v1/credit_notes/${cn.body.id}`, { headers: { "stripe-version": "2024-06-20" } });
    expect(old.body.refund).toBe(refundId);
    expect(old.body.refunds).toBeUndefined();

    const voided = await post(w, `/v1/credit_notes/${cn.body.id}/void`);
    expect(voided.body).toMatchObject({ status: "void" });
    expect(voided.body.voided_at).toBeTypeOf("number");
    expect((await stripe(w, "GET", "/v1/customers/cus_Alice")).body.balance).toBe(0);
    expect((await stripe(w, "GET", "/v1/invoices/in_AlicePaid")).body.post_payment_credit_notes_amount).toBe(0);
    // Money already sent back stays sent back.
    expect((await stripe(w, "GET", "/v1/charges/ch_AlicePaid")).body.amount_refunded).toBe(600);
    const again = await post(w, `/v1/credit_notes/${cn.body.id}/void`);
    expect(again.status).toBe(400);
    d = await diff(w);
    expect(d.entries.find((e) => e.type === "credit_notes")?.after?.status).toBe("void");
    expect(d.entries.filter((e) => e.type === "balance_transactions")).toHaveLength(2);
  });

  it("reduces what an open invoice owes, and settles it when nothing is left", async () => {
    const w = await createWorld(moneySeed());
    const first = await post(w, "/v1/credit_notes", { invoice: "in_AliceOpen", amount: 1000 });
    expect(first.body).toMatchObject({ type: "pre_payment", pre_payment_amount: 1000, post_payment_amount: 0 });
    expect((await stripe(w, "GET", "/v1/invoices/in_AliceOpen")).body).toMatchObject({ status: "open", amount_due: 2000, amount_remaining: 2000, pre_payment_credit_notes_amount: 1000, total: 3000 });
    const rest = await post(w, "/v1/credit_notes", { invoice: "in_AliceOpen", amount: 2000 });
    expect(rest.body.number).toBe("ALICEXXX-0002-CN-02");
    expect((await stripe(w, "GET", "/v1/invoices/in_AliceOpen")).body).toMatchObject({ status: "paid", amount_due: 0, amount_remaining: 0 });
    const cant = await post(w, `/v1/credit_notes/${first.body.id}/void`);
    expect(cant.status).toBe(400);
  });

  it("mixes both parts when an open invoice is credited beyond what it owes", async () => {
    const w = await createWorld(moneySeed());
    const bad = await post(w, "/v1/credit_notes", { invoice: "in_BobOpen", amount: 18000 });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain("$175.00 of it reduces what invoice in_BobOpen still owes");
    const mixed = await post(w, "/v1/credit_notes", { invoice: "in_BobOpen", amount: 18000, out_of_band_amount: 500 });
    expect(mixed.body).toMatchObject({ type: "mixed", pre_payment_amount: 17500, post_payment_amount: 500, out_of_band_amount: 500 });
  });

  it("prices lines from the invoice and voids a pre-payment note on an open invoice", async () => {
    const w = await createWorld(moneySeed());
    const byLine = await stripe(w, "POST", "/v1/credit_notes", {
      raw: "invoice=in_AlicePaid&lines[0][type]=invoice_line_item&lines[0][invoice_line_item]=il_AlicePaid1&lines[0][quantity]=1&credit_amount=3000",
    });
    expect(byLine.status).toBe(200);
    expect(byLine.body.lines.data[0]).toMatchObject({ type: "invoice_line_item", invoice_line_item: "il_AlicePaid1", amount: 3000, quantity: 1 });
    const more = await post(w, "/v1/credit_notes", { invoice: "in_AlicePaid", amount: 1, credit_amount: 1 });
    expect(more.body.error.message).toMatch(/greater than the amount that can still be credited on invoice in_AlicePaid \(\$0\.00\)/);

    const open = await post(w, "/v1/credit_notes", { invoice: "in_BobOpen", amount: 2500 });
    expect((await stripe(w, "GET", "/v1/invoices/in_BobOpen")).body.amount_due).toBe(15000);
    await post(w, `/v1/credit_notes/${open.body.id}/void`);
    expect((await stripe(w, "GET", "/v1/invoices/in_BobOpen")).body).toMatchObject({ amount_due: 17500, pre_payment_credit_notes_amount: 0 });
  });

  it("refuses drafts, unsplit paid credits, refunds beyond the charge and out-of-band invoices", async () => {
    const w = await createWorld(moneySeed());
    const draft = await post(w, "/v1/credit_notes", { invoice: "in_AliceDraft", amount: 100 });
    expect(draft.body.error).toMatchObject({ message: "You cannot create a credit note for a draft invoice.", param: "invoice" });
    const unsplit = await post(w, "/v1/credit_notes", { invoice: "in_AlicePaid", amount: 500 });
    expect(unsplit.body.error.message).toContain("already paid");
    const nothing = await post(w, "/v1/credit_notes", { invoice: "in_AlicePaid" });
    expect(nothing.body.error.param).toBe("amount");
    const oob = await post(w, "/v1/credit_notes", { invoice: "in_CarolOob", amount: 100, refund_amount: 100 });
    expect(oob.body.error.param).toBe("refund_amount");
    const missing = await post(w, "/v1/credit_notes", { amount: 100 });
    expect(missing.body.error).toMatchObject({ code: "parameter_missing", param: "invoice" });
    const nosuch = await post(w, "/v1/credit_notes", { invoice: "in_Nope", amount: 100 });
    expect(nosuch.body.error).toMatchObject({ code: "resource_missing", param: "invoice" });
    // A charge refunded outside credit notes can no longer be credited for that money.
    await post(w, "/v1/refunds", { charge: "ch_AlicePaid", amount: 2800 });
    const tooMuch = await post(w, "/v1/credit_notes", { invoice: "in_AlicePaid", amount: 300, refund_amount: 300 });
    expect(tooMuch.body.error.message).toContain("($2.00)");
    expect((await diff(w)).entries.filter((e) => e.type === "credit_notes")).toEqual([]);
  });

  it("lists by invoice and customer, and pages lines", async () => {
    const w = await createWorld(moneySeed());
    const made = await post(w, "/v1/credit_notes", { invoice: "in_CarolPaid", amount: 300, credit_amount: 300 });
    const ids = (r: { body: Record<string, any> }) => (r.body.data as Array<{ id: string }>).map((x) => x.id);
    expect(ids(await stripe(w, "GET", "/v1/credit_notes", { params: { invoice: "in_CarolPaid" } }))).toEqual([made.body.id, "cn_CarolSeed"]);
    expect(ids(await stripe(w, "GET", "/v1/credit_notes", { params: { customer: "cus_Alice" } }))).toEqual([]);
    expect(ids(await stripe(w, "GET", `/v1/credit_notes/${made.body.id}/lines`))).toEqual([made.body.lines.data[0].id]);
    const upd = await post(w, `/v1/credit_notes/${made.body.id}`, { memo: "Apology", metadata: { ticket: "42" } });
    expect(upd.body).toMatchObject({ memo: "Apology", metadata: { ticket: "42" } });
  });
});
