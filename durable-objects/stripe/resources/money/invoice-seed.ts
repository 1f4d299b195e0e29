// Seeded invoices in their full current shape: totals from the lines, customer balance and credit notes;
// payments from the charge / payment intent the seed links (from either side); numbers and status
// transitions filled in when the seed leaves them out.
import type { SeedDocument } from "../../../../src/core/world/seed/schema";
import type { SeedContext, SeedRow } from "../../../seed/rows";
import type { StoredObject } from "../../../store/store";
import { endingBalance, settle, type InvoiceDoc, type InvoicePaymentDoc } from "./invoice-math";
import { invoiceDocument } from "./invoice-doc";
import { idSuffix, moneyIndex, SeedConsistencyError, type MoneySeedIndex, type SeedInvoice } from "./seed-index";

const DAY = 86_400;

export function seedInvoices(doc: SeedDocument, ctx: SeedContext): SeedRow[] {
  const idx = moneyIndex(doc);
  return doc.data.invoices.map((inv, i) => {
    const number = idx.invoiceNumbers.get(inv.id) ?? inv.number ?? null;
    const obj = invoiceFromSeed(inv, i, number, doc, ctx, idx);
    return { type: "invoices", obj, customer: inv.customer, created: obj.created as number };
  });
}

function invoiceFromSeed(inv: SeedInvoice, i: number, number: string | null, doc: SeedDocument, ctx: SeedContext, idx: MoneySeedIndex): InvoiceDoc {
  const path = `data.invoices[${i}]`;
  const currency = inv.currency ?? doc.currency;
  const created = inv.created ?? ctx.clock;
  const customer = idx.customers.get(inv.customer);
  const finalized = inv.status !== "draft";
  const finalizedAt = finalized ? (inv.finalized_at ?? created) : null;
  const total = idx.invoiceTotals.get(inv.id) ?? 0;
  if (!finalized && inv.starting_balance) throw new SeedConsistencyError(`${path}.starting_balance`, `draft invoice ${inv.id} cannot have a starting balance: the customer balance is applied when an invoice is finalized`);
  const starting = finalized ? (inv.starting_balance ?? 0) : 0;
  const ending = finalized ? endingBalance(starting, total) : null;

  let pre = 0;
  let post = 0;
  for (const cn of idx.creditNotesByInvoice.get(inv.id) ?? []) {
    if (cn.status === "void") continue;
    const split = idx.splits.get(cn.id)!;
    pre += split.pre;
    post += split.post;
  }
  const subscription = inv.subscription ?? null;
  const lines = inv.lines.map((l) => lineFromSeed(l, inv.id, currency, subscription, idx));
  const collection = inv.collection_method ?? "charge_automatically";
  const paidAt = inv.status === "paid" ? (inv.paid_at ?? finalizedAt) : null;
  const voidedAt = inv.status === "void" ? (inv.voided_at ?? finalizedAt) : null;
  const uncollectibleAt = inv.status === "uncollectible" ? (inv.marked_uncollectible_at ?? finalizedAt) : (inv.marked_uncollectible_at ?? null);

  const base: InvoiceDoc = settle(
    invoiceDocument({
      id: inv.id,
      created,
      currency,
      customer: inv.customer,
      customerDoc: customer,
      accountName: doc.account?.name ?? null,
      status: inv.status,
      number,
      collectionMethod: collection,
      billingReason: subscription ? "subscription_cycle" : "manual",
      autoAdvance: inv.status === "draft" || inv.status === "open",
      automaticallyFinalizesAt: inv.status === "draft" ? created + 3600 : null,
      description: inv.description ?? null,
      dueDate: inv.due_date ?? (collection === "send_invoice" && finalizedAt !== null ? finalizedAt + 30 * DAY : null),
      effectiveAt: finalizedAt,
      startingBalance: starting,
      endingBalance: ending,
      hostedInvoiceUrl: finalized ? hostedUrl(inv.id) : null,
      invoicePdf: finalized ? pdfUrl(inv.id) : null,
      lines,
      metadata: inv.metadata ?? {},
      parent: subscription
        ? { type: "subscription_details", quote_details: null, subscription_details: { metadata: idx.subscriptions.get(subscription)?.metadata ?? {}, subscription } }
        : null,
      periodStart: inv.period_start ?? minOr(inv.lines.map((l) => l.period.start), created),
      periodEnd: inv.period_end ?? maxOr(inv.lines.map((l) => l.period.end), created),
      prePaymentCreditNotes: pre,
      postPaymentCreditNotes: post,
      statusTransitions: { finalized_at: finalizedAt, marked_uncollectible_at: uncollectibleAt, paid_at: paidAt, voided_at: voidedAt },
      total,
    }),
  );
  if (pre > total + (starting - (ending ?? 0)))
    throw new SeedConsistencyError(path, `pre-payment credit notes on invoice ${inv.id} add up to ${pre}, more than it was due`);

  const due = base.amount_due;
  let paid = inv.amount_paid ?? (inv.status === "paid" ? due : 0);
  if (inv.status === "paid" && paid !== due)
    throw new SeedConsistencyError(`${path}.amount_paid`, `paid invoice ${inv.id} has amount_paid ${paid} but amount_due ${due} (lines ${total}, starting_balance ${starting}, pre-payment credit notes ${pre})`);
  if (inv.status === "draft" && paid !== 0) throw new SeedConsistencyError(`${path}.amount_paid`, `draft invoice ${inv.id} cannot have payments`);
  if (inv.status === "open" && due > 0 && paid >= due)
    throw new SeedConsistencyError(`${path}.amount_paid`, `open invoice ${inv.id} has amount_paid ${paid} covering all of amount_due ${due}; mark it paid instead`);
  if (paid > due) throw new SeedConsistencyError(`${path}.amount_paid`, `invoice ${inv.id} has amount_paid ${paid}, more than amount_due ${due}`);
  paid = Math.max(0, paid);

  const piId = idx.invoiceIntent.get(inv.id) ?? null;
  const chId = idx.invoiceCharge.get(inv.id) ?? null;
  const payments: InvoicePaymentDoc[] = [];
  let offStripe = 0;
  if (piId || chId) {
    const status = inv.status === "paid" ? "paid" : inv.status === "void" ? "canceled" : "open";
    if (inv.status !== "draft") {
      payments.push({
        id: `inpay_${idSuffix(inv.id)}`,
        object: "invoice_payment",
        amount_paid: status === "paid" ? paid : null,
        amount_requested: status === "paid" ? paid : due,
        created: paidAt ?? finalizedAt ?? created,
        currency,
        invoice: inv.id,
        is_default: true,
        livemode: false,
        payment: piId ? { type: "payment_intent", payment_intent: piId } : { type: "charge", charge: chId! },
        status,
        status_transitions: { canceled_at: status === "canceled" ? voidedAt : null, paid_at: status === "paid" ? paidAt : null },
      });
    }
  } else if (inv.status === "paid") offStripe = paid;

  const attempted = payments.some((p) => p.status === "paid") || (inv.status === "open" && collection === "charge_automatically");
  return settle({
    ...base,
    amount_paid: paid,
    amount_paid_off_stripe: offStripe,
    attempt_count: attempted ? 1 : 0,
    attempted,
    payments: { ...base.payments, data: payments, total_count: payments.length },
  });
}

function lineFromSeed(l: SeedInvoice["lines"][number], invoice: string, currency: string, subscription: string | null, idx: MoneySeedIndex): StoredObject {
  const price = l.price ? idx.prices.get(l.price) : undefined;
  const proration = l.proration ?? false;
  const parent = l.subscription_item
    ? {
        invoice_item_details: null,
        subscription_item_details: { invoice_item: null, proration, proration_details: { credited_items: null }, subscription, subscription_item: l.subscription_item },
        type: "subscription_item_details",
      }
    : {
        invoice_item_details: { invoice_item: `ii_${idSuffix(l.id)}`, proration, proration_details: { credited_items: null }, subscription },
        subscription_item_details: null,
        type: "invoice_item_details",
      };
  return {
    id: l.id,
    object: "line_item",
    amount: l.amount,
    currency,
    description: l.description ?? null,
    discount_amounts: [],
    discountable: true,
    discounts: [],
    invoice,
    livemode: false,
    metadata: l.metadata ?? {},
    parent,
    period: { end: l.period.end, start: l.period.start },
    pretax_credit_amounts: [],
    pricing: price ? { price_details: { price: price.id, product: price.product }, type: "price_details", unit_amount_decimal: String(price.unit_amount) } : null,
    quantity: l.quantity ?? (price ? 1 : null),
    quantity_decimal: (l.quantity ?? (price ? 1 : null)) === null ? null : String(l.quantity ?? 1),
    subscription,
    subtotal: l.amount,
    taxes: [],
  };
}

export function hostedUrl(id: string): string {
  return `https://invoice.stripe.com/i/${id}`;
}

export function pdfUrl(id: string): string {
  return `https://pay.stripe.com/invoice/${id}/pdf`;
}

function minOr(xs: number[], d: number): number {
  return xs.length ? Math.min(...xs) : d;
}
function maxOr(xs: number[], d: number): number {
  return xs.length ? Math.max(...xs) : d;
}
