// Look-ups over a seed that resolution needs: customers by email, objects by id and by owner, and what is
// still refundable, creditable or live. Built once per compile; reads the seed, never changes it.
import type { SeedCustomer, SeedDocument } from "../../../world/seed/schema";

type Data = SeedDocument["data"];
export type SeedCharge = Data["charges"][number];
export type SeedInvoice = Data["invoices"][number];
export type SeedSubscription = Data["subscriptions"][number];
export type SeedPaymentIntent = Data["payment_intents"][number];
export type SeedPrice = Data["prices"][number];

/** Subscription statuses that can still be cancelled or changed. */
const LIVE_SUBSCRIPTION = new Set(["active", "trialing", "past_due", "unpaid", "paused", "incomplete"]);

export interface Ordered<T> {
  obj: T;
  /** Position in its seed collection: the tie-breaker when two objects share a `created`. */
  order: number;
}

function byKey<T, K>(xs: T[], key: (x: T) => K | null | undefined): Map<K, Array<Ordered<T>>> {
  const m = new Map<K, Array<Ordered<T>>>();
  xs.forEach((obj, order) => {
    const k = key(obj);
    if (k === null || k === undefined) return;
    const list = m.get(k);
    if (list) list.push({ obj, order });
    else m.set(k, [{ obj, order }]);
  });
  return m;
}

export class SeedIndex {
  readonly customers = new Map<string, SeedCustomer>();
  readonly charges = new Map<string, SeedCharge>();
  readonly invoices = new Map<string, SeedInvoice>();
  readonly subscriptions = new Map<string, SeedSubscription>();
  readonly paymentIntents = new Map<string, SeedPaymentIntent>();
  readonly prices = new Map<string, SeedPrice>();
  readonly productNames = new Map<string, string>();
  private readonly byEmail: Map<string, Array<Ordered<SeedCustomer>>>;
  private readonly chargesOf: Map<string, Array<Ordered<SeedCharge>>>;
  private readonly invoicesOf: Map<string, Array<Ordered<SeedInvoice>>>;
  private readonly subscriptionsOf: Map<string, Array<Ordered<SeedSubscription>>>;
  private readonly refunded = new Map<string, number>();
  private readonly credited = new Map<string, number>();

  constructor(readonly seed: SeedDocument) {
    const d = seed.data;
    for (const c of d.customers) this.customers.set(c.id, c);
    for (const c of d.charges) this.charges.set(c.id, c);
    for (const i of d.invoices) this.invoices.set(i.id, i);
    for (const s of d.subscriptions) this.subscriptions.set(s.id, s);
    for (const p of d.payment_intents) this.paymentIntents.set(p.id, p);
    for (const p of d.prices) this.prices.set(p.id, p);
    for (const p of d.products) this.productNames.set(p.id, p.name);
    this.byEmail = byKey(d.customers, (c) => c.email?.trim().toLowerCase());
    this.chargesOf = byKey(d.charges, (c) => c.customer);
    this.invoicesOf = byKey(d.invoices, (i) => i.customer);
    this.subscriptionsOf = byKey(d.subscriptions, (s) => s.customer);
    for (const r of d.refunds) if (r.status !== "failed" && r.status !== "canceled") this.refunded.set(r.charge, (this.refunded.get(r.charge) ?? 0) + r.amount);
    for (const cn of d.credit_notes) {
      if (cn.status === "void") continue;
      const total = cn.lines.reduce((s, l) => s + l.amount, 0);
      this.credited.set(cn.invoice, (this.credited.get(cn.invoice) ?? 0) + total);
    }
  }

  customersWithEmail(email: string): SeedCustomer[] {
    return (this.byEmail.get(email.trim().toLowerCase()) ?? []).map((o) => o.obj);
  }

  /** The customer an object belongs to (a customer owns itself), or null when the seed does not hold it. */
  ownerOf(id: string): string | null {
    if (this.customers.has(id)) return id;
    return this.charges.get(id)?.customer ?? this.invoices.get(id)?.customer ?? this.subscriptions.get(id)?.customer ?? this.paymentIntents.get(id)?.customer ?? null;
  }

  holds(id: string): boolean {
    return this.customers.has(id) || this.charges.has(id) || this.invoices.has(id) || this.subscriptions.has(id) || this.paymentIntents.has(id);
  }

  currencyOf(obj: { currency?: string | null }): string {
    return (obj.currency ?? this.seed.currency).toLowerCase();
  }

  /** Amount still refundable on a charge: its amount less every refund the seed records against it. */
  refundable(ch: SeedCharge): number {
    if ((ch.status ?? "succeeded") !== "succeeded") return 0;
    const refunded = Math.max(ch.amount_refunded ?? 0, this.refunded.get(ch.id) ?? 0);
    return Math.max(0, ch.amount - refunded);
  }

  refundedAmount(ch: SeedCharge): number {
    return Math.max(ch.amount_refunded ?? 0, this.refunded.get(ch.id) ?? 0);
  }

  invoiceTotal(inv: SeedInvoice): number {
    return inv.lines.reduce((s, l) => s + l.amount, 0);
  }

  /** What a credit note may still take off an invoice. */
  creditable(inv: SeedInvoice): number {
    return Math.max(0, this.invoiceTotal(inv) - (this.credited.get(inv.id) ?? 0));
  }

  /** The succeeded charge that paid an invoice: the invoice's own `charge`, else a charge pointing at it. */
  chargeOfInvoice(inv: SeedInvoice): SeedCharge | null {
    if (inv.charge) return this.charges.get(inv.charge) ?? null;
    for (const c of this.seed.data.charges) if (c.invoice === inv.id && (c.status ?? "succeeded") === "succeeded") return c;
    return null;
  }

  chargeOfPaymentIntent(pi: SeedPaymentIntent): SeedCharge | null {
    if (pi.latest_charge) return this.charges.get(pi.latest_charge) ?? null;
    for (const c of this.seed.data.charges) if (c.payment_intent === pi.id) return c;
    return null;
  }

  chargesOfCustomer(cus: string): Array<Ordered<SeedCharge>> {
    return this.chargesOf.get(cus) ?? [];
  }

  invoicesOfCustomer(cus: string): Array<Ordered<SeedInvoice>> {
    return this.invoicesOf.get(cus) ?? [];
  }

  subscriptionsOfCustomer(cus: string): Array<Ordered<SeedSubscription>> {
    return this.subscriptionsOf.get(cus) ?? [];
  }

  isLive(sub: SeedSubscription): boolean {
    return LIVE_SUBSCRIPTION.has(sub.status);
  }

  /** Recurring prices that are on sale. */
  recurringPrices(): SeedPrice[] {
    return this.seed.data.prices.filter((p) => p.recurring && p.active !== false);
  }

  priceLabel(p: SeedPrice): string {
    return p.nickname ?? this.productNames.get(p.product) ?? p.id;
  }
}

/** Newest first by `created`, later seed position winning a tie; objects without `created` count as oldest. */
export function newestFirst<T extends { created?: number }>(xs: Array<Ordered<T>>): Array<Ordered<T>> {
  return [...xs].sort((a, b) => (b.obj.created ?? -1) - (a.obj.created ?? -1) || b.order - a.order);
}
