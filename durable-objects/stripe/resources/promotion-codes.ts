// Promotion codes: customer-facing codes for a coupon. Create (a code of the caller's or a generated one, unique
// among active codes, optionally limited to one customer, a redemption cap, an expiry, first-time or minimum-amount
// restrictions), retrieve, update (active, metadata), list filtered by code, coupon, customer and active.
// From 2025-09-30 the coupon sits under `promotion`; older versions create and show it as `coupon`.
import type { z } from "zod";
import type { SeedDocument } from "../../../src/core/world/seed/schema";
import type { SeedContext, SeedRow } from "../../seed/rows";
import type { Store, StoredObject } from "../../store/store";
import { domainError, invalidParam, missingParam, noSuch, noSuchParam, unknownParam } from "../errors";
import { paginate } from "../list";
import { applyMetadata, bool, inRange, int, listShape, metadata, oneOf, range, str, strict, type MetadataParam } from "../params";
import { route, type Resource, type StripeContext } from "../types";
import { CLOVER, versionBefore } from "../versions";
import { couponSnapshot } from "./coupons";

interface PromotionFields {
  id: string;
  code: string;
  coupon: string;
  created: number;
  active?: boolean;
  customer?: string | null;
  expires_at?: number | null;
  max_redemptions?: number | null;
  metadata?: Record<string, string>;
  restrictions?: { first_time_transaction?: boolean; minimum_amount?: number | null; minimum_amount_currency?: string | null };
}

export function promotionCodeShape(f: PromotionFields): StoredObject {
  return {
    id: f.id,
    object: "promotion_code",
    active: f.active ?? true,
    code: f.code,
    created: f.created,
    customer: f.customer ?? null,
    customer_account: null,
    expires_at: f.expires_at ?? null,
    livemode: false,
    max_redemptions: f.max_redemptions ?? null,
    metadata: f.metadata ?? {},
    promotion: { coupon: f.coupon, type: "coupon" },
    restrictions: {
      first_time_transaction: f.restrictions?.first_time_transaction ?? false,
      minimum_amount: f.restrictions?.minimum_amount ?? null,
      minimum_amount_currency: f.restrictions?.minimum_amount_currency ?? null,
    },
    times_redeemed: 0,
  };
}

const couponOf = (p: StoredObject) => String((p.promotion as { coupon: string }).coupon);

function seedPromotionCodes(doc: SeedDocument, ctx: SeedContext): SeedRow[] {
  return (doc.data.promotion_codes ?? []).map((p) => {
    const created = p.created ?? ctx.clock;
    const { minimum_amount, first_time_transaction, ...rest } = p;
    const restrictions = { first_time_transaction, minimum_amount: minimum_amount ?? null, minimum_amount_currency: minimum_amount !== undefined ? doc.currency : null };
    return { type: "promotion_codes", obj: promotionCodeShape({ ...rest, created, restrictions }), customer: p.customer ?? null, created };
  });
}

const restrictionsParam = strict({
  first_time_transaction: bool().optional(),
  minimum_amount: int({ min: 1 }).optional(),
  minimum_amount_currency: str().optional(),
});

const createParams = strict({
  promotion: strict({ type: oneOf(["coupon"]), coupon: str().optional() }).optional(),
  coupon: str().optional(),
  code: str().optional(),
  active: bool().optional(),
  customer: str().optional(),
  expires_at: int().optional(),
  max_redemptions: int({ min: 1 }).optional(),
  metadata: metadata().optional(),
  restrictions: restrictionsParam.optional(),
});

/** What a customer types: letters and digits, up to 500 characters, as the API accepts. */
const CODE = /^[A-Za-z0-9]{1,500}$/;

function createPromotionCode(ctx: StripeContext, a: z.output<typeof createParams>): StoredObject {
  const store = ctx.store;
  const legacy = versionBefore(ctx.apiVersion, CLOVER);
  // Each version accepts only its own spelling of the coupon.
  if (legacy && a.promotion !== undefined) throw unknownParam("promotion");
  if (!legacy && a.coupon !== undefined) throw unknownParam("coupon");
  const couponId = legacy ? a.coupon : a.promotion?.coupon;
  if (couponId === undefined) throw missingParam(legacy ? "coupon" : a.promotion ? "promotion[coupon]" : "promotion");
  const coupon = store.get("coupons", couponId);
  if (!coupon) throw noSuchParam("coupon", couponId, legacy ? "coupon" : "promotion[coupon]");
  if (a.customer !== undefined && !store.get("customers", a.customer)) throw noSuchParam("customer", a.customer, "customer");
  const now = store.now();
  if (a.expires_at !== undefined) {
    if (a.expires_at <= now) throw invalidParam("expires_at must be in the future.", "expires_at");
    if (coupon.redeem_by !== null && a.expires_at > Number(coupon.redeem_by))
      throw invalidParam("The promotion code's expires_at may not be later than its coupon's redeem_by.", "expires_at");
  }
  if (a.max_redemptions !== undefined && coupon.max_redemptions !== null && a.max_redemptions > Number(coupon.max_redemptions))
    throw invalidParam("The promotion code's max_redemptions may not exceed its coupon's max_redemptions.", "max_redemptions");
  const r = a.restrictions;
  if (r?.minimum_amount !== undefined && r.minimum_amount_currency === undefined) throw missingParam("restrictions[minimum_amount_currency]");
  if (r?.minimum_amount_currency !== undefined && r.minimum_amount === undefined) throw missingParam("restrictions[minimum_amount]");
  const id = store.newId("promo");
  const code = a.code ?? id.slice("promo_".length, "promo_".length + 8).toUpperCase();
  if (!CODE.test(code)) throw invalidParam(`Invalid code: ${code}. A promotion code may contain only letters and digits.`, "code");
  const active = a.active ?? true;
  if (active && activeWithCode(store, code)) throw domainError(`An active promotion code with the code ${code} already exists.`, "promotion_code_already_exists", "code");
  const promo = promotionCodeShape({
    id,
    code,
    coupon: couponId,
    created: now,
    active,
    customer: a.customer ?? null,
    expires_at: a.expires_at ?? null,
    max_redemptions: a.max_redemptions ?? null,
    metadata: applyMetadata({}, a.metadata as MetadataParam | undefined),
    restrictions: { first_time_transaction: r?.first_time_transaction, minimum_amount: r?.minimum_amount ?? null, minimum_amount_currency: r?.minimum_amount_currency?.toLowerCase() ?? null },
  });
  store.insert("promotion_codes", promo, a.customer ?? null);
  return promo;
}

/** Codes are matched without regard to case, as customers type them. */
function activeWithCode(store: Store, code: string): StoredObject | undefined {
  return store.list("promotion_codes").find((p) => p.active === true && String(p.code).toLowerCase() === code.toLowerCase());
}

export function requirePromotionCode(store: Store, id: string): StoredObject {
  const p = store.get("promotion_codes", id);
  if (!p) throw noSuch("promotion code", id);
  return p;
}

const updateParams = strict({ active: bool().optional(), metadata: metadata().optional() });

function updatePromotionCode(store: Store, id: string, a: z.output<typeof updateParams>): StoredObject {
  const p = requirePromotionCode(store, id);
  const next: StoredObject = { ...p, metadata: applyMetadata(p.metadata as Record<string, string>, a.metadata as MetadataParam | undefined) };
  if (a.active === true && p.active !== true) {
    if (!store.get("coupons", couponOf(p))) throw domainError(`Promotion code ${id} cannot be reactivated: its coupon ${couponOf(p)} was deleted.`, undefined, "active");
    const clash = activeWithCode(store, String(p.code));
    if (clash) throw domainError(`An active promotion code with the code ${String(p.code)} already exists (${clash.id}).`, "promotion_code_already_exists", "active");
  }
  if (a.active !== undefined) next.active = a.active;
  return store.update("promotion_codes", id, next);
}

const listParams = strict({
  ...listShape,
  active: bool().optional(),
  code: str().optional(),
  coupon: str().optional(),
  customer: str().optional(),
  created: range().optional(),
});

function listPromotionCodes(ctx: StripeContext, a: z.output<typeof listParams>) {
  const items = ctx.store.list("promotion_codes", a.customer !== undefined ? { customer: a.customer } : {}).filter(
    (p) =>
      (a.active === undefined || p.active === a.active) &&
      (a.code === undefined || String(p.code).toLowerCase() === a.code.toLowerCase()) &&
      (a.coupon === undefined || couponOf(p) === a.coupon) &&
      inRange(p.created, a.created),
  );
  return paginate(items, a, "/v1/promotion_codes", "promotion code", (id) => ctx.store.get("promotion_codes", id));
}

/** Before 2025-09-30 a promotion code carried its whole coupon as `coupon`. */
function presentPromotionCode(p: StoredObject, ctx: StripeContext): StoredObject {
  if (!versionBefore(ctx.apiVersion, CLOVER)) return p;
  const { promotion: _promotion, ...rest } = p;
  return { ...rest, coupon: couponSnapshot(ctx.store, couponOf(p)) };
}

export const promotionCodes: Resource = {
  type: "promotion_codes",
  object: "promotion_code",
  prefix: "promo",
  seed: seedPromotionCodes,
  expandable: ["customer", "promotion.coupon"],
  present: presentPromotionCode,
  routes: [
    route("POST", "/v1/promotion_codes", createParams, createPromotionCode),
    route("GET", "/v1/promotion_codes", listParams, listPromotionCodes),
    route("GET", "/v1/promotion_codes/:id", strict({}), (ctx, _a, p) => requirePromotionCode(ctx.store, p.id)),
    route("POST", "/v1/promotion_codes/:id", updateParams, (ctx, a, p) => updatePromotionCode(ctx.store, p.id, a)),
  ],
};

export { couponOf as promotionCoupon };
