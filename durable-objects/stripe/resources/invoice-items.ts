// Invoice items: the pending charges and credits a subscription change leaves for the customer's next invoice
// (prorations). Served read-only at /v1/invoiceitems; stored in the current shape, legacy fields for old versions.
import type { z } from "zod";
import type { Store, StoredObject } from "../../store/store";
import { noSuch } from "../errors";
import { paginate } from "../list";
import { bool, inRange, listShape, range, str, strict } from "../params";
import { route, type Resource } from "../types";
import { isPreBasil } from "../versions";

export interface InvoiceItemInput {
  customer: string;
  currency: string;
  amount: number;
  description: string;
  price: StoredObject;
  quantity: number;
  period: { start: number; end: number };
  subscription: string;
  subscriptionItem: string;
  proration: boolean;
}

export function createInvoiceItem(store: Store, i: InvoiceItemInput): StoredObject {
  const item: StoredObject = {
    id: store.newId("ii"),
    object: "invoiceitem",
    amount: i.amount,
    currency: i.currency,
    customer: i.customer,
    customer_account: null,
    date: store.now(),
    description: i.description,
    discountable: false,
    discounts: [],
    invoice: null,
    livemode: false,
    metadata: {},
    net_amount: i.amount,
    parent: { type: "subscription_details", subscription_details: { subscription: i.subscription, subscription_item: i.subscriptionItem } },
    period: i.period,
    pricing: { price_details: { price: i.price.id, product: i.price.product }, type: "price_details", unit_amount_decimal: String(i.price.unit_amount) },
    proration: i.proration,
    proration_details: { credited_items: null, discount_amounts: [] },
    quantity: i.quantity,
    quantity_decimal: String(i.quantity),
    tax_rates: [],
    test_clock: null,
  };
  store.insert("invoice_items", item, i.customer);
  return item;
}

const listParams = strict({ ...listShape, customer: str().optional(), invoice: str().optional(), pending: bool().optional(), created: range().optional() });

export const invoiceItems: Resource = {
  type: "invoice_items",
  object: "invoiceitem",
  prefix: "ii",
  expandable: ["customer", "invoice", "parent.subscription_details.subscription"],
  present: (ii, ctx) => {
    if (!isPreBasil(ctx.apiVersion)) return ii;
    const parent = ii.parent as { subscription_details?: { subscription: string; subscription_item: string } } | null;
    const pricing = ii.pricing as { price_details?: { price: string } } | null;
    const price = pricing?.price_details ? ctx.store.get("prices", pricing.price_details.price) : null;
    return {
      ...ii,
      price,
      subscription: parent?.subscription_details?.subscription ?? null,
      subscription_item: parent?.subscription_details?.subscription_item ?? null,
      unit_amount: price?.unit_amount ?? null,
      unit_amount_decimal: price ? String(price.unit_amount) : null,
    };
  },
  routes: [
    route("GET", "/v1/invoiceitems", listParams, (ctx, a: z.output<typeof listParams>) => {
      const items = ctx.store
        .list("invoice_items", a.customer !== undefined ? { customer: a.customer } : {})
        .filter((ii) => (a.invoice === undefined || ii.invoice === a.invoice) && (a.pending === undefined || (ii.invoice === null) === a.pending) && inRange(ii.created ?? ii.date, a.created));
      return paginate(items, a, "/v1/invoiceitems", "invoice item", (id) => ctx.store.get("invoice_items", id));
    }),
    route("GET", "/v1/invoiceitems/:id", strict({}), (ctx, _a, p) => {
      const ii = ctx.store.get("invoice_items", p.id);
      if (!ii) throw noSuch("invoiceitem", p.id);
      return ii;
    }),
  ],
};
