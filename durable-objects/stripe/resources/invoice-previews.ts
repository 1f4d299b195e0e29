// The next invoice a subscription will bill, without billing it: POST /v1/invoices/create_preview (current
// versions) and GET /v1/invoices/upcoming with its lines (the older endpoint, gone since 2025-03-31). The
// preview holds each item's next period at its price and quantity plus the pending invoice items (prorations)
// waiting for that invoice, with the customer's balance applied; nothing is written.
import type { Store, StoredObject } from "../../store/store";
import { domainError, invalidParam, noSuchParam } from "../errors";
import { paginate } from "../list";
import { listShape, str, strict } from "../params";
import { route, type Route, type StripeContext } from "../types";
import { isPreBasil } from "../versions";
import { addInterval, type Interval } from "./billing-periods";
import { requireCustomer } from "./customer-balance";
import { endingBalance, type InvoiceDoc } from "./money/invoice-math";
import { invoiceDocument } from "./money/invoice-doc";
import { legacyLine } from "./money/invoice-present";
import { applyDiscounts, withDiscountFigures } from "./money/invoice-discounts";
import { activeDiscounts } from "./discounts";

const previewParams = strict({ customer: str().optional(), subscription: str().optional() });
type PreviewArgs = { customer?: string; subscription?: string };

const LIVE = new Set(["active", "trialing", "past_due", "unpaid", "incomplete"]);

function targetSubscription(store: Store, a: PreviewArgs): StoredObject {
  if (a.subscription !== undefined) {
    const sub = store.get("subscriptions", a.subscription);
    if (!sub) throw noSuchParam("subscription", a.subscription, "subscription");
    if (a.customer !== undefined && sub.customer !== a.customer) throw invalidParam(`Subscription ${sub.id} does not belong to customer ${a.customer}.`, "subscription");
    if (!LIVE.has(String(sub.status)) || sub.cancel_at_period_end === true) throw domainError(`No upcoming invoices for subscription: ${sub.id}`, "invoice_upcoming_none");
    return sub;
  }
  if (a.customer === undefined) throw invalidParam("You must pass either `customer` or `subscription` to preview an invoice.", "customer", "parameter_missing");
  requireCustomer(store, a.customer);
  const subs = store.list("subscriptions", { customer: a.customer }).filter((s) => LIVE.has(String(s.status)) && s.cancel_at_period_end !== true);
  // The one that bills soonest, as the real API picks.
  const next = subs.sort((x, y) => nextBill(x) - nextBill(y))[0];
  if (!next) throw domainError(`No upcoming invoices for customer: ${a.customer}`, "invoice_upcoming_none");
  return next;
}

function items(sub: StoredObject): Array<StoredObject & { price: StoredObject; quantity: number; current_period_end: number }> {
  return (sub.items as { data: Array<StoredObject & { price: StoredObject; quantity: number; current_period_end: number }> }).data;
}

function nextBill(sub: StoredObject): number {
  const ends = items(sub).map((i) => i.current_period_end);
  return sub.trial_end && sub.status === "trialing" ? Number(sub.trial_end) : Math.min(...ends);
}

/** The preview invoice in the current shape; `id` null for the legacy upcoming endpoint, which had none. */
function previewInvoice(store: Store, a: PreviewArgs, id: string | null): InvoiceDoc {
  const sub = targetSubscription(store, a);
  const customer = String(sub.customer);
  const at = nextBill(sub);
  const invoiceId = id ?? "";
  let n = 0;
  const lineId = () => `il_tmp_${sub.id.replace(/^sub_/, "")}${String(++n).padStart(2, "0")}`;
  const pending = store
    .list("invoice_items", { customer })
    .filter((ii) => ii.invoice === null && (ii.parent as { subscription_details?: { subscription: string } } | null)?.subscription_details?.subscription === sub.id)
    .reverse();
  const lines: StoredObject[] = pending.map((ii) => {
    const parent = ii.parent as { subscription_details: { subscription_item: string } };
    return line(lineId(), invoiceId, sub, {
      amount: Number(ii.amount),
      description: String(ii.description),
      period: ii.period as { start: number; end: number },
      quantity: Number(ii.quantity),
      price: ii.pricing as Record<string, unknown>,
      item: parent.subscription_details.subscription_item,
      invoiceItem: ii.id,
      proration: ii.proration === true,
    });
  });
  for (const it of items(sub)) {
    const rec = (it.price.recurring as { interval: Interval; interval_count: number } | null) ?? { interval: "month", interval_count: 1 };
    const start = it.current_period_end;
    const amount = Number(it.price.unit_amount ?? 0) * it.quantity;
    const product = store.get("products", String(it.price.product));
    lines.push(
      line(lineId(), invoiceId, sub, {
        amount,
        description: `${it.quantity} × ${String(product?.name ?? it.price.product)} (at ${formatUnit(Number(it.price.unit_amount ?? 0), String(it.price.currency))} / ${rec.interval})`,
        period: { start, end: addInterval(start, rec.interval, rec.interval_count) },
        quantity: it.quantity,
        price: { price_details: { price: it.price.id, product: it.price.product }, type: "price_details", unit_amount_decimal: String(it.price.unit_amount) },
        item: it.id,
        invoiceItem: null,
        proration: false,
      }),
    );
  }
  const discounted = applyDiscounts(store, lines, activeDiscounts(store, sub, at));
  const total = discounted.total;
  const cus = store.get("customers", customer);
  const starting = Number(cus?.balance ?? 0);
  const ending = endingBalance(starting, total);
  const doc = withDiscountFigures(invoiceDocument({
    id: invoiceId,
    created: at,
    currency: String(sub.currency),
    customer,
    customerDoc: cus,
    accountName: null,
    status: "draft",
    number: null,
    collectionMethod: String(sub.collection_method ?? "charge_automatically"),
    billingReason: "upcoming",
    autoAdvance: false,
    automaticallyFinalizesAt: null,
    description: null,
    dueDate: null,
    effectiveAt: null,
    startingBalance: starting,
    endingBalance: ending,
    hostedInvoiceUrl: null,
    invoicePdf: null,
    lines,
    metadata: {},
    parent: { type: "subscription_details", quote_details: null, subscription_details: { metadata: (sub.metadata as Record<string, string>) ?? {}, subscription: sub.id } },
    periodStart: Math.min(...items(sub).map((i) => Number(i.current_period_start))),
    periodEnd: at,
    prePaymentCreditNotes: 0,
    postPaymentCreditNotes: 0,
    statusTransitions: { finalized_at: null, marked_uncollectible_at: null, paid_at: null, voided_at: null },
    total,
  }), discounted);
  const due = Math.max(0, total + (starting - ending));
  const out: InvoiceDoc = { ...doc, amount_due: due, amount_remaining: due, next_payment_attempt: at, webhooks_delivered_at: null };
  out.lines.url = id ? `/v1/invoices/${id}/lines` : "/v1/invoices/upcoming/lines";
  if (!id) delete (out as Partial<InvoiceDoc>).id;
  return out;
}

function formatUnit(amount: number, currency: string): string {
  return `${currency === "usd" ? "$" : `${currency.toUpperCase()} `}${(amount / 100).toFixed(2)}`;
}

function line(
  id: string,
  invoice: string,
  sub: StoredObject,
  f: { amount: number; description: string; period: { start: number; end: number }; quantity: number; price: Record<string, unknown>; item: string; invoiceItem: string | null; proration: boolean },
): StoredObject {
  return {
    id,
    object: "line_item",
    amount: f.amount,
    currency: sub.currency,
    description: f.description,
    discount_amounts: [],
    discountable: !f.proration,
    discounts: [],
    invoice: invoice || null,
    livemode: false,
    metadata: {},
    parent: {
      invoice_item_details: null,
      subscription_item_details: { invoice_item: f.invoiceItem, proration: f.proration, proration_details: { credited_items: null }, subscription: sub.id, subscription_item: f.item },
      type: "subscription_item_details",
    },
    period: f.period,
    pretax_credit_amounts: [],
    pricing: f.price,
    quantity: f.quantity,
    quantity_decimal: String(f.quantity),
    subscription: sub.id,
    subtotal: f.amount,
    taxes: [],
  };
}

/** The removed endpoint answers under the versions that had it; later ones are told where it went. */
function legacyOnly(ctx: StripeContext): void {
  if (!isPreBasil(ctx.apiVersion))
    throw invalidParam(`GET /v1/invoices/upcoming was removed in API version 2025-03-31; under ${ctx.apiVersion} preview the next invoice with POST /v1/invoices/create_preview.`);
}

function upcomingLines(ctx: StripeContext, a: PreviewArgs & { limit?: number; starting_after?: string; ending_before?: string }) {
  legacyOnly(ctx);
  const inv = previewInvoice(ctx.store, a, null);
  const lines = inv.lines.data.map((l) => legacyLine(l, ctx.store));
  return paginate(lines, a, "/v1/invoices/upcoming/lines", "invoice line item", (id) => lines.find((l) => l.id === id) ?? null);
}

export const invoicePreviewRoutes: Route[] = [
  route("POST", "/v1/invoices/create_preview", previewParams, (ctx, a) => {
    const sub = targetSubscription(ctx.store, a);
    return previewInvoice(ctx.store, { ...a, subscription: sub.id }, `upcoming_in_${sub.id.replace(/^sub_/, "")}`);
  }),
  route("GET", "/v1/invoices/upcoming", previewParams, (ctx, a) => {
    legacyOnly(ctx);
    // The legacy upcoming invoice had no id; it is an invoice object in every other respect.
    return previewInvoice(ctx.store, a, null) as unknown as StoredObject;
  }),
  route("GET", "/v1/invoices/upcoming/lines", strict({ ...previewParams.shape, ...listShape }), upcomingLines),
];
