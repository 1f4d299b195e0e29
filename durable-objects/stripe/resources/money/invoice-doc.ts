// One invoice document in the current API shape. Seeded invoices and the ones a subscription change bills
// differ only in these fields; every other field is the same constant, written here once.
import type { StoredObject } from "../../../store/store";
import type { InvoiceDoc } from "./invoice-math";

export interface InvoiceFields {
  id: string;
  created: number;
  currency: string;
  customer: string;
  customerDoc: Readonly<Record<string, unknown>> | null | undefined;
  accountName: string | null;
  status: string;
  number: string | null;
  collectionMethod: string;
  billingReason: string;
  autoAdvance: boolean;
  automaticallyFinalizesAt: number | null;
  description: string | null;
  dueDate: number | null;
  effectiveAt: number | null;
  startingBalance: number;
  endingBalance: number | null;
  hostedInvoiceUrl: string | null;
  invoicePdf: string | null;
  lines: StoredObject[];
  metadata: Record<string, string>;
  parent: Record<string, unknown> | null;
  periodStart: number;
  periodEnd: number;
  prePaymentCreditNotes: number;
  postPaymentCreditNotes: number;
  statusTransitions: { finalized_at: number | null; marked_uncollectible_at: number | null; paid_at: number | null; voided_at: number | null };
  total: number;
}

const text = (v: unknown): string | null => (typeof v === "string" ? v : null);

/** Amounts due/paid/remaining start at zero: callers pass the result through settle(), which computes them. */
export function invoiceDocument(f: InvoiceFields): InvoiceDoc {
  return {
    id: f.id,
    object: "invoice",
    account_country: "US",
    account_name: f.accountName,
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
    auto_advance: f.autoAdvance,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null, provider: null, status: null },
    automatically_finalizes_at: f.automaticallyFinalizesAt,
    billing_reason: f.billingReason,
    collection_method: f.collectionMethod,
    created: f.created,
    currency: f.currency,
    custom_fields: null,
    customer: f.customer,
    customer_account: null,
    customer_address: null,
    customer_email: text(f.customerDoc?.email),
    customer_name: text(f.customerDoc?.name),
    customer_phone: text(f.customerDoc?.phone),
    customer_shipping: null,
    customer_tax_exempt: "none",
    customer_tax_ids: [],
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: f.description,
    discounts: [],
    due_date: f.dueDate,
    effective_at: f.effectiveAt,
    ending_balance: f.endingBalance,
    footer: null,
    from_invoice: null,
    hosted_invoice_url: f.hostedInvoiceUrl,
    invoice_pdf: f.invoicePdf,
    issuer: { type: "self" },
    last_finalization_error: null,
    latest_revision: null,
    lines: { object: "list", data: f.lines, has_more: false, total_count: f.lines.length, url: `/v1/invoices/${f.id}/lines` },
    livemode: false,
    metadata: f.metadata,
    next_payment_attempt: null,
    number: f.number,
    on_behalf_of: null,
    parent: f.parent,
    payment_settings: { default_mandate: null, payment_method_options: null, payment_method_types: null },
    payments: { object: "list", data: [], has_more: false, total_count: 0, url: `/v1/invoice_payments?invoice=${f.id}` },
    period_end: f.periodEnd,
    period_start: f.periodStart,
    post_payment_credit_notes_amount: f.postPaymentCreditNotes,
    pre_payment_credit_notes_amount: f.prePaymentCreditNotes,
    receipt_number: null,
    rendering: null,
    shipping_cost: null,
    shipping_details: null,
    starting_balance: f.startingBalance,
    statement_descriptor: null,
    status: f.status,
    status_transitions: f.statusTransitions,
    subtotal: f.total,
    subtotal_excluding_tax: f.total,
    test_clock: null,
    total: f.total,
    total_discount_amounts: [],
    total_excluding_tax: f.total,
    total_pretax_credit_amounts: [],
    total_taxes: [],
    webhooks_delivered_at: f.created,
  } as InvoiceDoc;
}
