// One-off invoices: POST /v1/invoices creates a draft for a customer (optionally taking the customer's pending
// invoice items as its lines), and POST /v1/invoices/:id/send emails a finalized one. The twin sends no mail:
// sending checks the invoice could be sent and answers it unchanged, as the real API does in test mode.
import type { z } from "zod";
import type { Store } from "../../store/store";
import { domainError, invalidParam, missingParam } from "../errors";
import { applyMetadata, bool, int, metadata, oneOf, str, strict } from "../params";
import { route, type Route } from "../types";
import { requireCustomer } from "./customer-balance";
import { invoiceDocument } from "./money/invoice-doc";
import { settle, type InvoiceDoc } from "./money/invoice-math";
import { requireInvoice } from "./invoices";

const DAY = 86_400;

const createParams = strict({
  customer: str(),
  auto_advance: bool().optional(),
  collection_method: oneOf(["charge_automatically", "send_invoice"]).optional(),
  currency: str().optional(),
  days_until_due: int({ min: 0 }).optional(),
  due_date: int().optional(),
  description: str().optional(),
  footer: str().optional(),
  metadata: metadata().optional(),
  pending_invoice_items_behavior: oneOf(["exclude", "include"]).optional(),
});

function createInvoice(store: Store, a: z.output<typeof createParams>): InvoiceDoc {
  const cus = requireCustomer(store, a.customer);
  const collection = a.collection_method ?? "charge_automatically";
  if (collection === "send_invoice" && a.days_until_due === undefined && a.due_date === undefined) throw missingParam("days_until_due");
  if (collection === "charge_automatically" && (a.days_until_due !== undefined || a.due_date !== undefined))
    throw invalidParam("Invoices with collection_method=charge_automatically cannot have a due date; use send_invoice to set days_until_due or due_date.", a.days_until_due !== undefined ? "days_until_due" : "due_date");
  const now = store.now();
  const id = store.newId("in");
  const currency = (a.currency ?? (cus.currency as string | null) ?? store.meta("currency") ?? "usd").toLowerCase();
  // Pending items not tied to a subscription; the real API leaves them out unless asked.
  const pending = a.pending_invoice_items_behavior === "include"
    ? store.list("invoice_items", { customer: a.customer }).filter((ii) => ii.invoice === null && ii.currency === currency).reverse()
    : [];
  const lines = pending.map((ii) => ({
    id: store.newId("il"),
    object: "line_item",
    amount: ii.amount,
    currency,
    description: ii.description,
    discount_amounts: [],
    discountable: true,
    discounts: [],
    invoice: id,
    livemode: false,
    metadata: {},
    parent: { invoice_item_details: { invoice_item: ii.id, proration: ii.proration === true, proration_details: { credited_items: null }, subscription: null }, subscription_item_details: null, type: "invoice_item_details" },
    period: ii.period,
    pretax_credit_amounts: [],
    pricing: ii.pricing,
    quantity: ii.quantity,
    quantity_decimal: String(ii.quantity),
    subtotal: ii.amount,
    taxes: [],
  }));
  for (const ii of pending) store.update("invoice_items", ii.id, { ...ii, invoice: id });
  const total = lines.reduce((s, l) => s + Number(l.amount), 0);
  const doc = settle(
    invoiceDocument({
      id,
      created: now,
      currency,
      customer: a.customer,
      customerDoc: cus,
      accountName: null,
      status: "draft",
      number: null,
      collectionMethod: collection,
      billingReason: "manual",
      autoAdvance: a.auto_advance ?? false,
      automaticallyFinalizesAt: null,
      description: a.description ?? null,
      dueDate: a.due_date ?? (a.days_until_due !== undefined ? now + a.days_until_due * DAY : null),
      effectiveAt: null,
      startingBalance: 0,
      endingBalance: null,
      hostedInvoiceUrl: null,
      invoicePdf: null,
      lines,
      metadata: applyMetadata({}, a.metadata),
      parent: null,
      periodStart: now,
      periodEnd: now,
      prePaymentCreditNotes: 0,
      postPaymentCreditNotes: 0,
      statusTransitions: { finalized_at: null, marked_uncollectible_at: null, paid_at: null, voided_at: null },
      total,
    }),
  );
  const out = { ...doc, footer: a.footer ?? null, webhooks_delivered_at: null } as InvoiceDoc;
  store.insert("invoices", out, a.customer);
  return out;
}

export const invoiceDraftRoutes: Route[] = [
  route("POST", "/v1/invoices", createParams, (ctx, a) => createInvoice(ctx.store, a)),
  route("POST", "/v1/invoices/:id/send", strict({}), (ctx, _a, p) => {
    const inv = requireInvoice(ctx, p.id, "id");
    if (inv.status === "draft") throw domainError("You can't send a draft invoice. Finalize it first.", "invoice_not_editable");
    if (inv.status === "void") throw domainError("You can't send an invoice that has been voided.", "status_transition_invalid");
    return inv;
  }),
];
