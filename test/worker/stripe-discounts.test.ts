// Coupons, promotion codes and the discounts they become, through the official client: creating and listing
// them, redeeming onto a subscription (current versions) or a customer (older versions' `coupon`), the
// discount in the next invoice's preview and on the first invoice, removing it, and each redemption's limits.
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { billingSeed, client, createWorld, diff, NOW, rejects, stripe as raw } from "./stripe-helpers";

/** billingSeed plus a seeded coupon, a promotion code for it, and Carol holding a coupon already. */
function discountSeed() {
  const base = billingSeed();
  return {
    ...base,
    data: {
      ...base.data,
      customers: base.data.customers.map((c) => (c.id === "cus_Carol" ? { ...c, coupon: "LOYAL10" } : c)),
      coupons: [
        { id: "LOYAL10", name: "Loyalty 10%", percent_off: 10, duration: "forever", created: NOW - 100 * 86400 },
        { id: "FIVEOFF", amount_off: 500, duration: "once", max_redemptions: 1, created: NOW - 50 * 86400 },
      ],
      promotion_codes: [{ id: "promo_Welcome", code: "WELCOME", coupon: "LOYAL10", created: NOW - 40 * 86400 }],
    },
  };
}

describe("coupons and promotion codes", () => {
  it("creates, reads, updates, lists and deletes coupons with the API's rules", async () => {
    const w = await createWorld(discountSeed());
    const s = client(w.key);
    const c = await s.coupons.create({ percent_off: 25, duration: "repeating", duration_in_months: 3, name: "Sorry for the outage" });
    expect(c).toMatchObject({ object: "coupon", percent_off: 25, amount_off: null, currency: null, duration: "repeating", duration_in_months: 3, valid: true, times_redeemed: 0 });
    expect(c.id).toMatch(/^[A-Z0-9]{8}$/);
    const named = await s.coupons.create({ id: "GOODWILL", amount_off: 1500, currency: "usd", duration: "once" });
    expect(named).toMatchObject({ id: "GOODWILL", amount_off: 1500, currency: "usd" });
    expect((await rejects(s.coupons.create({ id: "GOODWILL", percent_off: 5 }))).code).toBe("resource_already_exists");
    expect((await rejects(s.coupons.create({ amount_off: 100 }))).param).toBe("currency");
    expect((await rejects(s.coupons.create({ percent_off: 10, duration: "repeating" }))).param).toBe("duration_in_months");
    expect((await rejects(s.coupons.create({ percent_off: 10, amount_off: 100, currency: "usd" }))).code).toBe("parameters_exclusive");
    expect((await rejects(s.coupons.create({ percent_off: 120 }))).param).toBe("percent_off");
    expect((await s.coupons.update("GOODWILL", { name: "Goodwill", metadata: { ticket: "42" } })).name).toBe("Goodwill");
    const list = await s.coupons.list({ limit: 100 });
    expect(list.data.map((x) => x.id)).toEqual(["GOODWILL", c.id, "FIVEOFF", "LOYAL10"]);
    expect(await s.coupons.del("GOODWILL")).toEqual({ id: "GOODWILL", object: "coupon", deleted: true });
    expect((await rejects(s.coupons.retrieve("GOODWILL"))).statusCode).toBe(404);
    // The diff folds a coupon created and deleted in the same episode away; the seeded one deleted stays.
    await s.coupons.del("LOYAL10");
    const d = await diff(w);
    expect(d.entries.filter((e) => e.type === "coupons").map((e) => [e.id, e.op])).toEqual([[c.id, "created"], ["LOYAL10", "deleted"]]);
  });

  it("creates promotion codes in each version's shape and filters them", async () => {
    const w = await createWorld(discountSeed());
    const s = client(w.key);
    const p = await s.promotionCodes.create({ promotion: { type: "coupon", coupon: "LOYAL10" }, code: "SPRING", customer: "cus_Alice", max_redemptions: 5 });
    expect(p).toMatchObject({ object: "promotion_code", code: "SPRING", active: true, customer: "cus_Alice", promotion: { coupon: "LOYAL10", type: "coupon" }, max_redemptions: 5, times_redeemed: 0 });
    expect((await rejects(s.promotionCodes.create({ promotion: { type: "coupon", coupon: "LOYAL10" }, code: "spring" }))).code).toBe("promotion_code_already_exists");
    expect((await rejects(s.promotionCodes.create({ promotion: { type: "coupon", coupon: "NOPE" } }))).code).toBe("resource_missing");
    // Before 2025-09-30 the coupon is passed and shown as `coupon`, whole.
    const old = await raw(w, "POST", "/v1/promotion_codes", { params: { coupon: "FIVEOFF", code: "FIVER" }, headers: { "stripe-version": "2024-06-20" } });
    expect(old.status).toBe(200);
    expect(old.body.coupon).toMatchObject({ id: "FIVEOFF", object: "coupon", amount_off: 500 });
    expect(old.body.promotion).toBeUndefined();
    expect((await raw(w, "POST", "/v1/promotion_codes", { params: { coupon: "FIVEOFF" } })).body.error.code).toBe("parameter_unknown");

    expect((await s.promotionCodes.list({ code: "welcome" })).data.map((x) => x.id)).toEqual(["promo_Welcome"]);
    expect((await s.promotionCodes.list({ coupon: "LOYAL10" })).data.map((x) => x.code)).toEqual(["SPRING", "WELCOME"]);
    expect((await s.promotionCodes.list({ customer: "cus_Alice" })).data.map((x) => x.code)).toEqual(["SPRING"]);
    await s.promotionCodes.update("promo_Welcome", { active: false });
    expect((await s.promotionCodes.list({ active: true })).data.map((x) => x.code)).toEqual(["FIVER", "SPRING"]);
    expect((await s.promotionCodes.retrieve(p.id, { expand: ["promotion.coupon"] })).promotion.coupon).toMatchObject({ id: "LOYAL10", percent_off: 10 });
  });
});

describe("discounts on subscriptions and customers", () => {
  it("applies a coupon to a subscription, shows it in the preview, and removes it", async () => {
    const w = await createWorld(discountSeed());
    const s = client(w.key);
    const before = await s.invoices.createPreview({ subscription: "sub_Alice" });
    expect(before).toMatchObject({ subtotal: 3000, total: 3000, discounts: [] });
    const sub = await s.subscriptions.update("sub_Alice", { discounts: [{ promotion_code: "promo_Welcome" }], expand: ["discounts"] });
    const discount = sub.discounts[0] as Stripe.Discount;
    expect(discount).toMatchObject({ object: "discount", subscription: "sub_Alice", customer: "cus_Alice", promotion_code: "promo_Welcome", source: { coupon: "LOYAL10", type: "coupon" }, end: null });
    const preview = await s.invoices.createPreview({ subscription: "sub_Alice" });
    expect(preview).toMatchObject({ subtotal: 3000, total: 2700, amount_due: 2700, discounts: [discount.id], total_discount_amounts: [{ amount: 300, discount: discount.id }] });
    expect(preview.lines.data[0].discount_amounts).toEqual([{ amount: 300, discount: discount.id }]);
    expect((await s.coupons.retrieve("LOYAL10")).times_redeemed).toBe(1);
    expect((await s.promotionCodes.retrieve("promo_Welcome")).times_redeemed).toBe(1);

    const removed = await s.subscriptions.deleteDiscount("sub_Alice");
    expect(removed).toMatchObject({ id: discount.id, object: "discount", deleted: true });
    expect((await s.subscriptions.retrieve("sub_Alice")).discounts).toEqual([]);
    expect((await s.invoices.createPreview({ subscription: "sub_Alice" })).total).toBe(3000);
    expect((await rejects(s.subscriptions.deleteDiscount("sub_Alice"))).statusCode).toBe(404);

    // A discount given and taken back folds away; the redemption it counted stays on the coupon and the code.
    const d = await diff(w);
    expect(d.entries.filter((e) => e.type === "discounts")).toEqual([]);
    expect(d.entries.find((e) => e.type === "coupons")?.fields?.times_redeemed).toEqual({ before: 0, after: 1 });
    expect(d.entries.find((e) => e.type === "promotion_codes")?.fields?.times_redeemed).toEqual({ before: 0, after: 1 });
  });

  it("inherits the customer's discount, spends a once coupon on the first invoice, and refuses what a code forbids", async () => {
    const w = await createWorld(discountSeed());
    const s = client(w.key);
    // Carol's seeded LOYAL10 discount applies to a subscription of hers that has none of its own.
    const carol = await s.customers.retrieve("cus_Carol");
    expect((carol as Stripe.Customer).discount).toMatchObject({ object: "discount", source: { coupon: "LOYAL10" } });
    const sub = await s.subscriptions.create({ customer: "cus_Carol", items: [{ price: "price_GrowthMonthly" }], discounts: [{ coupon: "FIVEOFF" }], expand: ["latest_invoice"] });
    const first = sub.latest_invoice as Stripe.Invoice;
    expect(first).toMatchObject({ subtotal: 9000, total: 8500, amount_paid: 8500, status: "paid" });
    expect((await diff(w)).entries.filter((e) => e.type === "discounts").map((e) => [e.op, e.customer])).toEqual([]);
    // FIVEOFF lasts once: spent by that invoice, and its only redemption is used up.
    expect((await s.subscriptions.retrieve(sub.id)).discounts).toEqual([]);
    expect((await s.coupons.retrieve("FIVEOFF")).valid).toBe(false);
    expect((await rejects(s.subscriptions.update("sub_Alice", { discounts: [{ coupon: "FIVEOFF" }] }))).param).toBe("discounts[0][coupon]");
    expect((await s.invoices.createPreview({ subscription: sub.id })).total).toBe(8100);
    const limited = await s.promotionCodes.create({ promotion: { type: "coupon", coupon: "LOYAL10" }, code: "BOBONLY", customer: "cus_Bob" });
    expect((await rejects(s.subscriptions.update("sub_Alice", { discounts: [{ promotion_code: limited.id }] }))).param).toBe("discounts[0][promotion_code]");
    expect((await rejects(s.subscriptions.update("sub_Alice", { discounts: [{ coupon: "NOPE" }] }))).code).toBe("resource_missing");
  });

  it("takes coupon and promotion_code on a customer before 2025-03-31 and deletes the customer's discount", async () => {
    const w = await createWorld(discountSeed());
    const old = client(w.key, { apiVersion: "2024-06-20" });
    const alice = await old.customers.update("cus_Alice", { coupon: "LOYAL10" } as Stripe.CustomerUpdateParams);
    expect(alice.discount).toMatchObject({ object: "discount", customer: "cus_Alice", coupon: { id: "LOYAL10", percent_off: 10 } });
    const current = client(w.key);
    expect((await rejects(current.customers.update("cus_Alice", { coupon: "LOYAL10" } as Stripe.CustomerUpdateParams))).code).toBe("parameter_unknown");
    const cur = (await current.customers.retrieve("cus_Alice")) as Stripe.Customer;
    expect(cur.discount?.source).toEqual({ coupon: "LOYAL10", type: "coupon" });
    // The preview inherits it; the pre-2025-03-31 subscription shows no discount of its own.
    expect((await current.invoices.createPreview({ subscription: "sub_Alice" })).total).toBe(2700);
    const gone = await current.customers.deleteDiscount("cus_Alice");
    expect(gone).toMatchObject({ object: "discount", deleted: true, customer: "cus_Alice" });
    expect(((await current.customers.retrieve("cus_Alice")) as Stripe.Customer).discount).toBeNull();
    expect((await rejects(current.customers.deleteDiscount("cus_Alice"))).statusCode).toBe(404);
    const sub = await raw(w, "POST", "/v1/subscriptions/sub_Bob", { params: { coupon: "LOYAL10" }, headers: { "stripe-version": "2020-08-27" } });
    expect(sub.body.discount).toMatchObject({ object: "discount", subscription: "sub_Bob", coupon: { id: "LOYAL10" } });
  });
});
