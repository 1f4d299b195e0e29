// Coupons: create (percent or amount off, once / repeating / forever, a redemption cap and deadline), retrieve,
// update (name, metadata), delete (existing discounts keep working, as the real API does), list. A coupon's id
// is free-form (the caller may choose it), so it carries no prefix; the registry resolves unprefixed ids here.
import type { z } from "zod";
import type { SeedDocument } from "../../../src/core/world/seed/schema";
import type { SeedContext, SeedRow } from "../../seed/rows";
import type { Store, StoredObject } from "../../store/store";
import { domainError, exclusiveParams, invalidParam, missingParam, noSuch, noSuchParam } from "../errors";
import { paginate } from "../list";
import { applyMetadata, array, decimal, inRange, int, listShape, metadata, oneOf, range, str, strict, type MetadataParam } from "../params";
import { route, type Resource } from "../types";

const DURATIONS = ["forever", "once", "repeating"] as const;

export interface CouponFields {
  id: string;
  created: number;
  amount_off?: number | null;
  currency?: string | null;
  percent_off?: number | null;
  duration?: (typeof DURATIONS)[number];
  duration_in_months?: number | null;
  max_redemptions?: number | null;
  redeem_by?: number | null;
  name?: string | null;
  metadata?: Record<string, string>;
  applies_to?: { products: string[] } | null;
  times_redeemed?: number;
}

export function couponShape(f: CouponFields): StoredObject {
  const out: StoredObject = {
    id: f.id,
    object: "coupon",
    amount_off: f.amount_off ?? null,
    created: f.created,
    currency: f.currency ?? null,
    duration: f.duration ?? "once",
    duration_in_months: f.duration_in_months ?? null,
    livemode: false,
    max_redemptions: f.max_redemptions ?? null,
    metadata: f.metadata ?? {},
    name: f.name ?? null,
    percent_off: f.percent_off ?? null,
    redeem_by: f.redeem_by ?? null,
    times_redeemed: f.times_redeemed ?? 0,
    valid: true,
  };
  // The API includes applies_to only on a coupon restricted to products.
  if (f.applies_to) out.applies_to = f.applies_to;
  return { ...out, valid: couponValid(out, f.created) };
}

/** Redeemable now: under its redemption cap and before its deadline. Deleted coupons are gone from the store. */
export function couponValid(c: StoredObject, now: number): boolean {
  if (c.max_redemptions !== null && Number(c.times_redeemed) >= Number(c.max_redemptions)) return false;
  if (c.redeem_by !== null && Number(c.redeem_by) <= now) return false;
  return true;
}

function seedCoupons(doc: SeedDocument, ctx: SeedContext): SeedRow[] {
  return (doc.data.coupons ?? []).map((c) => {
    const created = c.created ?? ctx.clock;
    const obj = couponShape({ ...c, created, currency: c.amount_off !== undefined ? (c.currency ?? doc.currency) : null, applies_to: c.applies_to ?? null });
    return { type: "coupons", obj: { ...obj, valid: couponValid(obj, ctx.clock) }, customer: null, created };
  });
}

const createParams = strict({
  id: str().optional(),
  amount_off: int({ min: 1 }).optional(),
  currency: str().optional(),
  percent_off: decimal({ min: 0 }).optional(),
  duration: oneOf(DURATIONS).optional(),
  duration_in_months: int({ min: 1 }).optional(),
  max_redemptions: int({ min: 1 }).optional(),
  redeem_by: int().optional(),
  name: str().optional(),
  metadata: metadata().optional(),
  applies_to: strict({ products: array(str()).optional() }).optional(),
});

/** A coupon id a caller chooses: the characters the API allows in one. */
const COUPON_ID = /^[A-Za-z0-9_-]{1,200}$/;

export function createCoupon(store: Store, a: z.output<typeof createParams>): StoredObject {
  if (a.amount_off !== undefined && a.percent_off !== undefined) throw exclusiveParams(["amount_off", "percent_off"]);
  if (a.amount_off === undefined && a.percent_off === undefined) throw invalidParam("You must pass either amount_off or percent_off to create a coupon.", "amount_off", "parameter_missing");
  if (a.percent_off !== undefined && (a.percent_off <= 0 || a.percent_off > 100)) throw invalidParam("percent_off must be greater than 0 and at most 100.", "percent_off");
  if (a.amount_off !== undefined && a.currency === undefined) throw missingParam("currency");
  if (a.percent_off !== undefined && a.currency !== undefined) throw invalidParam("currency can only be passed with amount_off.", "currency");
  const duration = a.duration ?? "once";
  if (duration === "repeating" && a.duration_in_months === undefined) throw missingParam("duration_in_months");
  if (duration !== "repeating" && a.duration_in_months !== undefined)
    throw invalidParam("duration_in_months can only be set when duration is repeating.", "duration_in_months");
  const now = store.now();
  if (a.redeem_by !== undefined && a.redeem_by <= now) throw invalidParam("redeem_by must be in the future.", "redeem_by");
  for (const [i, p] of (a.applies_to?.products ?? []).entries()) if (!store.get("products", p)) throw noSuchParam("product", p, `applies_to[products][${i}]`);
  if (a.id !== undefined) {
    if (!COUPON_ID.test(a.id)) throw invalidParam(`Invalid coupon id: ${a.id}. Use letters, digits, dashes and underscores.`, "id");
    if (store.get("coupons", a.id, { includeDeleted: true }) && !store.isDeleted("coupons", a.id)) throw domainError("Coupon already exists.", "resource_already_exists", "id");
  }
  // The API's generated coupon ids are 8 letters and digits with no prefix.
  const id = a.id ?? store.newId("c").slice(2, 10).toUpperCase();
  const coupon = couponShape({
    id,
    created: now,
    amount_off: a.amount_off ?? null,
    currency: a.currency?.toLowerCase() ?? null,
    percent_off: a.percent_off ?? null,
    duration,
    duration_in_months: a.duration_in_months ?? null,
    max_redemptions: a.max_redemptions ?? null,
    redeem_by: a.redeem_by ?? null,
    name: a.name ?? null,
    metadata: applyMetadata({}, a.metadata as MetadataParam | undefined),
    applies_to: a.applies_to ? { products: a.applies_to.products ?? [] } : null,
  });
  if (store.isDeleted("coupons", id)) store.update("coupons", id, coupon);
  else store.insert("coupons", coupon, null);
  return coupon;
}

export function requireCoupon(store: Store, id: string): StoredObject {
  const c = store.get("coupons", id);
  if (!c) throw noSuch("coupon", id);
  return c;
}

const updateParams = strict({ name: str().optional(), metadata: metadata().optional() });

function updateCoupon(store: Store, id: string, a: z.output<typeof updateParams>): StoredObject {
  const c = requireCoupon(store, id);
  const next: StoredObject = { ...c, metadata: applyMetadata(c.metadata as Record<string, string>, a.metadata as MetadataParam | undefined) };
  if (a.name !== undefined) next.name = a.name === "" ? null : a.name;
  return store.update("coupons", id, next);
}

/** A deleted coupon stays readable where discounts and promotion codes show it (as no longer valid). */
function deleteCoupon(store: Store, id: string): StoredObject {
  const c = requireCoupon(store, id);
  store.remove("coupons", id, { ...c, valid: false, deleted: true });
  return { id, object: "coupon", deleted: true };
}

/** The coupon as discounts and promotion codes embed it, deleted or not. */
export function couponSnapshot(store: Store, id: string): StoredObject | string {
  const c = store.get("coupons", id, { includeDeleted: true });
  if (!c) return id;
  const { deleted: _deleted, ...rest } = c;
  return rest as StoredObject;
}

const listParams = strict({ ...listShape, created: range().optional() });

export const coupons: Resource = {
  type: "coupons",
  object: "coupon",
  prefix: "",
  seed: seedCoupons,
  routes: [
    route("POST", "/v1/coupons", createParams, (ctx, a) => createCoupon(ctx.store, a)),
    route("GET", "/v1/coupons", listParams, (ctx, a) =>
      paginate(ctx.store.list("coupons").filter((c) => inRange(c.created, a.created)), a, "/v1/coupons", "coupon", (id) => ctx.store.get("coupons", id)),
    ),
    route("GET", "/v1/coupons/:id", strict({}), (ctx, _a, p) => requireCoupon(ctx.store, p.id)),
    route("POST", "/v1/coupons/:id", updateParams, (ctx, a, p) => updateCoupon(ctx.store, p.id, a)),
    route("DELETE", "/v1/coupons/:id", strict({}), (ctx, _a, p) => deleteCoupon(ctx.store, p.id)),
  ],
};
