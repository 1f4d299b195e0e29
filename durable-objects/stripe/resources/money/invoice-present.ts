// Invoices as an API version shows them. Stored in the current shape; `payments` is includable (expand[] only),
// the embedded `lines` list carries its first ten lines, and versions before 2025-03-31 get the fields that
// release removed (charge, payment_intent, paid, paid_out_of_band, subscription...) derived from the payments
// and the parent, with line items in their old shape (type, proration, price, plan...).
import type { Store, StoredObject } from "../../../store/store";
import type { StripeContext } from "../../types";
import { BASIL, versionBefore } from "../../versions";
import { defaultPayment, type InvoiceDoc } from "./invoice-math";
import { chargeOfPayment, paymentIntentOf } from "./links";
import { presentDiscount } from "../discounts";

const EMBEDDED_LINES = 10;

export function presentInvoice(obj: StoredObject, ctx: StripeContext): StoredObject {
  if (obj.object !== "invoice" || obj.deleted === true) return obj;
  const inv = obj as InvoiceDoc;
  const legacy = versionBefore(ctx.apiVersion, BASIL);
  const { payments: _payments, ...out } = inv as InvoiceDoc & Record<string, unknown>;
  const lines = inv.lines.data;
  out.lines = {
    object: "list",
    data: lines.slice(0, EMBEDDED_LINES).map((l) => (legacy ? legacyLine(l, ctx.store) : l)),
    has_more: lines.length > EMBEDDED_LINES,
    total_count: lines.length,
    url: inv.lines.url,
  };
  if (!legacy) return out as StoredObject;
  const pay = defaultPayment(inv);
  const paidPayment = inv.payments.data.find((p) => p.status === "paid") ?? null;
  const subscription = inv.parent?.subscription_details?.subscription ?? null;
  const { parent: _parent, amount_paid_off_stripe: _off, ...legacyOut } = out;
  return {
    ...legacyOut,
    charge: paidPayment ? (chargeOfPayment(ctx.store, paidPayment)?.id ?? null) : null,
    discount: legacyDiscount(inv, ctx),
    paid: inv.status === "paid",
    paid_out_of_band: inv.amount_paid_off_stripe > 0,
    payment_intent: pay ? paymentIntentOf(pay) : null,
    subscription,
    subscription_details: { metadata: subscription ? (inv.parent?.subscription_details?.metadata ?? {}) : null },
    // Tax lines by rate, which 2025-03-31 replaced by total_taxes; the twin charges no tax.
    total_tax_amounts: [],
  } as StoredObject;
}

/** The single `discount` older versions showed: the invoice's first, as it was when it applied. */
function legacyDiscount(inv: InvoiceDoc, ctx: StripeContext): StoredObject | null {
  const id = ((inv.discounts as string[] | undefined) ?? [])[0];
  const d = id ? ctx.store.get("discounts", id, { includeDeleted: true }) : null;
  if (!d) return null;
  const { deleted: _deleted, ...rest } = d;
  return presentDiscount({ end: null, ...rest } as StoredObject, ctx);
}

/** A line item in its pre-2025-03-31 shape. */
export function legacyLine(line: StoredObject, store: Store): StoredObject {
  const parent = line.parent as {
    type: string;
    invoice_item_details: { invoice_item: string; proration: boolean } | null;
    subscription_item_details: { subscription_item: string; proration: boolean } | null;
  } | null;
  const pricing = line.pricing as { price_details?: { price: string } } | null;
  const price = pricing?.price_details ? store.get("prices", pricing.price_details.price) : null;
  const sub = parent?.subscription_item_details ?? null;
  const item = parent?.invoice_item_details ?? null;
  const { parent: _p, pricing: _pr, ...rest } = line;
  const out: StoredObject = {
    ...rest,
    plan: price ? planOf(price) : null,
    price,
    proration: sub?.proration ?? item?.proration ?? false,
    type: sub ? "subscription" : "invoiceitem",
  };
  // Back then a line named only what it came from: the other reference was absent, never null.
  const invoiceItem = item?.invoice_item ?? (sub as { invoice_item?: string } | null)?.invoice_item;
  if (invoiceItem) out.invoice_item = invoiceItem;
  if (sub?.subscription_item) out.subscription_item = sub.subscription_item;
  return out;
}

/** The legacy Plan view of a recurring price. */
function planOf(price: StoredObject): StoredObject | null {
  const rec = price.recurring as { interval: string; interval_count: number; usage_type?: string } | null;
  if (!rec) return null;
  return {
    id: price.id,
    object: "plan",
    active: price.active,
    amount: price.unit_amount,
    amount_decimal: price.unit_amount_decimal ?? String(price.unit_amount),
    billing_scheme: price.billing_scheme ?? "per_unit",
    created: price.created,
    currency: price.currency,
    interval: rec.interval,
    interval_count: rec.interval_count ?? 1,
    livemode: false,
    metadata: price.metadata ?? {},
    meter: null,
    nickname: price.nickname ?? null,
    product: price.product,
    tiers_mode: null,
    transform_usage: null,
    trial_period_days: null,
    usage_type: rec.usage_type ?? "licensed",
  };
}
