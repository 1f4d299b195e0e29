// Seeding the money collections: full shapes filled in, and a seed whose amounts contradict each other is
// refused with the object and the numbers named. The bundled acme-small seed must come out consistent.
import { describe, expect, it } from "vitest";
import { call, createWorld, stripe } from "./stripe-helpers";
import { moneySeed } from "./money-seed";

const admin = { authorization: "Bearer test-token", "content-type": "application/json" };

async function tryCreate(seed: unknown): Promise<{ status: number; text: string }> {
  const res = await call("/admin/worlds", { method: "POST", headers: admin, body: JSON.stringify({ seed }) });
  return { status: res.status, text: await res.text() };
}

describe("money seeding", () => {
  it("fills the shapes: totals, payments, numbers, status transitions, attribution", async () => {
    const w = await createWorld(moneySeed());
    const inv = await stripe(w, "GET", "/v1/invoices/in_CarolPaid", { params: { "expand[]": "payments" } });
    expect(inv.body).toMatchObject({
      number: "CAROLXXX-0001",
      customer_email: "shared@example.com",
      customer_name: "Carol Chen",
      currency: "usd",
      amount_paid: 2000,
      post_payment_credit_notes_amount: 500,
      payments: { data: [{ object: "invoice_payment", status: "paid", payment: { type: "charge", charge: "ch_CarolDup1" } }] },
    });
    expect(inv.body.status_transitions.paid_at).toBe(inv.body.created);
    const oob = await stripe(w, "GET", "/v1/invoices/in_CarolOob", { params: { "expand[]": "payments" } });
    expect(oob.body).toMatchObject({ amount_paid: 700, amount_paid_off_stripe: 700, payments: { data: [] } });
    const cn = await stripe(w, "GET", "/v1/credit_notes/cn_CarolSeed");
    expect(cn.body).toMatchObject({ object: "credit_note", customer: "cus_Carol", amount: 500, type: "post_payment", post_payment_amount: 500, pre_payment_amount: 0, number: "CAROLXXX-0001-CN-01", status: "issued" });
    const refund = await stripe(w, "GET", "/v1/refunds/re_CarolPartial");
    expect(refund.body).toMatchObject({ customer: "cus_Carol", currency: "usd", status: "succeeded" });
    const objects = await (await call(`/admin/worlds/${w.id}/objects?type=charges`, { headers: admin })).json<{ data: Array<{ id: string; amount_refunded: number; refunded: boolean }> }>();
    expect(objects.data.find((c) => c.id === "ch_CarolFull")).toMatchObject({ amount_refunded: 4000, refunded: true });
  });

  it("refuses refunds that add up to more than their charge, naming it", async () => {
    const seed = moneySeed();
    seed.data.refunds.push({ id: "re_Extra", charge: "ch_CarolFull", amount: 100 } as never);
    const r = await tryCreate(seed);
    expect(r.status).not.toBe(201);
    expect(r.text).toContain("ch_CarolFull");
    expect(r.text).toContain("4100");
  });

  it("refuses an amount_refunded that its refunds do not explain", async () => {
    const seed = moneySeed();
    (seed.data.charges[3] as Record<string, unknown>).amount_refunded = 2000;
    const r = await tryCreate(seed);
    expect(r.status).not.toBe(201);
    expect(r.text).toContain("ch_CarolDup1");
  });

  it("refuses a paid invoice whose amount_paid contradicts its lines, and a credit note whose split exceeds it", async () => {
    const paid = moneySeed();
    (paid.data.invoices[0] as Record<string, unknown>).amount_paid = 2999;
    const r = await tryCreate(paid);
    expect(r.status).not.toBe(201);
    expect(r.text).toContain("in_AlicePaid");
    const cn = moneySeed();
    (cn.data.credit_notes[0] as Record<string, unknown>).refund_amount = 100;
    const r2 = await tryCreate(cn);
    expect(r2.status).not.toBe(201);
    expect(r2.text).toContain("cn_CarolSeed");
  });

  it("seeds the bundled acme-small world with money that adds up", async () => {
    const w = await createWorld("acme-small");
    const all = async (path: string) => {
      const out: Array<Record<string, any>> = [];
      let after: string | undefined;
      for (;;) {
        const page = await stripe(w, "GET", path, { params: { limit: 100, ...(after ? { starting_after: after } : {}) } });
        expect(page.status).toBe(200);
        out.push(...page.body.data);
        if (!page.body.has_more) return out;
        after = page.body.data[page.body.data.length - 1].id;
      }
    };
    const invoices = await all("/v1/invoices");
    expect(new Set(invoices.map((i) => i.status))).toEqual(new Set(["draft", "open", "paid", "void", "uncollectible"]));
    for (const inv of invoices) {
      expect(inv.amount_remaining, inv.id).toBe(Math.max(0, inv.amount_due - inv.amount_paid));
      expect(inv.total, inv.id).toBe(inv.lines.data.reduce((s: number, l: { amount: number }) => s + l.amount, 0));
      if (inv.status === "paid") expect(inv.amount_paid, inv.id).toBe(inv.amount_due);
    }
    const refunds = await all("/v1/refunds");
    for (const ch of await all("/v1/charges")) {
      const sum = refunds.filter((r) => r.charge === ch.id).reduce((s, r) => s + r.amount, 0);
      expect(ch.amount_refunded, ch.id).toBe(sum);
      expect(ch.refunded, ch.id).toBe(sum === ch.amount);
    }
  });
});
