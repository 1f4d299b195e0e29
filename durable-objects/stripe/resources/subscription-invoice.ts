// Invoicing a subscription's pending items now (proration_behavior=always_invoice, or cancel with
// invoice_now): the pending invoice items become the lines of a new invoice, which is finalized and, when
// something is due and the subscription charges automatically, paid, through the invoice state machine.
import type { Store, StoredObject } from "../../store/store";
import { applyBalanceChange } from "./customer-balance";
import { finalizeInvoice, payInvoice } from "./money/invoice-actions";
import { settle, type InvoiceDoc } from "./money/invoice-math";
import { invoiceDocument } from "./money/invoice-doc";
import { applyDiscounts, withDiscountFigures } from "./money/invoice-discounts";
import { activeDiscounts, endOnceDiscounts } from "./discounts";

type BillingReason = "subscription_create" | "subscription_update" | "subscription_cycle";

function lineFromItem(ii: StoredObject, invoice: string, lineId: string, subscription: string): StoredObject {
  const parent = ii.parent as { subscription_details: { subscription_item: string } };
  return {
    id: lineId,
    object: "line_item",
    amount: ii.amount,
    currency: ii.currency,
    description: ii.description,
    discount_amounts: [],
    // A period's charge takes the subscription's discounts; a proration does not.
    discountable: ii.proration !== true,
    discounts: [],
    invoice,
    livemode: false,
    metadata: {},
    parent: {
      invoice_item_details: null,
      subscription_item_details: {
        invoice_item: ii.id,
        proration: ii.proration,
        proration_details: { credited_items: null },
        subscription,
        subscription_item: parent.subscription_details.subscription_item,
      },
      type: "subscription_item_details",
    },
    period: ii.period,
    pretax_credit_amounts: [],
    pricing: ii.pricing,
    quantity: ii.quantity,
    quantity_decimal: ii.quantity === null || ii.quantity === undefined ? null : String(ii.quantity),
    subscription,
    subtotal: ii.amount,
    taxes: [],
  };
}

/** Returns the new invoice, or null when the subscription has no pending items. */
export function invoicePendingItems(store: Store, sub: StoredObject, reason: BillingReason): InvoiceDoc | null {
  const customer = String(sub.customer);
  const pending = store
    .list("invoice_items", { customer })
    .filter((ii) => ii.invoice === null && (ii.parent as { subscription_details?: { subscription: string } } | null)?.subscription_details?.subscription === sub.id)
    .reverse(); // oldest first, as lines appear on the invoice
  if (!pending.length) return null;
  const now = store.now();
  const id = store.newId("in");
  const lines = pending.map((ii) => lineFromItem(ii, id, store.newId("il"), sub.id));
  for (const ii of pending) store.update("invoice_items", ii.id, { ...ii, invoice: id });
  const discounted = applyDiscounts(store, lines, activeDiscounts(store, sub, now));
  const total = discounted.total;
  const cus = store.get("customers", customer, { includeDeleted: true });
  const collection = String(sub.collection_method ?? "charge_automatically");
  const draft: InvoiceDoc = settle(withDiscountFigures(
    invoiceDocument({
      id,
      created: now,
      currency: String(sub.currency),
      customer,
      customerDoc: cus,
      accountName: null,
      status: "draft",
      number: null,
      collectionMethod: collection,
      billingReason: reason,
      autoAdvance: true,
      automaticallyFinalizesAt: null,
      description: null,
      dueDate: null,
      effectiveAt: null,
      startingBalance: 0,
      endingBalance: null,
      hostedInvoiceUrl: null,
      invoicePdf: null,
      lines,
      metadata: {},
      parent: { type: "subscription_details", quote_details: null, subscription_details: { metadata: (sub.metadata as Record<string, string>) ?? {}, subscription: sub.id } },
      periodStart: Math.min(...lines.map((l) => (l.period as { start: number }).start)),
      periodEnd: Math.max(...lines.map((l) => (l.period as { end: number }).end)),
      prePaymentCreditNotes: 0,
      postPaymentCreditNotes: 0,
      statusTransitions: { finalized_at: null, marked_uncollectible_at: null, paid_at: null, voided_at: null },
      total,
    }),
    discounted,
  ));
  store.insert("invoices", draft, customer);
  endOnceDiscounts(store, discounted.discounts);
  store.update("subscriptions", sub.id, { ...store.get("subscriptions", sub.id)!, latest_invoice: id });
  let inv = finalizeInvoice(store, draft);
  // A net credit (a downgrade) is not collected: it goes to the customer's balance for future invoices.
  // Finalizing already applied what it could of an existing credit; make sure the whole net credit lands.
  if (total < 0) {
    const wanted = inv.starting_balance + total;
    const missing = wanted - Number(inv.ending_balance ?? inv.starting_balance);
    if (missing !== 0) {
      const txn = applyBalanceChange(store, { customer, amount: missing, currency: inv.currency, type: "applied_to_invoice", invoice: id });
      inv = store.update<InvoiceDoc>("invoices", id, { ...inv, ending_balance: Number(txn.ending_balance) });
    }
  }
  if (inv.status === "open" && inv.amount_due > 0 && collection === "charge_automatically") inv = payInvoice(store, inv, {});
  return inv;
}
