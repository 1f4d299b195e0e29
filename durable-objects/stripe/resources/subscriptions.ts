// Subscriptions: retrieve, list (status filter; canceled ones only on request), update (cancel at period end,
// cancel_at, plan and quantity changes that keep the item id, prorations), cancel now (DELETE), search.
// Items are embedded in the subscription as the API returns them; each carries its own billing period.
import type { z } from "zod";
import type { SeedDocument } from "../../../src/core/world/seed/schema";
import type { SeedContext, SeedRow } from "../../seed/rows";
import type { Store, StoredObject } from "../../store/store";
import { domainError, exclusiveParams, invalidParam, missingParam, noSuch, noSuchParam, unknownParam } from "../errors";
import { paginate } from "../list";
import { applyMetadata, array, bool, emptyable, idStr, inRange, int, listShape, metadata, oneOf, range, searchShape, str, strict } from "../params";
import { searchPage } from "../search";
import { route, type Resource, type StripeContext } from "../types";
import { isPreBasil } from "../versions";
import { addInterval, prorate, shortDate, type Interval } from "./billing-periods";
import { discountParams, presentDiscount, replaceSubscriptionDiscounts, requestedDiscounts, type DiscountSpec } from "./discounts";
import { createInvoiceItem } from "./invoice-items";
import { seedPriceObjects } from "./prices";
import { invoicePendingItems } from "./subscription-invoice";
import { subscriptionLifecycleRoutes } from "./subscription-lifecycle";

export type Item = StoredObject & {
  price: StoredObject;
  quantity: number;
  current_period_start: number;
  current_period_end: number;
  metadata: Record<string, string>;
};
export type Sub = StoredObject & {
  status: string;
  customer: string;
  currency: string;
  items: { object: "list"; data: Item[]; has_more: boolean; total_count: number; url: string };
  metadata: Record<string, string>;
};

const FEEDBACK = ["customer_service", "low_quality", "missing_features", "other", "switched_service", "too_complex", "too_expensive", "unused"] as const;
export const PRORATION = ["always_invoice", "create_prorations", "none"] as const;
type ProrationBehavior = (typeof PRORATION)[number];

/** The legacy `plan` object every subscription item still carries, derived from its price. */
export function planFromPrice(price: StoredObject): StoredObject {
  const rec = (price.recurring as { interval: string; interval_count: number; usage_type: string; meter: string | null; trial_period_days: number | null } | null) ?? null;
  return {
    id: price.id,
    object: "plan",
    active: price.active,
    amount: price.unit_amount,
    amount_decimal: price.unit_amount_decimal,
    billing_scheme: price.billing_scheme,
    created: price.created,
    currency: price.currency,
    interval: rec?.interval ?? null,
    interval_count: rec?.interval_count ?? null,
    livemode: false,
    metadata: price.metadata,
    meter: rec?.meter ?? null,
    nickname: price.nickname,
    product: price.product,
    tiers_mode: null,
    transform_usage: null,
    trial_period_days: rec?.trial_period_days ?? null,
    usage_type: rec?.usage_type ?? "licensed",
  };
}

export function itemShape(f: { id: string; subscription: string; price: StoredObject; quantity: number; created: number; start: number; end: number; metadata?: Record<string, string> }): Item {
  return {
    id: f.id,
    object: "subscription_item",
    billing_thresholds: null,
    created: f.created,
    current_period_end: f.end,
    current_period_start: f.start,
    current_trial: null,
    discounts: [],
    metadata: f.metadata ?? {},
    plan: planFromPrice(f.price),
    price: f.price,
    quantity: f.quantity,
    subscription: f.subscription,
    tax_rates: [],
  };
}

const itemsUrl = (subId: string) => `/v1/subscription_items?subscription=${subId}`;

export type SeedSubscription = SeedDocument["data"]["subscriptions"][number];

export function subscriptionShape(s: SeedSubscription, items: Item[], created: number, currency: string): Sub {
  return {
    id: s.id,
    object: "subscription",
    application: null,
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: s.billing_cycle_anchor ?? items[0].current_period_start,
    billing_cycle_anchor_config: null,
    billing_mode: { flexible: null, type: "classic" },
    billing_schedules: [],
    billing_thresholds: null,
    cancel_at: s.cancel_at ?? (s.cancel_at_period_end ? periodEnd(items) : null),
    cancel_at_period_end: s.cancel_at_period_end ?? false,
    canceled_at: s.canceled_at ?? null,
    cancellation_details: { comment: null, feedback: null, feedback_option: null, reason: s.canceled_at || s.cancel_at_period_end ? "cancellation_requested" : null },
    collection_method: s.collection_method ?? "charge_automatically",
    created,
    currency,
    customer: s.customer,
    customer_account: null,
    days_until_due: s.collection_method === "send_invoice" ? 30 : null,
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: s.description ?? null,
    discounts: [],
    ended_at: s.ended_at ?? (s.status === "canceled" ? (s.canceled_at ?? null) : null),
    invoice_settings: { account_tax_ids: null, custom_fields: null, description: null, footer: null, issuer: { type: "self" } },
    items: { object: "list", data: items, has_more: false, total_count: items.length, url: itemsUrl(s.id) },
    latest_invoice: s.latest_invoice ?? null,
    livemode: false,
    managed_payments: null,
    metadata: s.metadata ?? {},
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: { payment_method_options: null, payment_method_types: null, save_default_payment_method: "off" },
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule: null,
    start_date: s.start_date ?? created,
    status: s.status,
    test_clock: null,
    transfer_data: null,
    trial_end: s.trial_end ?? null,
    trial_settings: { end_behavior: { billing_cycle_anchor: null, missing_payment_method: "create_invoice" } },
    trial_start: s.trial_start ?? null,
  };
}

function seedSubscriptions(doc: SeedDocument, ctx: SeedContext): SeedRow[] {
  const prices = seedPriceObjects(doc, ctx);
  return doc.data.subscriptions.map((s) => {
    const created = s.created ?? s.start_date ?? ctx.clock;
    const items = s.items.map((it) =>
      itemShape({
        id: it.id,
        subscription: s.id,
        price: prices.get(it.price)!,
        quantity: it.quantity ?? 1,
        created: it.created ?? created,
        start: it.current_period_start,
        end: it.current_period_end,
        metadata: it.metadata,
      }),
    );
    const currency = s.currency ?? (prices.get(s.items[0].price)?.currency as string | undefined) ?? doc.currency;
    return { type: "subscriptions", obj: subscriptionShape(s, items, created, currency), customer: s.customer, created };
  });
}

/** The subscription's current period end: the earliest among its items (what the list filter compares). */
function periodEnd(items: Item[]): number {
  return Math.min(...items.map((i) => i.current_period_end));
}
function periodStart(items: Item[]): number {
  return Math.min(...items.map((i) => i.current_period_start));
}

export function requireSub(store: Store, id: string): Sub {
  const s = store.get<Sub>("subscriptions", id);
  if (!s) throw noSuch("subscription", id);
  return s;
}

function withItems(sub: Sub, items: Item[]): Sub {
  return { ...sub, items: { ...sub.items, data: items, total_count: items.length } };
}

/** Cancels immediately: status canceled, canceled_at and ended_at at the world clock. */
export function cancelSubscriptionNow(
  store: Store,
  sub: StoredObject,
  details: { reason?: string; comment?: string | null; feedback?: string | null } = {},
): StoredObject {
  const now = store.now();
  const prev = (sub.cancellation_details as Record<string, unknown>) ?? {};
  const next = {
    ...sub,
    status: "canceled",
    canceled_at: now,
    ended_at: now,
    cancellation_details: {
      comment: details.comment !== undefined ? details.comment : (prev.comment ?? null),
      feedback: details.feedback !== undefined ? details.feedback : (prev.feedback ?? null),
      feedback_option: prev.feedback_option ?? null,
      reason: details.reason ?? "cancellation_requested",
    },
  };
  return store.update("subscriptions", sub.id, next);
}

export function productName(store: Store, price: StoredObject): string {
  const p = store.get("products", String(price.product));
  return p ? String(p.name) : String(price.nickname ?? price.id);
}

/** Credit for the unused time of `old` and a charge for the remaining time of `next`, from `at` to the period end. */
function prorationItems(store: Store, sub: Sub, old: Item, next: Item | null, at: number): void {
  const end = old.current_period_end;
  const start = old.current_period_start;
  const when = shortDate(at);
  const credit = prorate(Number(old.price.unit_amount) * old.quantity, start, end, at);
  if (credit > 0)
    createInvoiceItem(store, {
      customer: sub.customer,
      currency: sub.currency,
      amount: -credit,
      description: `Unused time on ${old.quantity > 1 ? `${old.quantity} × ` : ""}${productName(store, old.price)} after ${when}`,
      price: old.price,
      quantity: old.quantity,
      period: { start: at, end },
      subscription: sub.id,
      subscriptionItem: old.id,
      proration: true,
    });
  if (!next) return;
  const charge = prorate(Number(next.price.unit_amount) * next.quantity, next.current_period_start, next.current_period_end, at);
  if (charge > 0)
    createInvoiceItem(store, {
      customer: sub.customer,
      currency: sub.currency,
      amount: charge,
      description: `Remaining time on ${next.quantity > 1 ? `${next.quantity} × ` : ""}${productName(store, next.price)} after ${when}`,
      price: next.price,
      quantity: next.quantity,
      period: { start: at, end: next.current_period_end },
      subscription: sub.id,
      subscriptionItem: next.id,
      proration: true,
    });
}

export function requirePriceFor(store: Store, sub: Sub, id: string, param: string): StoredObject {
  const price = store.get("prices", id);
  if (!price) throw noSuchParam("price", id, param);
  if (!price.active) throw invalidParam(`The price specified (${id}) is inactive. This field only accepts active prices.`, param);
  if (price.type !== "recurring")
    throw invalidParam(`The price specified (${id}) is set to \`type=one_time\` but this field only accepts prices with \`type=recurring\`.`, param);
  if (price.currency !== sub.currency)
    throw invalidParam(`The price specified (${id}) is in ${String(price.currency)}, but this subscription bills in ${sub.currency}; all items must share one currency.`, param);
  return price;
}

const itemParam = strict({
  id: idStr().optional(),
  price: idStr().optional(),
  quantity: int({ min: 0 }).optional(),
  deleted: bool().optional(),
  clear_usage: bool().optional(),
  metadata: metadata().optional(),
});

const updateParams = strict({
  ...discountParams,
  cancel_at: emptyable(int()).optional(),
  cancel_at_period_end: bool().optional(),
  cancellation_details: strict({ comment: emptyable(str()).optional(), feedback: emptyable(oneOf(FEEDBACK)).optional() }).optional(),
  collection_method: oneOf(["charge_automatically", "send_invoice"]).optional(),
  days_until_due: int({ min: 0 }).optional(),
  default_payment_method: emptyable(str()).optional(),
  description: emptyable(str()).optional(),
  items: array(itemParam).optional(),
  metadata: metadata().optional(),
  pause_collection: emptyable(strict({ behavior: oneOf(["keep_as_draft", "mark_uncollectible", "void"]), resumes_at: int().optional() })).optional(),
  payment_behavior: oneOf(["allow_incomplete", "default_incomplete", "error_if_incomplete", "pending_if_incomplete"]).optional(),
  proration_behavior: oneOf(PRORATION).optional(),
  proration_date: int().optional(),
  trial_end: emptyable(str()).optional(),
});
type UpdateArgs = Omit<z.output<typeof updateParams>, "coupon" | "promotion_code" | "discounts"> & { discounts?: DiscountSpec[] | null };

const CANCELED_EDITABLE = new Set(["metadata", "cancellation_details"]);

export function updateSubscription(store: Store, id: string, a: UpdateArgs): StoredObject {
  let sub = requireSub(store, id);
  if (a.discounts !== undefined && sub.status !== "canceled" && sub.status !== "incomplete_expired") {
    sub = { ...sub, discounts: replaceSubscriptionDiscounts(store, sub, a.discounts) };
  }
  const now = store.now();
  if (sub.status === "canceled" || sub.status === "incomplete_expired") {
    const extra = Object.keys(a).filter((k) => !CANCELED_EDITABLE.has(k) && a[k as keyof UpdateArgs] !== undefined);
    if (extra.length) throw domainError(`A canceled subscription can only update its cancellation_details and metadata (got ${extra.join(", ")}).`, undefined, extra[0]);
  }
  if (a.cancel_at_period_end !== undefined && a.cancel_at !== undefined && a.cancel_at !== null && a.cancel_at_period_end)
    throw exclusiveParams(["cancel_at", "cancel_at_period_end"]);

  const behavior: ProrationBehavior = a.proration_behavior ?? "create_prorations";
  const at = a.proration_date ?? now;
  // A change of billing interval starts a new period now, which is billed now, as the real API does.
  let invoiceNow = behavior === "always_invoice";
  if (a.items?.length) {
    const changed = changeItems(store, sub, a.items, behavior, at, now);
    sub = changed.sub;
    invoiceNow ||= changed.resets && behavior !== "none";
  }

  const details = { ...((sub.cancellation_details as Record<string, unknown>) ?? {}) };
  if (a.cancellation_details?.comment !== undefined) details.comment = a.cancellation_details.comment;
  if (a.cancellation_details?.feedback !== undefined) details.feedback = a.cancellation_details.feedback;
  let next: Sub = { ...sub, cancellation_details: details, metadata: applyMetadata(sub.metadata, a.metadata) };

  if (a.cancel_at_period_end === true) {
    next = { ...next, cancel_at_period_end: true, cancel_at: periodEnd(next.items.data), canceled_at: now };
    (next.cancellation_details as Record<string, unknown>).reason = "cancellation_requested";
  } else if (a.cancel_at_period_end === false || a.cancel_at === null) {
    next = { ...next, cancel_at_period_end: false, cancel_at: null, canceled_at: null };
    (next.cancellation_details as Record<string, unknown>).reason = null;
  }
  if (typeof a.cancel_at === "number") {
    if (a.cancel_at <= now) throw invalidParam("cancel_at must be in the future.", "cancel_at");
    next = { ...next, cancel_at: a.cancel_at, cancel_at_period_end: a.cancel_at === periodEnd(next.items.data), canceled_at: now };
    (next.cancellation_details as Record<string, unknown>).reason = "cancellation_requested";
  }
  if (a.collection_method !== undefined) next.collection_method = a.collection_method;
  if (a.days_until_due !== undefined) next.days_until_due = a.days_until_due;
  if (next.collection_method === "send_invoice" && next.days_until_due === null) next.days_until_due = 30;
  if (next.collection_method === "charge_automatically") next.days_until_due = null;
  if (a.default_payment_method !== undefined) next.default_payment_method = a.default_payment_method;
  if (a.description !== undefined) next.description = a.description;
  if (a.pause_collection !== undefined)
    next.pause_collection = a.pause_collection ? { behavior: a.pause_collection.behavior, resumes_at: a.pause_collection.resumes_at ?? null } : null;
  if (a.trial_end !== undefined && a.trial_end !== null) next = endTrial(next, a.trial_end, now);
  const stored = store.update("subscriptions", id, next);
  if (invoiceNow && invoicePendingItems(store, stored, "subscription_update")) return store.get("subscriptions", id)!;
  return stored;
}

function endTrial(sub: Sub, value: string, now: number): Sub {
  // Ending a trial only means something while the subscription is trialing.
  if (value === "now") return sub.status === "trialing" ? { ...sub, trial_end: now, status: "active" } : sub;
  if (!/^\d+$/.test(value)) throw invalidParam(`Invalid trial_end: must be 'now' or a unix timestamp (got ${value}).`, "trial_end");
  const ts = Number(value);
  if (ts <= now) throw invalidParam("trial_end must be 'now' or a timestamp in the future.", "trial_end");
  return { ...sub, trial_end: ts, status: sub.status === "active" && sub.trial_start !== null ? "trialing" : sub.status };
}

/**
 * Applies items[]: with an id the item changes in place (same si_ id; quantity resets to 1 on a price change
 * unless given), `deleted` removes it, without an id a new item is added. Prorations follow proration_behavior.
 */
function changeItems(
  store: Store,
  sub: Sub,
  specs: Array<z.output<typeof itemParam>>,
  behavior: ProrationBehavior,
  at: number,
  now: number,
): { sub: Sub; resets: boolean } {
  let items = [...sub.items.data];
  const changed: Array<{ old: Item | null; next: Item | null }> = [];
  specs.forEach((spec, i) => {
    const p = (f: string) => `items[${i}][${f}]`;
    if (spec.id !== undefined) {
      const idx = items.findIndex((it) => it.id === spec.id);
      if (idx < 0) throw invalidParam(`No such subscription item: '${spec.id}'`, p("id"), "resource_missing");
      const old = items[idx];
      if (spec.deleted) {
        items.splice(idx, 1);
        changed.push({ old, next: null });
        return;
      }
      const price = spec.price !== undefined ? requirePriceFor(store, sub, spec.price, p("price")) : old.price;
      const priceChanged = price.id !== old.price.id;
      const quantity = spec.quantity ?? (priceChanged ? 1 : old.quantity);
      const next: Item = { ...old, price, plan: planFromPrice(price), quantity, metadata: applyMetadata(old.metadata, spec.metadata) };
      items[idx] = next;
      if (priceChanged || quantity !== old.quantity) changed.push({ old, next });
      return;
    }
    if (spec.deleted) throw missingParam(p("id"));
    if (spec.price === undefined) throw missingParam(p("price"));
    const price = requirePriceFor(store, sub, spec.price, p("price"));
    if (items.some((it) => it.price.id === price.id))
      throw invalidParam(`Cannot add multiple subscription items with the same price: ${price.id}. Change the existing item's quantity instead.`, p("price"));
    const next = itemShape({
      id: store.newId("si"),
      subscription: sub.id,
      price,
      quantity: spec.quantity ?? 1,
      created: now,
      start: periodStart(items.length ? items : sub.items.data),
      end: periodEnd(items.length ? items : sub.items.data),
      metadata: applyMetadata({}, spec.metadata),
    });
    items.push(next);
    changed.push({ old: null, next });
  });
  if (!items.length) throw invalidParam("A subscription must keep at least one item; cancel the subscription instead of deleting all its items.", "items");

  // A change of billing interval restarts the period now (the real API resets the billing cycle anchor).
  const interval = (it: Item) => (it.price.recurring as { interval: Interval; interval_count: number }) ?? { interval: "month", interval_count: 1 };
  const resets = changed.some(({ old, next }) => old && next && (interval(old).interval !== interval(next).interval || interval(old).interval_count !== interval(next).interval_count));
  let anchor = sub.billing_cycle_anchor;
  if (resets) {
    anchor = now;
    items = items.map((it) => ({ ...it, current_period_start: now, current_period_end: addInterval(now, interval(it).interval, interval(it).interval_count) }));
  }
  const updated = { ...withItems(sub, items), billing_cycle_anchor: anchor };
  if (behavior !== "none" && sub.status !== "trialing") {
    for (const { old, next } of changed) {
      const nextNow = next ? items.find((it) => it.id === next.id) ?? null : null;
      if (old) prorationItems(store, updated, old, nextNow, at);
      else if (nextNow) prorationItems(store, updated, { ...nextNow, quantity: 0 }, nextNow, at);
    }
  }
  return { sub: updated, resets };
}

const cancelParams = strict({
  invoice_now: bool().optional(),
  prorate: bool().optional(),
  cancellation_details: strict({ comment: emptyable(str()).optional(), feedback: emptyable(oneOf(FEEDBACK)).optional() }).optional(),
});

export function cancelSubscription(store: Store, id: string, a: z.output<typeof cancelParams>): StoredObject {
  const sub = requireSub(store, id);
  if (sub.status === "canceled" || sub.status === "incomplete_expired")
    throw domainError(`Subscription ${id} is already canceled; a canceled subscription cannot be canceled again.`, undefined, "id");
  const now = store.now();
  // prorate=true credits the unused time of every item to the customer's next invoice.
  if (a.prorate && sub.status !== "trialing") for (const it of sub.items.data) prorationItems(store, sub, it, null, now);
  // invoice_now bills what is pending for the subscription (its prorations) on a final invoice.
  if (a.invoice_now) invoicePendingItems(store, sub, "subscription_update");
  return cancelSubscriptionNow(store, store.get("subscriptions", id)!, { reason: "cancellation_requested", comment: a.cancellation_details?.comment, feedback: a.cancellation_details?.feedback });
}

const STATUSES = ["active", "all", "canceled", "ended", "incomplete", "incomplete_expired", "past_due", "paused", "trialing", "unpaid"] as const;
const listParams = strict({
  ...listShape,
  automatic_tax: strict({ enabled: bool() }).optional(),
  collection_method: oneOf(["charge_automatically", "send_invoice"]).optional(),
  created: range().optional(),
  current_period_end: range().optional(),
  current_period_start: range().optional(),
  customer: str().optional(),
  plan: str().optional(),
  price: str().optional(),
  status: oneOf(STATUSES).optional(),
  test_clock: str().optional(),
});

function statusMatches(status: unknown, filter: (typeof STATUSES)[number] | undefined): boolean {
  if (filter === undefined) return status !== "canceled";
  if (filter === "all") return true;
  if (filter === "ended") return status === "canceled" || status === "incomplete_expired";
  return status === filter;
}

function listSubscriptions(ctx: StripeContext, a: z.output<typeof listParams>) {
  const all = ctx.store.list<Sub>("subscriptions", a.customer !== undefined ? { customer: a.customer } : {});
  const items = all.filter(
    (s) =>
      statusMatches(s.status, a.status) &&
      (a.collection_method === undefined || s.collection_method === a.collection_method) &&
      (a.price === undefined || s.items.data.some((it) => it.price.id === a.price)) &&
      (a.plan === undefined || s.items.data.some((it) => it.price.id === a.plan)) &&
      (a.automatic_tax === undefined || a.automatic_tax.enabled === false) &&
      (a.test_clock === undefined || s.test_clock === a.test_clock) &&
      inRange(s.created, a.created) &&
      inRange(periodEnd(s.items.data), a.current_period_end) &&
      inRange(periodStart(s.items.data), a.current_period_start),
  );
  return paginate(items, a, "/v1/subscriptions", "subscription", (id) => ctx.store.get("subscriptions", id));
}

/** Before 2025-03-31.basil the billing period (and a single item's plan and quantity) sat on the subscription. */
function presentSubscription(sub: StoredObject, ctx: StripeContext): StoredObject {
  if (!isPreBasil(ctx.apiVersion)) return sub;
  const s = sub as Sub;
  const items = s.items.data;
  const single = items.length === 1 ? items[0] : null;
  return {
    ...s,
    current_period_end: periodEnd(items),
    current_period_start: periodStart(items),
    discount: firstDiscount(s, ctx),
    plan: single ? single.plan : null,
    quantity: single ? single.quantity : null,
  };
}

function firstDiscount(sub: Sub, ctx: StripeContext): StoredObject | null {
  const id = ((sub.discounts as string[] | undefined) ?? [])[0];
  const d = id ? ctx.store.get("discounts", id) : null;
  return d ? presentDiscount(d, ctx) : null;
}

export const subscriptions: Resource = {
  type: "subscriptions",
  object: "subscription",
  prefix: "sub",
  seed: seedSubscriptions,
  expandable: ["customer", "default_payment_method", "default_source", "discounts", "latest_invoice", "pending_setup_intent", "schedule", "test_clock"],
  searchFields: {
    created: { kind: "number" },
    status: { kind: "token" },
  },
  present: presentSubscription,
  routes: [
    route("GET", "/v1/subscriptions", listParams, listSubscriptions),
    route("GET", "/v1/subscriptions/search", strict(searchShape), (ctx, a) =>
      searchPage(ctx.store.list("subscriptions"), a, "/v1/subscriptions/search", subscriptions.searchFields!, "subscription"),
    ),
    route("GET", "/v1/subscriptions/:id", strict({}), (ctx, _a, p) => requireSub(ctx.store, p.id)),
    route("POST", "/v1/subscriptions/:id", updateParams, (ctx, a, p) => {
      const { coupon: _c, promotion_code: _p, discounts: _d, ...rest } = a;
      return updateSubscription(ctx.store, p.id, { ...rest, discounts: requestedDiscounts(ctx, a) });
    }),
    route("DELETE", "/v1/subscriptions/:id", cancelParams, (ctx, a, p) => cancelSubscription(ctx.store, p.id, a)),
    ...subscriptionLifecycleRoutes,
    // Subscription items live inside their subscription; these read them where the items list's url points.
    route("GET", "/v1/subscription_items", strict({ ...listShape, subscription: str() }), (ctx, a) => {
      const sub = requireSub(ctx.store, a.subscription);
      return paginate(sub.items.data, a, "/v1/subscription_items", "subscription item");
    }),
    route("GET", "/v1/subscription_items/:id", strict({}), (ctx, _a, p) => {
      const sub = ctx.store.list<Sub>("subscriptions", { includeDeleted: false }).find((s) => s.items.data.some((it) => it.id === p.id));
      const item = sub?.items.data.find((it) => it.id === p.id);
      if (!item) throw noSuch("subscription item", p.id);
      return item;
    }),
  ],
};

