// Starting a subscription (POST /v1/subscriptions: its first period billed at once, or a trial), resuming a
// paused one (POST /v1/subscriptions/:id/resume: a new period from now, billed) and changing one item
// (POST /v1/subscription_items/:id, the same rules as items[] on the subscription update).
import { z } from "zod";
import type { Store, StoredObject } from "../../store/store";
import { domainError, invalidParam, missingParam, noSuch } from "../errors";
import { applyMetadata, array, bool, emptyable, idStr, int, metadata, oneOf, str, strict } from "../params";
import { route, type Route } from "../types";
import { addInterval, type Interval } from "./billing-periods";
import { requireCustomer } from "./customer-balance";
import { discountParams, replaceSubscriptionDiscounts, requestedDiscounts, type DiscountSpec } from "./discounts";
import { createInvoiceItem } from "./invoice-items";
import { invoicePendingItems } from "./subscription-invoice";
import { itemShape, productName, requirePriceFor, requireSub, subscriptionShape, updateSubscription, type Item, type SeedSubscription, type Sub } from "./subscriptions";

const DAY = 86_400;
// Not imported from subscriptions.ts: that module imports this one, and the schemas below are built at load.
const PRORATION = ["always_invoice", "create_prorations", "none"] as const;

const createParams = strict({
  ...discountParams,
  customer: str(),
  items: array(strict({ price: idStr(), quantity: int({ min: 0 }).optional(), metadata: metadata().optional() })),
  metadata: metadata().optional(),
  description: str().optional(),
  collection_method: oneOf(["charge_automatically", "send_invoice"]).optional(),
  days_until_due: int({ min: 0 }).optional(),
  cancel_at_period_end: bool().optional(),
  default_payment_method: str().optional(),
  trial_period_days: int({ min: 0, max: 730 }).optional(),
  trial_end: str().optional(),
  payment_behavior: oneOf(["allow_incomplete", "default_incomplete", "error_if_incomplete", "pending_if_incomplete"]).optional(),
  proration_behavior: oneOf(PRORATION).optional(),
});

const intervalOf = (price: StoredObject) => (price.recurring as { interval: Interval; interval_count: number } | null) ?? { interval: "month" as Interval, interval_count: 1 };

/** Bills each item's period [start, end) as invoice items and invoices them: the way a period starts. */
function billPeriod(store: Store, sub: Sub, reason: "subscription_create" | "subscription_update"): void {
  for (const it of sub.items.data) {
    const { interval } = intervalOf(it.price);
    createInvoiceItem(store, {
      customer: sub.customer,
      currency: sub.currency,
      amount: Number(it.price.unit_amount ?? 0) * it.quantity,
      description: `${it.quantity} × ${productName(store, it.price)} (per ${interval})`,
      price: it.price,
      quantity: it.quantity,
      period: { start: it.current_period_start, end: it.current_period_end },
      subscription: sub.id,
      subscriptionItem: it.id,
      proration: false,
    });
  }
  invoicePendingItems(store, store.get("subscriptions", sub.id)!, reason);
}

function createSubscription(store: Store, a: z.output<typeof createParams>, discounts: DiscountSpec[] | null | undefined): StoredObject {
  requireCustomer(store, a.customer);
  if (!a.items.length) throw missingParam("items");
  if (a.collection_method === "send_invoice" && a.days_until_due === undefined) throw missingParam("days_until_due");
  const now = store.now();
  const id = store.newId("sub");
  const first = store.get("prices", a.items[0].price);
  const currency = String(first?.currency ?? store.meta("currency") ?? "usd");
  const probe = { id, currency } as Sub;
  let trialEnd: number | null = null;
  if (a.trial_end !== undefined && a.trial_period_days !== undefined) throw invalidParam("You may only specify one of these parameters: trial_end, trial_period_days.", "trial_end", "parameters_exclusive");
  if (a.trial_period_days) trialEnd = now + a.trial_period_days * DAY;
  if (a.trial_end !== undefined && a.trial_end !== "now") {
    if (!/^\d+$/.test(a.trial_end)) throw invalidParam(`Invalid trial_end: must be an integer Unix timestamp or \`now\` (got ${a.trial_end}).`, "trial_end");
    trialEnd = Number(a.trial_end);
    if (trialEnd <= now) throw invalidParam("Invalid timestamp: must be an integer Unix timestamp in the future.", "trial_end");
  }
  const items: Item[] = a.items.map((spec, i) => {
    const price = requirePriceFor(store, probe, spec.price, `items[${i}][price]`);
    if (a.items.findIndex((x) => x.price === spec.price) !== i) throw invalidParam(`Cannot add multiple subscription items with the same price: ${price.id}.`, `items[${i}][price]`);
    const { interval, interval_count } = intervalOf(price);
    return itemShape({
      id: store.newId("si"),
      subscription: id,
      price,
      quantity: spec.quantity ?? 1,
      created: now,
      start: now,
      end: trialEnd ?? addInterval(now, interval, interval_count),
      metadata: applyMetadata({}, spec.metadata),
    });
  });
  const seedLike = {
    id,
    customer: a.customer,
    status: trialEnd ? "trialing" : "active",
    items: [],
    metadata: applyMetadata({}, a.metadata),
    description: a.description,
    collection_method: a.collection_method,
    cancel_at_period_end: a.cancel_at_period_end,
    trial_start: trialEnd ? now : undefined,
    trial_end: trialEnd ?? undefined,
    billing_cycle_anchor: trialEnd ?? now,
    start_date: now,
  } as unknown as SeedSubscription;
  const sub: Sub = {
    ...subscriptionShape(seedLike, items, now, currency),
    days_until_due: a.collection_method === "send_invoice" ? (a.days_until_due ?? null) : null,
    default_payment_method: a.default_payment_method ?? null,
  };
  store.insert("subscriptions", sub, a.customer);
  // Redeemed once the subscription exists (a discount names it), before its first invoice so that invoice gets them.
  if (discounts?.length) store.update("subscriptions", id, { ...sub, discounts: replaceSubscriptionDiscounts(store, sub, discounts) });
  // A trial bills nothing until it ends; otherwise the first period is invoiced (and collected) now.
  if (!trialEnd) billPeriod(store, store.get<Sub>("subscriptions", id)!, "subscription_create");
  return store.get("subscriptions", id)!;
}

const ANCHOR = ["now", "unchanged"] as const;
const resumeParams = strict({
  // A bare value in older versions, a hash with its type in current ones.
  billing_cycle_anchor: z.union([oneOf(ANCHOR), strict({ type: oneOf(ANCHOR) }).transform((h) => h.type)]).optional(),
  payment_behavior: oneOf(["resume_on_payment_attempt", "resume_on_payment_success"]).optional(),
  proration_behavior: oneOf(PRORATION).optional(),
  proration_date: int().optional(),
});

function resumeSubscription(store: Store, id: string, a: z.output<typeof resumeParams>): StoredObject {
  const sub = requireSub(store, id);
  if (sub.status !== "paused") throw domainError(`Subscription ${id} is not paused (its status is ${sub.status}); only a paused subscription can be resumed.`, "subscription_not_paused");
  const now = store.now();
  const restart = a.billing_cycle_anchor !== "unchanged";
  const items = sub.items.data.map((it) => {
    if (!restart) return it;
    const { interval, interval_count } = intervalOf(it.price);
    return { ...it, current_period_start: now, current_period_end: addInterval(now, interval, interval_count) };
  });
  const next: Sub = { ...sub, status: "active", pause_collection: null, billing_cycle_anchor: restart ? now : sub.billing_cycle_anchor, items: { ...sub.items, data: items } };
  store.update("subscriptions", id, next);
  if (restart && a.proration_behavior !== "none") billPeriod(store, next, "subscription_update");
  return store.get("subscriptions", id)!;
}

const itemUpdateParams = strict({
  price: idStr().optional(),
  quantity: int({ min: 0 }).optional(),
  metadata: metadata().optional(),
  proration_behavior: oneOf(PRORATION).optional(),
  proration_date: int().optional(),
  payment_behavior: oneOf(["allow_incomplete", "default_incomplete", "error_if_incomplete", "pending_if_incomplete"]).optional(),
  off_session: bool().optional(),
  tax_rates: emptyable(array(str())).optional(),
});

function findItem(store: Store, id: string): { sub: Sub; item: Item } {
  const sub = store.list<Sub>("subscriptions").find((s) => s.items.data.some((it) => it.id === id));
  const item = sub?.items.data.find((it) => it.id === id);
  if (!sub || !item) throw noSuch("subscription item", id, "item");
  return { sub, item };
}

export const subscriptionLifecycleRoutes: Route[] = [
  route("POST", "/v1/subscriptions", createParams, (ctx, a) => createSubscription(ctx.store, a, requestedDiscounts(ctx, a))),
  route("POST", "/v1/subscriptions/:id/resume", resumeParams, (ctx, a, p) => resumeSubscription(ctx.store, p.id, a)),
  route("POST", "/v1/subscription_items/:id", itemUpdateParams, (ctx, a, p) => {
    const { sub } = findItem(ctx.store, p.id);
    if (a.tax_rates !== undefined && a.tax_rates !== null && a.tax_rates.length) throw invalidParam("This billing world has no tax rates; tax_rates can only be cleared.", "tax_rates");
    const updated = updateSubscription(ctx.store, sub.id, {
      items: [{ id: p.id, price: a.price, quantity: a.quantity, metadata: a.metadata }],
      proration_behavior: a.proration_behavior,
      proration_date: a.proration_date,
      payment_behavior: a.payment_behavior,
    }) as Sub;
    return updated.items.data.find((it) => it.id === p.id)!;
  }),
];
