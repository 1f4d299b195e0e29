// Reading billing objects out of diff entries (and, when the caller has them, the world's current objects):
// typed field access and the links between charges, payment intents, invoices and subscriptions.
import type { DiffEntry, ObjectType, WorldDiff } from "../../../world/diff/types";

export type Obj = Record<string, unknown>;

/** The world's objects by collection, as GET /admin/worlds/:id/objects returns them. Optional context. */
export type WorldObjects = Partial<Record<ObjectType, Obj[]>>;

export function isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function num(o: Obj | null | undefined, key: string): number | null {
  const v = o?.[key];
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

/** A string field, or the id of an expanded object in that field. */
export function ref(o: Obj | null | undefined, key: string): string | null {
  const v = o?.[key];
  if (typeof v === "string") return v;
  if (isObj(v) && typeof v.id === "string") return v.id;
  return null;
}

export function str(o: Obj | null | undefined, key: string): string | null {
  const v = o?.[key];
  return typeof v === "string" ? v : null;
}

/** The customer an entry belongs to: the store's column first, then the object's own field. */
export function entryCustomer(e: DiffEntry): string | null {
  if (e.customer) return e.customer;
  if (e.type === "customers") return e.id;
  return ref(e.after, "customer") ?? ref(e.before, "customer");
}

export interface SubscriptionItemView {
  id: string | null;
  price: string | null;
  quantity: number;
  unit_amount: number | null;
  names: string[];
}

/** A subscription's items whether stored as a list object ({data: [...]}) or a bare array, price as id or object. */
export function subscriptionItems(sub: Obj | null, index: ObjectIndex): SubscriptionItemView[] {
  if (!sub) return [];
  const raw = sub.items;
  const list = Array.isArray(raw) ? raw : isObj(raw) && Array.isArray(raw.data) ? raw.data : [];
  return list.filter(isObj).map((it) => {
    const priceObj = isObj(it.price) ? it.price : null;
    const priceId = ref(it, "price");
    const known = priceObj ?? (priceId ? index.get(priceId) : null);
    return {
      id: str(it, "id"),
      price: priceId,
      quantity: num(it, "quantity") ?? 1,
      unit_amount: num(known, "unit_amount"),
      names: priceNames(known, index),
    };
  });
}

/** The names a plan goes by: the price's nickname and lookup key, and its product's name. */
export function priceNames(price: Obj | null | undefined, index: ObjectIndex): string[] {
  if (!price) return [];
  const names = [str(price, "nickname"), str(price, "lookup_key")];
  const product = isObj(price.product) ? price.product : ref(price, "product") ? index.get(ref(price, "product")!) : null;
  names.push(str(product, "name"));
  return names.filter((n): n is string => !!n);
}

/**
 * Lookup by id over everything the grader can see: the world's objects when given, then each diff entry's latest
 * state (after, else before). Also answers the links a target match needs (charge <-> invoice <-> payment intent).
 */
export class ObjectIndex {
  private readonly byId = new Map<string, Obj>();
  private readonly initialById = new Map<string, Obj>();
  private readonly invoiceOfCharge = new Map<string, string>();
  private readonly invoiceOfIntent = new Map<string, string>();
  private readonly chargeOfInvoice = new Map<string, string>();
  private readonly intentOfInvoice = new Map<string, string>();

  constructor(diff: WorldDiff, objects: WorldObjects = {}) {
    for (const list of Object.values(objects)) for (const o of list ?? []) if (typeof o.id === "string") this.byId.set(o.id, o);
    for (const e of diff.entries) {
      const o = e.after ?? e.before;
      if (o && !this.byId.has(e.id)) this.byId.set(e.id, o);
      if (e.before) this.initialById.set(e.id, e.before);
    }
    for (const o of this.byId.values()) this.link(o);
  }

  get(id: string): Obj | null {
    return this.byId.get(id) ?? null;
  }

  /** The object as the world was seeded: the diff's before when the agent changed it, else the current state. */
  initial(id: string): Obj | null {
    return this.initialById.get(id) ?? this.byId.get(id) ?? null;
  }

  private link(o: Obj): void {
    const id = str(o, "id");
    if (!id) return;
    if (id.startsWith("ch_")) {
      const inv = ref(o, "invoice");
      if (inv) this.pair(id, inv, "charge");
      const pi = ref(o, "payment_intent");
      if (pi && inv) this.pair(pi, inv, "intent");
    } else if (id.startsWith("pi_")) {
      const inv = ref(o, "invoice");
      if (inv) this.pair(id, inv, "intent");
    } else if (id.startsWith("in_")) {
      const ch = ref(o, "charge");
      if (ch) this.pair(ch, id, "charge");
      const pi = ref(o, "payment_intent");
      if (pi) this.pair(pi, id, "intent");
      // Current API versions link an invoice to what paid it through invoice.payments only.
      const payments = isObj(o.payments) && Array.isArray(o.payments.data) ? o.payments.data.filter(isObj) : [];
      for (const p of payments) {
        const pay = isObj(p.payment) ? p.payment : null;
        const charge = ref(pay, "charge");
        const intent = ref(pay, "payment_intent");
        if (charge) this.pair(charge, id, "charge");
        if (intent) this.pair(intent, id, "intent");
      }
    }
  }

  private pair(from: string, invoice: string, kind: "charge" | "intent"): void {
    if (kind === "charge") {
      if (!this.invoiceOfCharge.has(from)) this.invoiceOfCharge.set(from, invoice);
      if (!this.chargeOfInvoice.has(invoice)) this.chargeOfInvoice.set(invoice, from);
    } else {
      if (!this.invoiceOfIntent.has(from)) this.invoiceOfIntent.set(from, invoice);
      if (!this.intentOfInvoice.has(invoice)) this.intentOfInvoice.set(invoice, from);
    }
  }

  /** Ids related to a charge: its payment intent and invoice. */
  chargeLinks(charge: string): string[] {
    const ch = this.get(charge);
    const pi = ref(ch, "payment_intent");
    const inv = this.invoiceOfCharge.get(charge) ?? (pi ? this.invoiceOfIntent.get(pi) : undefined);
    return [pi, inv].filter((x): x is string => !!x);
  }

  /** Ids related to an invoice: its charge, payment intent and subscription. */
  invoiceLinks(invoice: string): string[] {
    const inv = this.get(invoice);
    const pi = this.intentOfInvoice.get(invoice) ?? null;
    const ch = this.chargeOfInvoice.get(invoice) ?? (pi ? ref(this.get(pi), "latest_charge") : null);
    return [ch, pi, ref(inv, "subscription")].filter((x): x is string => !!x);
  }

  /** The invoice a charge or payment intent paid, or null. */
  invoiceOfPayment(id: string): string | null {
    if (id.startsWith("pi_")) return this.invoiceOfIntent.get(id) ?? null;
    const pi = ref(this.get(id), "payment_intent");
    return this.invoiceOfCharge.get(id) ?? (pi ? (this.invoiceOfIntent.get(pi) ?? null) : null);
  }

  chargeOfInvoiceId(invoice: string): string | null {
    return this.chargeOfInvoice.get(invoice) ?? null;
  }
}
