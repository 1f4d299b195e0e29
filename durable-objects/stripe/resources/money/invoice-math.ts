// An invoice's money fields derive from a few facts: the lines' total, the customer balance applied when it
// was finalized, pre-payment credit notes and what has been paid. Every change to one of those facts goes
// through settle(), so amount_due and amount_remaining can never drift from them.
import type { StoredObject } from "../../../store/store";

export type InvoiceStatus = "draft" | "open" | "paid" | "void" | "uncollectible";

export interface InvoiceDoc extends StoredObject {
  object: "invoice";
  status: InvoiceStatus;
  customer: string;
  currency: string;
  number: string | null;
  total: number;
  subtotal: number;
  starting_balance: number;
  ending_balance: number | null;
  amount_due: number;
  amount_paid: number;
  amount_paid_off_stripe: number;
  amount_remaining: number;
  pre_payment_credit_notes_amount: number;
  post_payment_credit_notes_amount: number;
  status_transitions: { finalized_at: number | null; marked_uncollectible_at: number | null; paid_at: number | null; voided_at: number | null };
  payments: { object: "list"; data: InvoicePaymentDoc[]; has_more: boolean; total_count: number; url: string };
  lines: { object: "list"; data: StoredObject[]; has_more: boolean; total_count: number; url: string };
  parent: { type: string; subscription_details: { subscription: string; metadata: Record<string, string> } | null; quote_details: null } | null;
}

export interface InvoicePaymentDoc extends StoredObject {
  object: "invoice_payment";
  amount_paid: number | null;
  amount_requested: number;
  invoice: string;
  is_default: boolean;
  payment: { type: "payment_intent"; payment_intent: string } | { type: "charge"; charge: string };
  status: "open" | "paid" | "canceled";
  status_transitions: { canceled_at: number | null; paid_at: number | null };
}

/** Ending balance after a customer balance is applied to an invoice of `total` (credit is negative). */
export function endingBalance(starting: number, total: number): number {
  if (starting < 0) return starting + Math.min(-starting, total);
  return 0;
}

export function settle<T extends InvoiceDoc>(inv: T): T {
  const applied = inv.status === "draft" || inv.ending_balance === null ? 0 : inv.starting_balance - inv.ending_balance;
  const due = Math.max(0, inv.total + applied - inv.pre_payment_credit_notes_amount);
  return { ...inv, amount_due: due, amount_remaining: Math.max(0, due - inv.amount_paid) };
}

/** The payment (charge or payment intent) behind the invoice, newest default first. */
export function defaultPayment(inv: InvoiceDoc): InvoicePaymentDoc | null {
  const data = inv.payments?.data ?? [];
  return data.find((p) => p.is_default) ?? data[0] ?? null;
}
