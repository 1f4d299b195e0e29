// The invoice state machine: draft -> open (finalize), open|uncollectible -> paid (pay), open|uncollectible
// -> void, open -> uncollectible. Refusals use the API's own wording; every effect on other objects (the
// customer balance applied or returned, the payment intent and charge a payment creates, the subscription a
// payment brings back to active) happens in the same transaction as the invoice change.
import type { Store } from "../../../store/store";
import { domainError } from "../../errors";
import { applyBalanceChange } from "../customer-balance";
import { endingBalance, settle, type InvoiceDoc, type InvoicePaymentDoc } from "./invoice-math";
import { hostedUrl, pdfUrl } from "./invoice-seed";
import { invoiceNumber, invoicePrefix } from "./seed-index";
import { paymentIntentOf } from "./links";
import { cardDetails, chargeDoc, defaultCard, paymentIntentDoc, type Card } from "./shapes";

const notOpen = () => domainError("You can only pass in open invoices. This invoice isn't open.", "status_transition_invalid");

export function finalizeInvoice(store: Store, inv: InvoiceDoc, opts: { auto_advance?: boolean } = {}): InvoiceDoc {
  if (inv.status !== "draft") throw domainError("This invoice is already finalized, you can't re-finalize a non-draft invoice.", "invoice_not_editable");
  const now = store.now();
  const customer = store.get("customers", inv.customer, { includeDeleted: true });
  // The customer's balance (credit or debt) is applied when the invoice is finalized, and recorded.
  const starting = typeof customer?.balance === "number" ? customer.balance : 0;
  const ending = endingBalance(starting, inv.total);
  if (ending !== starting && customer && !customer.deleted)
    applyBalanceChange(store, { customer: inv.customer, amount: ending - starting, currency: inv.currency, type: "applied_to_invoice", invoice: inv.id });
  const prefix = typeof customer?.invoice_prefix === "string" ? customer.invoice_prefix : invoicePrefix(inv.customer);
  const numbered = store.list<InvoiceDoc>("invoices", { customer: inv.customer }).filter((i) => i.number !== null).length;
  let next: InvoiceDoc = settle({
    ...inv,
    status: "open",
    number: inv.number ?? invoiceNumber(prefix, numbered + 1),
    starting_balance: starting,
    ending_balance: ending,
    auto_advance: opts.auto_advance ?? inv.auto_advance,
    automatically_finalizes_at: null,
    effective_at: now,
    hosted_invoice_url: hostedUrl(inv.id),
    invoice_pdf: pdfUrl(inv.id),
    due_date: inv.collection_method === "send_invoice" ? (inv.due_date ?? now + 30 * 86_400) : inv.due_date,
    status_transitions: { ...inv.status_transitions, finalized_at: now },
  });
  // Nothing left to collect (credit covered it all): the invoice is paid on finalization.
  if (next.amount_due === 0) next = { ...next, status: "paid", auto_advance: false, status_transitions: { ...next.status_transitions, paid_at: now } };
  return store.update("invoices", inv.id, next);
}

export function payInvoice(store: Store, inv: InvoiceDoc, opts: { paid_out_of_band?: boolean }): InvoiceDoc {
  if (inv.status === "paid") throw domainError("Invoice is already paid", "status_transition_invalid");
  if (inv.status === "void") throw notOpen();
  if (inv.status === "draft") {
    inv = finalizeInvoice(store, inv);
    if (inv.status === "paid") return inv;
  }
  const now = store.now();
  const amount = inv.amount_remaining;
  let payments = inv.payments.data;
  let offStripe = inv.amount_paid_off_stripe;
  let attempt = { attempted: inv.attempted, attempt_count: inv.attempt_count };
  if (opts.paid_out_of_band || amount === 0) {
    if (opts.paid_out_of_band) offStripe += amount;
    payments = payments.map((p) => (p.status === "open" ? cancelPayment(store, p, now) : p));
  } else {
    payments = collect(store, inv, amount, now);
    attempt = { attempted: true, attempt_count: (inv.attempt_count as number) + 1 };
  }
  const paid = settle({
    ...inv,
    ...attempt,
    status: "paid" as const,
    amount_paid: inv.amount_paid + amount,
    amount_paid_off_stripe: offStripe,
    auto_advance: false,
    next_payment_attempt: null,
    payments: { ...inv.payments, data: payments, total_count: payments.length },
    status_transitions: { ...inv.status_transitions, paid_at: now },
  });
  const out = store.update("invoices", inv.id, paid);
  reactivateSubscription(store, out);
  return out;
}

/** Charges the customer's card for `amount` through the invoice's payment intent (created if it has none). */
function collect(store: Store, inv: InvoiceDoc, amount: number, now: number): InvoicePaymentDoc[] {
  const open = inv.payments.data.find((p) => p.status === "open" && p.payment.type === "payment_intent");
  const existing = open ? store.get("payment_intents", paymentIntentOf(open)!) : null;
  const piId = existing?.id ?? store.newId("pi");
  const chargeId = store.newId("ch");
  const customer = store.get("customers", inv.customer, { includeDeleted: true });
  const charge = chargeDoc({
    id: chargeId,
    amount,
    amount_refunded: 0,
    currency: inv.currency,
    customer: inv.customer,
    created: now,
    status: "succeeded",
    payment_intent: piId,
    description: "Payment for Invoice",
    disputed: false,
    failure_code: null,
    failure_message: null,
    receipt_email: null,
    statement_descriptor: null,
    billing: { email: (customer?.email as string | null) ?? null, name: (customer?.name as string | null) ?? null },
    payment_method_details: cardDetails(cardOnFile(store, inv.customer), amount),
    metadata: {},
  });
  const settled = { amount, amount_received: amount, status: "succeeded" as const, latest_charge: chargeId };
  if (existing) store.update("payment_intents", piId, { ...existing, ...settled });
  else
    store.insert(
      "payment_intents",
      paymentIntentDoc({ id: piId, currency: inv.currency, customer: inv.customer, created: now, description: "Payment for Invoice", metadata: {}, ...settled }),
      inv.customer,
    );
  store.insert("charges", charge, inv.customer);
  const paid: InvoicePaymentDoc = {
    id: open?.id ?? store.newId("inpay"),
    object: "invoice_payment",
    amount_paid: amount,
    amount_requested: amount,
    created: open?.created ?? now,
    currency: inv.currency,
    invoice: inv.id,
    is_default: true,
    livemode: false,
    payment: { type: "payment_intent", payment_intent: piId },
    status: "paid",
    status_transitions: { canceled_at: null, paid_at: now },
  };
  return [paid, ...inv.payments.data.filter((p) => p !== open).map((p) => ({ ...p, is_default: false }))];
}

/** The card of the customer's most recent charge (the twin's stand-in for a default payment method). */
function cardOnFile(store: Store, customer: string): Card {
  for (const ch of store.list("charges", { customer })) {
    const card = (ch.payment_method_details as { card?: Card } | null)?.card;
    if (card && ch.status === "succeeded") return { brand: card.brand, last4: card.last4, exp_month: card.exp_month, exp_year: card.exp_year };
  }
  return defaultCard(store.now());
}

/** An open invoice payment whose invoice will not be collected: its payment intent is canceled too. */
function cancelPayment(store: Store, p: InvoicePaymentDoc, now: number, reason = "void_invoice"): InvoicePaymentDoc {
  const piId = paymentIntentOf(p);
  const pi = piId ? store.get("payment_intents", piId) : null;
  if (pi && pi.status !== "succeeded" && pi.status !== "canceled")
    store.update("payment_intents", pi.id, { ...pi, status: "canceled", canceled_at: now, cancellation_reason: reason });
  return { ...p, status: "canceled", status_transitions: { ...p.status_transitions, canceled_at: now } };
}

export function voidInvoice(store: Store, inv: InvoiceDoc): InvoiceDoc {
  if (inv.status === "paid") throw domainError("Invoices with `paid` payments cannot be voided.", "status_transition_invalid");
  if (inv.status !== "open" && inv.status !== "uncollectible") throw notOpen();
  const now = store.now();
  // Credit the invoice consumed from the customer's balance goes back to the customer.
  const applied = inv.ending_balance === null ? 0 : inv.ending_balance - inv.starting_balance;
  if (applied !== 0 && store.get("customers", inv.customer))
    applyBalanceChange(store, { customer: inv.customer, amount: -applied, currency: inv.currency, type: "unapplied_from_invoice", invoice: inv.id });
  const payments = inv.payments.data.map((p) => (p.status === "open" ? cancelPayment(store, p, now) : p));
  return store.update("invoices", inv.id, {
    ...inv,
    status: "void",
    auto_advance: false,
    next_payment_attempt: null,
    payments: { ...inv.payments, data: payments },
    status_transitions: { ...inv.status_transitions, voided_at: now },
  });
}

export function markUncollectible(store: Store, inv: InvoiceDoc): InvoiceDoc {
  if (inv.status === "uncollectible") throw domainError("This invoice has already been marked uncollectible.", "status_transition_invalid");
  if (inv.status !== "open") throw notOpen();
  return store.update("invoices", inv.id, {
    ...inv,
    status: "uncollectible",
    auto_advance: false,
    next_payment_attempt: null,
    status_transitions: { ...inv.status_transitions, marked_uncollectible_at: store.now() },
  });
}

/** Paying the latest invoice of a subscription that was waiting on it makes the subscription active again. */
function reactivateSubscription(store: Store, inv: InvoiceDoc): void {
  const subId = inv.parent?.subscription_details?.subscription;
  if (!subId) return;
  const sub = store.get("subscriptions", subId);
  if (sub && sub.latest_invoice === inv.id && (sub.status === "past_due" || sub.status === "unpaid" || sub.status === "incomplete"))
    store.update("subscriptions", sub.id, { ...sub, status: "active" });
}

/** Marks an open or uncollectible invoice paid when credit notes leave nothing to collect. */
export function paidByCredit(store: Store, inv: InvoiceDoc): InvoiceDoc {
  if ((inv.status !== "open" && inv.status !== "uncollectible") || inv.amount_remaining > 0) return inv;
  const now = store.now();
  const payments = inv.payments.data.map((p) => (p.status === "open" ? cancelPayment(store, p, now) : p));
  const out = store.update<InvoiceDoc>("invoices", inv.id, {
    ...inv,
    status: "paid",
    auto_advance: false,
    next_payment_attempt: null,
    payments: { ...inv.payments, data: payments },
    status_transitions: { ...inv.status_transitions, paid_at: now },
  });
  reactivateSubscription(store, out);
  return out;
}

