// The links between invoices and their payments live in one place (invoice.payments), as in current API
// versions. These follow them in either direction: the charge that paid an invoice, and, for the legacy
// shapes (charge.invoice, payment_intent.invoice), the invoice a charge or payment intent paid.
import type { Store, StoredObject } from "../../../store/store";
import type { InvoiceDoc, InvoicePaymentDoc } from "./invoice-math";

export function paymentIntentOf(p: InvoicePaymentDoc): string | null {
  return p.payment.type === "payment_intent" ? p.payment.payment_intent : null;
}

/** The succeeded charge behind a paid invoice payment (directly, or the payment intent's latest charge). */
export function chargeOfPayment(store: Store, p: InvoicePaymentDoc): StoredObject | null {
  if (p.payment.type === "charge") return store.get("charges", p.payment.charge);
  const pi = store.get("payment_intents", p.payment.payment_intent);
  const ch = pi && typeof pi.latest_charge === "string" ? store.get("charges", pi.latest_charge) : null;
  return ch;
}

/** The charge that paid the invoice, if it was paid through the API (not out of band). */
export function paidCharge(store: Store, inv: InvoiceDoc): StoredObject | null {
  const p = (inv.payments?.data ?? []).find((x) => x.status === "paid");
  return p ? chargeOfPayment(store, p) : null;
}

function invoicesOf(store: Store, customer: unknown): InvoiceDoc[] {
  return typeof customer === "string" ? store.list<InvoiceDoc>("invoices", { customer }) : store.list<InvoiceDoc>("invoices");
}

export function invoiceForCharge(store: Store, charge: StoredObject): string | null {
  for (const inv of invoicesOf(store, charge.customer)) {
    for (const p of inv.payments?.data ?? []) {
      if (p.payment.type === "charge" && p.payment.charge === charge.id) return inv.id;
      if (p.payment.type === "payment_intent" && p.payment.payment_intent === charge.payment_intent) return inv.id;
    }
  }
  return null;
}

export function invoiceForIntent(store: Store, pi: StoredObject): string | null {
  for (const inv of invoicesOf(store, pi.customer))
    for (const p of inv.payments?.data ?? []) if (p.payment.type === "payment_intent" && p.payment.payment_intent === pi.id) return inv.id;
  return null;
}

/** Refunds of one charge, newest first. Refunds are filed under the charge's customer. */
export function refundsOfCharge(store: Store, charge: StoredObject): StoredObject[] {
  const all = typeof charge.customer === "string" ? store.list("refunds", { customer: charge.customer }) : store.list("refunds");
  return all.filter((r) => r.charge === charge.id);
}
