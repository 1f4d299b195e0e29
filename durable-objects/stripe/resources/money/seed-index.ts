// Cross-collection facts the money collections need while seeding (a charge's refunds, the charge that paid an
// invoice, each credit note's pre/post-payment split), computed once per seed document and checked for
// consistency: a seed whose money does not add up is refused with the object and the numbers named.
import type { SeedDocument } from "../../../../src/core/world/seed/schema";

type Data = SeedDocument["data"];
export type SeedInvoice = Data["invoices"][number];
export type SeedCharge = Data["charges"][number];
export type SeedPaymentIntent = Data["payment_intents"][number];
export type SeedRefund = Data["refunds"][number];
export type SeedCreditNote = Data["credit_notes"][number];

/** A seed whose amounts contradict each other. `path` points into the seed document. */
export class SeedConsistencyError extends Error {
  constructor(readonly path: string, message: string) {
    super(`${path}: ${message}`);
  }
}

export interface CreditNoteSplit {
  amount: number;
  pre: number;
  post: number;
}

export interface MoneySeedIndex {
  customers: Map<string, Data["customers"][number]>;
  prices: Map<string, Data["prices"][number]>;
  subscriptions: Map<string, Data["subscriptions"][number]>;
  invoices: Map<string, SeedInvoice>;
  charges: Map<string, SeedCharge>;
  paymentIntents: Map<string, SeedPaymentIntent>;
  refunds: Map<string, SeedRefund>;
  refundsByCharge: Map<string, SeedRefund[]>;
  /** Newest charge first per payment intent. */
  chargesByIntent: Map<string, SeedCharge[]>;
  /** The charge and payment intent behind each invoice, from any side that names the link. */
  invoiceCharge: Map<string, string>;
  invoiceIntent: Map<string, string>;
  creditNotesByInvoice: Map<string, SeedCreditNote[]>;
  splits: Map<string, CreditNoteSplit>;
  invoiceTotals: Map<string, number>;
  /** Each finalized invoice's number: the seed's, else the customer's prefix and its sequence in seed order. */
  invoiceNumbers: Map<string, string>;
}

const cache = new WeakMap<SeedDocument, MoneySeedIndex>();

export function moneyIndex(doc: SeedDocument): MoneySeedIndex {
  let idx = cache.get(doc);
  if (!idx) {
    idx = build(doc);
    cache.set(doc, idx);
  }
  return idx;
}

function byId<T extends { id: string }>(xs: T[]): Map<string, T> {
  return new Map(xs.map((x) => [x.id, x]));
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const cur = m.get(k);
  if (cur) cur.push(v);
  else m.set(k, [v]);
}

function build(doc: SeedDocument): MoneySeedIndex {
  const d = doc.data;
  const idx: MoneySeedIndex = {
    customers: byId(d.customers),
    prices: byId(d.prices),
    subscriptions: byId(d.subscriptions),
    invoices: byId(d.invoices),
    charges: byId(d.charges),
    paymentIntents: byId(d.payment_intents),
    refunds: byId(d.refunds),
    refundsByCharge: new Map(),
    chargesByIntent: new Map(),
    invoiceCharge: new Map(),
    invoiceIntent: new Map(),
    creditNotesByInvoice: new Map(),
    splits: new Map(),
    invoiceTotals: new Map(),
    invoiceNumbers: new Map(),
  };
  const sequences = new Map<string, number>();
  for (const inv of d.invoices) {
    if (inv.status === "draft") continue;
    const n = (sequences.get(inv.customer) ?? 0) + 1;
    sequences.set(inv.customer, n);
    idx.invoiceNumbers.set(inv.id, inv.number ?? invoiceNumber(invoicePrefix(inv.customer), n));
  }
  for (const r of d.refunds) push(idx.refundsByCharge, r.charge, r);
  d.charges.forEach((ch, i) => {
    const refunded = (idx.refundsByCharge.get(ch.id) ?? []).reduce((s, r) => s + r.amount, 0);
    if (refunded > ch.amount) throw new SeedConsistencyError(`data.charges[${i}]`, `charge ${ch.id} has refunds adding up to ${refunded}, more than its amount ${ch.amount}`);
    if (ch.amount_refunded !== undefined && ch.amount_refunded !== refunded)
      throw new SeedConsistencyError(`data.charges[${i}].amount_refunded`, `charge ${ch.id} says amount_refunded ${ch.amount_refunded} but its refunds in data.refunds add up to ${refunded}; list each refund in data.refunds (or omit amount_refunded)`);
    if (ch.payment_intent) push(idx.chargesByIntent, ch.payment_intent, ch);
    if (ch.invoice) idx.invoiceCharge.set(ch.invoice, ch.id);
  });
  for (const list of idx.chargesByIntent.values()) list.sort((a, b) => (b.created ?? 0) - (a.created ?? 0));
  for (const pi of d.payment_intents) if (pi.invoice) idx.invoiceIntent.set(pi.invoice, pi.id);
  for (const inv of d.invoices) {
    if (inv.payment_intent) idx.invoiceIntent.set(inv.id, inv.payment_intent);
    if (inv.charge) idx.invoiceCharge.set(inv.id, inv.charge);
    const piId = idx.invoiceIntent.get(inv.id);
    const chId = idx.invoiceCharge.get(inv.id);
    if (!piId && chId) {
      const viaCharge = idx.charges.get(chId)?.payment_intent;
      if (viaCharge) idx.invoiceIntent.set(inv.id, viaCharge);
    }
    if (!chId && piId) {
      const latest = latestCharge(idx, piId);
      if (latest) idx.invoiceCharge.set(inv.id, latest);
    }
    idx.invoiceTotals.set(inv.id, inv.lines.reduce((s, l) => s + l.amount, 0));
  }
  d.credit_notes.forEach((cn, i) => {
    const amount = cn.lines.reduce((s, l) => s + l.amount, 0);
    const post = (cn.credit_amount ?? 0) + (cn.refund_amount ?? 0) + (cn.out_of_band_amount ?? 0);
    const path = `data.credit_notes[${i}]`;
    if (post > amount) throw new SeedConsistencyError(path, `credit note ${cn.id}: credit_amount + refund_amount + out_of_band_amount = ${post}, more than its amount ${amount} (the sum of its lines)`);
    const inv = idx.invoices.get(cn.invoice);
    if (inv?.status === "draft") throw new SeedConsistencyError(path, `credit note ${cn.id} is on draft invoice ${cn.invoice}; credit notes need a finalized invoice`);
    if (inv && cn.customer && cn.customer !== inv.customer) throw new SeedConsistencyError(`${path}.customer`, `credit note ${cn.id} names customer ${cn.customer} but its invoice ${inv.id} belongs to ${inv.customer}`);
    const split = { amount, pre: amount - post, post };
    if (cn.type === "post_payment" && split.pre !== 0)
      throw new SeedConsistencyError(path, `credit note ${cn.id} is post_payment, so credit_amount + refund_amount + out_of_band_amount must add up to its amount ${amount} (they add up to ${post})`);
    if (cn.type === "pre_payment" && split.post !== 0)
      throw new SeedConsistencyError(path, `credit note ${cn.id} is pre_payment, so it cannot have credit_amount, refund_amount or out_of_band_amount`);
    if (cn.refund && !idx.refunds.has(cn.refund)) throw new SeedConsistencyError(`${path}.refund`, `no refund ${cn.refund} in data.refunds`);
    idx.splits.set(cn.id, split);
    push(idx.creditNotesByInvoice, cn.invoice, cn);
  });
  for (const [invId, cns] of idx.creditNotesByInvoice) {
    const total = idx.invoiceTotals.get(invId) ?? 0;
    const credited = cns.filter((c) => c.status !== "void").reduce((s, c) => s + (idx.splits.get(c.id)?.amount ?? 0), 0);
    if (credited > total) throw new SeedConsistencyError("data.credit_notes", `credit notes on invoice ${invId} add up to ${credited}, more than its total ${total}`);
  }
  return idx;
}

export function latestCharge(idx: MoneySeedIndex, piId: string): string | null {
  const pi = idx.paymentIntents.get(piId);
  if (pi?.latest_charge) return pi.latest_charge;
  return idx.chargesByIntent.get(piId)?.[0]?.id ?? null;
}

/** The invoice number prefix a seeded customer gets (the customers resource derives it the same way). */
export function invoicePrefix(customerId: string): string {
  return (idSuffix(customerId).replace(/[^A-Za-z0-9]/g, "").toUpperCase() + "XXXXXXXX").slice(0, 8);
}

export function invoiceNumber(prefix: string, sequence: number): string {
  return `${prefix}-${String(sequence).padStart(4, "0")}`;
}

/** Suffix of an id after its prefix, used to derive ids of objects a seed implies but does not list. */
export function idSuffix(id: string): string {
  return id.slice(id.indexOf("_") + 1);
}
