// Invoicing a subscription's pending items now (proration_behavior=always_invoice, or cancel with
// invoice_now): the pending invoice items become the lines of a new invoice, which is finalized and, when
// something is due and the subscription charges automatically, paid, through the invoice state machine.
import type { Store, StoredObject } from "../../store/store";
import { applyBalanceChange } from "./customer-balance";
import { finalizeInvoice, payInvoice } from "./money/invoice-actions";
import { settle, type InvoiceDoc } from "./money/invoice-math";

type BillingReason = "subscription_update" | "subscription_cycle";

function lineFromItem(ii: StoredObject, invoice: string, lineId: string, subscription: string): StoredObject {
  const parent = ii.parent as { subscription_details: { subscription_item: string } };
  return {
    id: lineId,
    object: "line_item",
    amount: ii.amount,
    currency: ii.currency,
    description: ii.description,
    discount_amounts: [],
    discountable: false,
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
  const total = lines.reduce((s, l) => s + Number(l.amount), 0);
  const cus = store.get("customers", customer, { includeDeleted: true });
  const collection = String(sub.collection_method ?? "charge_automatically");
  const draft: InvoiceDoc = settle({
    id,
    object: "invoice",
    account_country: "US",
    account_name: null,
    account_tax_ids: null,
    amount_due: 0,
    amount_overpaid: 0,
    amount_paid: 0,
    amount_paid_off_stripe: 0,
    amount_remaining: 0,
    amount_shipping: 0,
    application: null,
    attempt_count: 0,
    attempted: false,
    auto_advance: true,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null, provider: null, status: null },
    automatically_finalizes_at: null,
    billing_reason: reason,
    collection_method: collection,
    created: now,
    currency: String(sub.currency),
    custom_fields: null,
    customer,
    customer_account: null,
    customer_address: null,
    customer_email: (cus?.email as string | null) ?? null,
    customer_name: (cus?.name as string | null) ?? null,
    customer_phone: (cus?.phone as string | null) ?? null,
    customer_shipping: null,
    customer_tax_exempt: "none",
    customer_tax_ids: [],
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    due_date: null,
    effective_at: null,
    ending_balance: null,
    footer: null,
    from_invoice: null,
    hosted_invoice_url: null,
    invoice_pdf: null,
    issuer: { type: "self" },
    last_finalization_error: null,
    latest_revision: null,
    lines: { object: "list", data: lines, has_more: false, total_count: lines.length, url: `/v1/invoices/${id}/lines` },
    livemode: false,
    metadata: {},
    next_payment_attempt: null,
    number: null,
    on_behalf_of: null,
    parent: { type: "subscription_details", quote_details: null, subscription_details: { metadata: (sub.metadata as Record<string, string>) ?? {}, subscription: sub.id } },
    payment_settings: { default_mandate: null, payment_method_options: null, payment_method_types: null },
    payments: { object: "list", data: [], has_more: false, total_count: 0, url: `/v1/invoice_payments?invoice=${id}` },
    period_end: Math.max(...lines.map((l) => (l.period as { end: number }).end)),
    period_start: Math.min(...lines.map((l) => (l.period as { start: number }).start)),
    post_payment_credit_notes_amount: 0,
    pre_payment_credit_notes_amount: 0,
    receipt_number: null,
    rendering: null,
    shipping_cost: null,
    shipping_details: null,
    starting_balance: 0,
    statement_descriptor: null,
    status: "draft",
    status_transitions: { finalized_at: null, marked_uncollectible_at: null, paid_at: null, voided_at: null },
    subtotal: total,
    subtotal_excluding_tax: total,
    test_clock: null,
    total,
    total_discount_amounts: [],
    total_excluding_tax: total,
    total_pretax_credit_amounts: [],
    total_taxes: [],
    webhooks_delivered_at: now,
  } as InvoiceDoc);
  store.insert("invoices", draft, customer);
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
