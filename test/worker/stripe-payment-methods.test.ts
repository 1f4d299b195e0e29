// Payment methods through the official client: the cards on file, seeded from the cards each customer's
// charges were paid with; listing (account-wide by customer and type, and the customer-scoped list), retrieve,
// update, detach (and its effect on the customer's default) and attach with the real refusals.
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { moneySeed } from "./money-seed";
import { client, createWorld, diff, rejects } from "./stripe-helpers";

const CARD = { brand: "mastercard", last4: "4444", exp_month: 3, exp_year: 2030 };

function cardSeed() {
  const base = moneySeed();
  // Carol paid one charge with a second card; every other charge used the default test card.
  const charges = base.data.charges.map((c) => (c.id === "ch_CarolFull" ? { ...c, payment_method_details: { type: "card" as const, card: CARD } } : c));
  return { ...base, data: { ...base.data, charges } };
}

describe("payment methods", () => {
  it("holds one payment method per card a customer paid with, named by the charges it paid", async () => {
    const w = await createWorld(cardSeed());
    const s = client(w.key);
    const carol = await s.customers.listPaymentMethods("cus_Carol");
    expect(carol.data.map((pm) => pm.card!.last4).sort()).toEqual(["4242", "4444"]);
    expect(carol.data.every((pm) => pm.customer === "cus_Carol" && pm.type === "card")).toBe(true);
    const mc = carol.data.find((pm) => pm.card!.last4 === "4444")!;
    expect(mc).toMatchObject({ object: "payment_method", card: { brand: "mastercard", exp_month: 3, exp_year: 2030 }, billing_details: { email: expect.any(String) } });
    expect((await s.charges.retrieve("ch_CarolFull")).payment_method).toBe(mc.id);
    expect((await s.paymentMethods.list({ customer: "cus_Carol", type: "card" })).data.map((pm) => pm.id)).toEqual(carol.data.map((pm) => pm.id));
    expect((await s.paymentMethods.list({ customer: "cus_Carol", type: "sepa_debit" })).data).toEqual([]);
    expect((await s.customers.retrievePaymentMethod("cus_Carol", mc.id)).id).toBe(mc.id);
    expect((await rejects(s.customers.retrievePaymentMethod("cus_Alice", mc.id))).statusCode).toBe(404);
    const retrieved = await s.paymentMethods.retrieve(mc.id, { expand: ["customer"] });
    expect((retrieved.customer as Stripe.Customer).id).toBe("cus_Carol");
    expect((await rejects(s.paymentMethods.retrieve("pm_nope"))).message).toBe("No such PaymentMethod: 'pm_nope'");
    expect((await rejects(s.paymentMethods.list({ customer: "cus_nope" }))).code).toBe("resource_missing");
    expect((await rejects(s.paymentMethods.list({ type: "carrier_pigeon" as Stripe.PaymentMethodListParams.Type }))).param).toBe("type");
  });

  it("detaches a card for good: the customer's default is cleared, re-attaching is refused, the diff shows the write", async () => {
    const w = await createWorld(cardSeed());
    const s = client(w.key);
    const [pm] = (await s.customers.listPaymentMethods("cus_Carol")).data.filter((x) => x.card!.last4 === "4444");
    expect((await rejects(s.customers.update("cus_Alice", { invoice_settings: { default_payment_method: pm.id } }))).message).toContain("must be attached to the customer");
    expect((await rejects(s.customers.update("cus_Alice", { invoice_settings: { default_payment_method: "pm_nope" } }))).code).toBe("resource_missing");
    await s.customers.update("cus_Carol", { invoice_settings: { default_payment_method: pm.id } });
    const updated = await s.paymentMethods.update(pm.id, { metadata: { label: "work card" }, billing_details: { name: "Carol C." } });
    expect(updated).toMatchObject({ metadata: { label: "work card" }, billing_details: { name: "Carol C." } });

    const detached = await s.paymentMethods.detach(pm.id);
    expect(detached).toMatchObject({ id: pm.id, customer: null });
    expect(detached).not.toHaveProperty("detached_from");
    expect((await s.customers.retrieve("cus_Carol")) as Stripe.Customer).toMatchObject({ invoice_settings: { default_payment_method: null } });
    expect((await s.customers.listPaymentMethods("cus_Carol")).data.map((x) => x.card!.last4)).toEqual(["4242"]);
    expect((await rejects(s.paymentMethods.detach(pm.id))).message).toBe("The payment method you provided is not attached to a customer so detachment is impossible.");
    const again = await rejects(s.paymentMethods.attach(pm.id, { customer: "cus_Carol" }));
    expect(again).toMatchObject({ code: "payment_method_unexpected_state" });
    expect(again.message).toContain("may not be used again");
    const [alices] = (await s.customers.listPaymentMethods("cus_Alice")).data;
    expect((await rejects(s.paymentMethods.attach(alices.id, { customer: "cus_Carol" }))).message).toBe("The payment method you provided has already been attached to a customer.");
    expect((await rejects(s.paymentMethods.attach(alices.id, { customer: "cus_nope" }))).code).toBe("resource_missing");

    const d = await diff(w);
    const entry = d.entries.find((e) => e.id === pm.id)!;
    expect(entry).toMatchObject({ type: "payment_methods", op: "updated", customer: "cus_Carol" });
    expect(entry.fields!.customer).toEqual({ before: "cus_Carol", after: null });
  });
});
