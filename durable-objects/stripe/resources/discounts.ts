// Discounts: a coupon (directly or through a promotion code) redeemed onto a customer or a subscription. The
// discount is its own object (di_...) and its owner carries it: a customer embeds it as `discount`, a
// subscription lists its ids in `discounts` (before 2025-03-31 also the first as `discount`). Redeeming counts
// against the coupon's and the code's caps; DELETE .../discount ends it. From 2025-09-30 the coupon sits under
// `source`; older versions embed the whole coupon as `coupon`.
import type { SeedDocument } from "../../../src/core/world/seed/schema";
import type { SeedContext, SeedRow } from "../../seed/rows";
import type { Store, StoredObject } from "../../store/store";
import { domainError, exclusiveParams, invalidParam, noSuch, noSuchParam, unknownParam } from "../errors";
import { array, emptyable, str, strict } from "../params";
import { route, type Resource, type StripeContext } from "../types";
import { CLOVER, isPreBasil, versionBefore } from "../versions";
import { addInterval } from "./billing-periods";
import { couponShape, couponSnapshot, couponValid } from "./coupons";
import { promotionCoupon } from "./promotion-codes";

export interface DiscountOwner {
  customer: string;
  subscription: string | null;
}

/** What a caller redeems: a coupon, a promotion code, or (subscriptions) an existing discount to keep. */
export interface DiscountSpec {
  coupon?: string;
  promotion_code?: string;
  discount?: string;
}

export function discountShape(f: { id: string; coupon: StoredObject; promotionCode: string | null; owner: DiscountOwner; start: number }): StoredObject {
  const months = f.coupon.duration === "repeating" ? Number(f.coupon.duration_in_months) : 0;
  return {
    id: f.id,
    object: "discount",
    checkout_session: null,
    customer: f.owner.customer,
    customer_account: null,
    end: months ? addInterval(f.start, "month", months) : null,
    invoice: null,
    invoice_item: null,
    promotion_code: f.promotionCode,
    source: { coupon: f.coupon.id, type: "coupon" },
    start: f.start,
    subscription: f.owner.subscription,
    subscription_item: null,
  };
}

export const couponIdOf = (d: StoredObject): string => String((d.source as { coupon: string }).coupon);

/** A seeded customer's coupon: its discount id follows from the customer's, so both seeders agree on it. */
export function seededCustomerDiscount(doc: SeedDocument, c: SeedDocument["data"]["customers"][number], ctx: SeedContext): StoredObject | null {
  if (!c.coupon) return null;
  const seed = (doc.data.coupons ?? []).find((x) => x.id === c.coupon);
  if (!seed) return null;
  const coupon = couponShape({ ...seed, created: seed.created ?? ctx.clock });
  return discountShape({ id: `di_${c.id.slice(4)}`, coupon, promotionCode: null, owner: { customer: c.id, subscription: null }, start: c.created ?? ctx.clock });
}

function seedDiscounts(doc: SeedDocument, ctx: SeedContext): SeedRow[] {
  return doc.data.customers.flatMap((c) => {
    const d = seededCustomerDiscount(doc, c, ctx);
    return d ? [{ type: "discounts" as const, obj: d, customer: c.id, created: Number(d.start) }] : [];
  });
}

/** Turns a coupon or promotion code into a new discount for `owner`, counting the redemption. */
export function redeem(store: Store, spec: DiscountSpec, owner: DiscountOwner, param: string, currency: string | null): StoredObject {
  const now = store.now();
  let promo: StoredObject | null = null;
  let couponId = spec.coupon;
  if (spec.coupon !== undefined && spec.promotion_code !== undefined) throw invalidParam("Pass a coupon or a promotion code, not both.", param);
  if (spec.promotion_code !== undefined) {
    const p = param || "promotion_code";
    promo = store.get("promotion_codes", spec.promotion_code);
    if (!promo) throw noSuchParam("promotion code", spec.promotion_code, p);
    if (promo.active !== true) throw invalidParam(`The promotion code ${String(promo.code)} is inactive and cannot be redeemed.`, p);
    if (promo.expires_at !== null && Number(promo.expires_at) <= now) throw invalidParam(`The promotion code ${String(promo.code)} has expired.`, p);
    if (promo.max_redemptions !== null && Number(promo.times_redeemed) >= Number(promo.max_redemptions))
      throw invalidParam(`The promotion code ${String(promo.code)} has reached its maximum number of redemptions.`, p);
    if (promo.customer !== null && promo.customer !== owner.customer) throw invalidParam(`The promotion code ${String(promo.code)} can only be redeemed by customer ${String(promo.customer)}.`, p);
    const r = promo.restrictions as { first_time_transaction: boolean };
    if (r.first_time_transaction && store.list("charges", { customer: owner.customer }).some((c) => c.status === "succeeded"))
      throw invalidParam(`The promotion code ${String(promo.code)} is only for customers who have never paid before.`, p);
    couponId = promotionCoupon(promo);
  }
  if (couponId === undefined) throw invalidParam("Pass a coupon or a promotion code to redeem.", param, "parameter_missing");
  const coupon = store.get("coupons", couponId);
  if (!coupon) throw noSuchParam("coupon", couponId, promo ? param : param || "coupon");
  if (!couponValid(coupon, now)) throw invalidParam(`Coupon ${coupon.id} is no longer valid: it has expired or reached its maximum number of redemptions.`, param || "coupon");
  if (coupon.amount_off !== null && currency && coupon.currency !== currency)
    throw invalidParam(`Coupon ${coupon.id} takes ${String(coupon.amount_off)} off in ${String(coupon.currency)}, but this bills in ${currency}.`, param || "coupon");
  const redeemed = { ...coupon, times_redeemed: Number(coupon.times_redeemed) + 1 };
  store.update("coupons", coupon.id, { ...redeemed, valid: couponValid(redeemed, now) });
  if (promo) store.update("promotion_codes", promo.id, { ...promo, times_redeemed: Number(promo.times_redeemed) + 1 });
  const d = discountShape({ id: store.newId("di"), coupon, promotionCode: promo?.id ?? null, owner, start: now });
  store.insert("discounts", d, owner.customer);
  return d;
}

/** Ends a discount; returns its deleted form. */
export function endDiscount(store: Store, id: string): StoredObject {
  const d = store.get("discounts", id);
  if (!d) throw noSuch("discount", id);
  const { end: _end, ...rest } = d;
  const stub = { ...rest, deleted: true };
  store.remove("discounts", id, stub);
  return stub;
}

/** Puts a customer's discount in place (replacing the one it had), as the older versions' `coupon` does. */
export function setCustomerDiscount(store: Store, customerId: string, spec: DiscountSpec | null, param: string): void {
  const c = store.get("customers", customerId);
  if (!c) throw noSuch("customer", customerId);
  const old = c.discount as StoredObject | null;
  const next = spec ? redeem(store, spec, { customer: customerId, subscription: null }, param, (c.currency as string | null) ?? null) : null;
  if (old) endDiscount(store, old.id);
  store.update("customers", customerId, { ...store.get("customers", customerId)!, discount: next });
}

/**
 * A subscription's discounts after `specs`: an existing discount named by id stays (its own or the customer's),
 * a coupon or promotion code is redeemed anew, and its former discounts not kept are ended. Returns the ids.
 */
export function replaceSubscriptionDiscounts(store: Store, sub: StoredObject, specs: DiscountSpec[] | null): string[] {
  const current = (sub.discounts as string[] | undefined) ?? [];
  const owner = { customer: String(sub.customer), subscription: sub.id };
  const keep: string[] = [];
  const ids = (specs ?? []).map((spec, i) => {
    const param = `discounts[${i}]`;
    if (spec.discount !== undefined) {
      if (spec.coupon !== undefined || spec.promotion_code !== undefined) throw invalidParam("A discount entry takes one of coupon, promotion_code or discount.", param);
      const customerDiscount = (store.get("customers", owner.customer)?.discount as StoredObject | null)?.id;
      if (!current.includes(spec.discount) && customerDiscount !== spec.discount) throw noSuchParam("discount", spec.discount, `${param}[discount]`);
      keep.push(spec.discount);
      return spec.discount;
    }
    return redeem(store, spec, owner, spec.promotion_code !== undefined ? `${param}[promotion_code]` : `${param}[coupon]`, String(sub.currency)).id;
  });
  if (new Set(ids).size !== ids.length) throw invalidParam("The same discount cannot be applied twice.", "discounts");
  for (const id of current) if (!keep.includes(id) && store.get("discounts", id)) endDiscount(store, id);
  return ids;
}

/** The discounts an invoice for `sub` gets: the subscription's own, else the customer's, as the API inherits them. */
export function activeDiscounts(store: Store, sub: StoredObject, at: number): StoredObject[] {
  const own = ((sub.discounts as string[] | undefined) ?? []).map((id) => store.get("discounts", id)).filter((d): d is StoredObject => !!d);
  const inherited = own.length ? own : [store.get("customers", String(sub.customer))?.discount as StoredObject | null].filter((d): d is StoredObject => !!d);
  return inherited.filter((d) => d.end === null || Number(d.end) > at);
}

/** A coupon of duration `once` is spent by the first invoice it discounts: its discount ends there. */
export function endOnceDiscounts(store: Store, applied: string[]): void {
  for (const id of applied) {
    const d = store.get("discounts", id);
    if (!d || store.get("coupons", couponIdOf(d), { includeDeleted: true })?.duration !== "once") continue;
    endDiscount(store, id);
    const owner = d.subscription ? store.get("subscriptions", String(d.subscription)) : store.get("customers", String(d.customer));
    if (!owner) continue;
    if (d.subscription) store.update("subscriptions", owner.id, { ...owner, discounts: ((owner.discounts as string[]) ?? []).filter((x) => x !== id) });
    else store.update("customers", owner.id, { ...owner, discount: null });
  }
}

/** A discount in the request's version: before 2025-09-30 the whole coupon, as `coupon`, instead of `source`. */
export function presentDiscount(d: StoredObject, ctx: StripeContext): StoredObject {
  if (!versionBefore(ctx.apiVersion, CLOVER)) return d;
  const { source: _source, subscription_item: _si, customer_account: _ca, ...rest } = d;
  return { ...rest, coupon: couponSnapshot(ctx.store, couponIdOf(d)) };
}

/** `discounts` in every version; the single coupon / promotion_code only before 2025-03-31 (legacyDiscount). */
export const discountParams = {
  discounts: emptyable(array(strict({ coupon: str().optional(), promotion_code: str().optional(), discount: str().optional() }))).optional(),
  coupon: str().optional(),
  promotion_code: str().optional(),
};

/** The discount specs a write asks for, or undefined when it leaves them alone; refuses what its version lacks. */
export function requestedDiscounts(ctx: StripeContext, a: { discounts?: DiscountSpec[] | null; coupon?: string; promotion_code?: string }): DiscountSpec[] | null | undefined {
  for (const k of ["coupon", "promotion_code"] as const) if (a[k] !== undefined && !isPreBasil(ctx.apiVersion)) throw unknownParam(k);
  if ([a.discounts, a.coupon, a.promotion_code].filter((x) => x !== undefined).length > 1) throw exclusiveParams(["coupon", "discounts", "promotion_code"]);
  if (a.coupon !== undefined) return a.coupon === "" ? null : [{ coupon: a.coupon }];
  if (a.promotion_code !== undefined) return [{ promotion_code: a.promotion_code }];
  return a.discounts;
}

function deleteCustomerDiscount(store: Store, customerId: string): StoredObject {
  const c = store.get("customers", customerId);
  if (!c) throw noSuch("customer", customerId);
  const d = c.discount as StoredObject | null;
  if (!d) throw domainError(`Customer ${customerId} has no discount to delete.`, "resource_missing", undefined, 404);
  const stub = endDiscount(store, d.id);
  store.update("customers", customerId, { ...store.get("customers", customerId)!, discount: null });
  return stub;
}

function deleteSubscriptionDiscount(store: Store, subId: string): StoredObject {
  const sub = store.get("subscriptions", subId);
  if (!sub) throw noSuch("subscription", subId);
  const ids = (sub.discounts as string[] | undefined) ?? [];
  if (!ids.length) throw domainError(`Subscription ${subId} has no discount to delete.`, "resource_missing", undefined, 404);
  // The subscription-level discounts all end; the answer is the first, the one older versions showed as `discount`.
  const ended = ids.map((id) => endDiscount(store, id));
  store.update("subscriptions", subId, { ...store.get("subscriptions", subId)!, discounts: [] });
  return ended[0];
}

export const discounts: Resource = {
  type: "discounts",
  object: "discount",
  prefix: "di",
  seed: seedDiscounts,
  expandable: ["customer", "promotion_code", "source.coupon"],
  present: presentDiscount,
  routes: [
    route("DELETE", "/v1/customers/:id/discount", strict({}), (ctx, _a, p) => deleteCustomerDiscount(ctx.store, p.id)),
    route("DELETE", "/v1/subscriptions/:id/discount", strict({}), (ctx, _a, p) => deleteSubscriptionDiscount(ctx.store, p.id)),
  ],
};
