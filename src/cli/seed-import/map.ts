// Billing API objects into a seed document: each object in the seed's own fields, customers replaced by their
// pseudonyms everywhere they appear (ids, emails, names, and any free text that quotes them), objects whose
// required links are gone dropped with a warning, and every collection in a stable order.
import { dict, isForbiddenKey } from "../../core/util/safe-tree";
import type { SeedDocument } from "../../core/world/seed/schema";
import type { Objects } from "./crawl";
import type { Pseudonym, Pseudonymizer } from "./pseudonym";
import type { ApiObject } from "./source";

type Data = SeedDocument["data"];
export interface IdentityEntry {
  id: string;
  email: string | null;
  name: string | null;
  pseudonym: Pseudonym;
}

export interface Mapped {
  seed: SeedDocument;
  identities: IdentityEntry[];
  warnings: string[];
}

const str = (v: unknown): string | null => (typeof v === "string" ? v : null);
/** A string field the seed has no null for: absent when the API left it out. */
const opt = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
const bool = (v: unknown): boolean | undefined => (typeof v === "boolean" ? v : undefined);
const idOf = (v: unknown): string | null => (typeof v === "string" ? v : v && typeof v === "object" && typeof (v as { id?: unknown }).id === "string" ? (v as { id: string }).id : null);
const items = (v: unknown): ApiObject[] => (v && typeof v === "object" && Array.isArray((v as { data?: unknown }).data) ? (v as { data: ApiObject[] }).data : []);
const isoOf = (unix: number) => new Date(unix * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");

/** Drops undefined fields so the seed holds only what the account said. */
function clean<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

function metadataOf(v: unknown, scrub: (s: string) => string): Record<string, string> | undefined {
  if (!v || typeof v !== "object") return undefined;
  // A key that names a built-in property cannot live in a world (seeds refuse it), so the import leaves it out.
  const out: Record<string, string> = dict();
  for (const [k, val] of Object.entries(v as Record<string, unknown>)) if (typeof val === "string" && !isForbiddenKey(k)) out[k] = scrub(val);
  return Object.keys(out).length ? out : undefined;
}

/** Seed line ids must start il_; older accounts' lines are ii_/sli_ ids, renamed the same way everywhere. */
function lineId(id: string): string {
  return id.startsWith("il_") ? id : `il_${id.replace(/[^A-Za-z0-9]/g, "")}`;
}

export interface MapOptions {
  name: string;
  description: string;
  /** Overrides the clock derived from the newest event in the data. */
  clock?: string;
}

export function toSeed(objects: Objects, p: Pseudonymizer, opts: MapOptions): Mapped {
  const warnings: string[] = [];
  const have = (kind: keyof Objects, id: string | null) => (id !== null && objects[kind].has(id) ? id : null);

  // Pseudonyms first: every customer's, and a scrubber that replaces their real emails and names in free text.
  const identities: IdentityEntry[] = [];
  const pseudo = new Map<string, Pseudonym>();
  const replacements: Array<[string, string]> = [];
  for (const c of objects.customers.values()) {
    const real = { id: c.id, email: str(c.email), name: str(c.name) };
    const ps = p.customer(real);
    pseudo.set(c.id, ps);
    identities.push({ ...real, pseudonym: ps });
    if (real.email && ps.email) replacements.push([real.email, ps.email]);
    if (real.name && ps.name && real.name.trim().length >= 3) replacements.push([real.name, ps.name]);
  }
  replacements.sort((a, b) => b[0].length - a[0].length);
  const scrub = (s: string): string => {
    let out = s;
    for (const [from, to] of replacements) if (out.toLowerCase().includes(from.toLowerCase())) out = out.replace(new RegExp(from.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "gi"), to);
    return out;
  };
  const text = (v: unknown): string | null | undefined => (typeof v === "string" ? scrub(v) : v === null ? null : undefined);
  const cus = (v: unknown): string | null => {
    const id = idOf(v);
    return id && pseudo.has(id) ? pseudo.get(id)!.id : null;
  };
  const otherEmail = (v: unknown): string | null => (typeof v === "string" && v.includes("@") ? p.email(v) : null);

  const data: Data = { customers: [], products: [], prices: [], subscriptions: [], invoices: [], charges: [], payment_intents: [], refunds: [], credit_notes: [], balance_transactions: [], tickets: [], users: [] };
  const drop = (what: string, id: string, why: string) => warnings.push(`left out ${what} ${id}: ${why}`);

  for (const c of objects.customers.values()) {
    const ps = pseudo.get(c.id)!;
    data.customers.push(clean({ id: ps.id, email: ps.email, name: ps.name, created: num(c.created), balance: num(c.balance), currency: str(c.currency) ?? undefined, delinquent: bool(c.delinquent) }));
  }
  for (const o of objects.products.values())
    data.products.push(clean({ id: o.id, name: text(o.name) ?? o.id, active: bool(o.active), description: text(o.description), created: num(o.created), metadata: metadataOf(o.metadata, scrub) }));
  for (const o of objects.prices.values()) {
    const product = have("products", idOf(o.product));
    if (!product) {
      drop("price", o.id, "its product could not be read");
      continue;
    }
    const rec = o.recurring as { interval?: string; interval_count?: number } | null | undefined;
    let unit = num(o.unit_amount);
    if (unit === undefined) {
      const dec = Number(str(o.unit_amount_decimal) ?? "NaN");
      unit = Number.isFinite(dec) ? Math.round(dec) : 0;
      warnings.push(`price ${o.id} has no unit_amount (tiered or custom pricing): seeded at ${unit}`);
    }
    data.prices.push(
      clean({
        id: o.id,
        product,
        unit_amount: unit,
        currency: str(o.currency) ?? undefined,
        nickname: text(o.nickname),
        active: bool(o.active),
        lookup_key: str(o.lookup_key) ?? (o.lookup_key === null ? null : undefined),
        recurring: rec && rec.interval ? clean({ interval: rec.interval as "day" | "week" | "month" | "year", interval_count: rec.interval_count }) : rec === null ? null : undefined,
        created: num(o.created),
        metadata: metadataOf(o.metadata, scrub),
      }),
    );
  }
  const prices = new Set(data.prices.map((x) => x.id));

  for (const s of objects.subscriptions.values()) {
    const customer = cus(s.customer);
    const subItems = items(s.items);
    const missingPrice = subItems.find((it) => !prices.has(idOf(it.price) ?? ""));
    if (!customer || subItems.length === 0 || missingPrice) {
      drop("subscription", s.id, !customer ? "its customer could not be read" : subItems.length === 0 ? "it has no items" : `price ${idOf(missingPrice!.price)} could not be read`);
      continue;
    }
    data.subscriptions.push(
      clean({
        id: s.id,
        customer,
        status: s.status as Data["subscriptions"][number]["status"],
        items: subItems.map((it) =>
          clean({
            id: it.id,
            price: idOf(it.price)!,
            quantity: num(it.quantity),
            // Item-level periods since 2025-03-31; the subscription's before.
            current_period_start: num(it.current_period_start) ?? num(s.current_period_start) ?? num(s.start_date) ?? 0,
            current_period_end: num(it.current_period_end) ?? num(s.current_period_end) ?? num(s.start_date) ?? 0,
            created: num(it.created),
            metadata: metadataOf(it.metadata, scrub),
          }),
        ),
        created: num(s.created),
        start_date: num(s.start_date),
        billing_cycle_anchor: num(s.billing_cycle_anchor),
        cancel_at_period_end: bool(s.cancel_at_period_end),
        cancel_at: num(s.cancel_at) ?? (s.cancel_at === null ? null : undefined),
        canceled_at: num(s.canceled_at) ?? (s.canceled_at === null ? null : undefined),
        ended_at: num(s.ended_at) ?? (s.ended_at === null ? null : undefined),
        trial_start: num(s.trial_start) ?? (s.trial_start === null ? null : undefined),
        trial_end: num(s.trial_end) ?? (s.trial_end === null ? null : undefined),
        latest_invoice: null as string | null,
        collection_method: opt(s.collection_method) as "charge_automatically" | "send_invoice" | undefined,
        currency: str(s.currency) ?? undefined,
        description: text(s.description),
        metadata: metadataOf(s.metadata, scrub),
      }),
    );
  }
  const subs = new Set(data.subscriptions.map((x) => x.id));

  const invoiceIds = new Set<string>();
  for (const inv of objects.invoices.values()) {
    const customer = cus(inv.customer);
    if (!customer) {
      drop("invoice", inv.id, "its customer could not be read");
      continue;
    }
    invoiceIds.add(inv.id);
  }
  // Charges and intents whose links survive; invoices then keep only links to objects in the seed.
  const chargeIds = new Set([...objects.charges.keys()]);
  const intentIds = new Set([...objects.payment_intents.keys()]);
  for (const inv of objects.invoices.values()) {
    if (!invoiceIds.has(inv.id)) continue;
    const st = (inv.status_transitions ?? {}) as Record<string, unknown>;
    const sub = idOf(inv.subscription);
    const lines = items(inv.lines).map((l) =>
      clean({
        id: lineId(l.id),
        amount: num(l.amount) ?? 0,
        description: text(l.description),
        price: prices.has(idOf(l.price) ?? "") ? idOf(l.price) : null,
        quantity: num(l.quantity) ?? (l.quantity === null ? null : undefined),
        period: { start: num((l.period as { start?: number })?.start) ?? 0, end: num((l.period as { end?: number })?.end) ?? 0 },
        proration: bool(l.proration),
        subscription_item: str(l.subscription_item) ?? (l.subscription_item === null ? null : undefined),
        metadata: metadataOf(l.metadata, scrub),
      }),
    );
    data.invoices.push(
      clean({
        id: inv.id,
        customer: cus(inv.customer)!,
        status: inv.status as Data["invoices"][number]["status"],
        number: str(inv.number) ?? (inv.number === null ? null : undefined),
        currency: str(inv.currency) ?? undefined,
        subscription: sub && subs.has(sub) ? sub : null,
        lines,
        amount_paid: num(inv.amount_paid),
        starting_balance: num(inv.starting_balance),
        created: num(inv.created),
        due_date: num(inv.due_date) ?? (inv.due_date === null ? null : undefined),
        period_start: num(inv.period_start),
        period_end: num(inv.period_end),
        payment_intent: intentIds.has(idOf(inv.payment_intent) ?? "") ? idOf(inv.payment_intent) : null,
        charge: chargeIds.has(idOf(inv.charge) ?? "") ? idOf(inv.charge) : null,
        collection_method: opt(inv.collection_method) as "charge_automatically" | "send_invoice" | undefined,
        description: text(inv.description),
        finalized_at: num(st.finalized_at) ?? null,
        paid_at: num(st.paid_at) ?? null,
        voided_at: num(st.voided_at) ?? null,
        marked_uncollectible_at: num(st.marked_uncollectible_at) ?? null,
        metadata: metadataOf(inv.metadata, scrub),
      }),
    );
  }
  for (const s of data.subscriptions) {
    const latest = idOf(objects.subscriptions.get(s.id)!.latest_invoice);
    s.latest_invoice = latest && invoiceIds.has(latest) ? latest : null;
  }

  for (const ch of objects.charges.values()) {
    const amount = num(ch.amount) ?? 0;
    if (amount <= 0) {
      drop("charge", ch.id, "it has no amount");
      chargeIds.delete(ch.id);
      continue;
    }
    const card = ((ch.payment_method_details ?? {}) as { type?: string; card?: Record<string, unknown> }).card;
    const inv = idOf(ch.invoice);
    const pi = idOf(ch.payment_intent);
    data.charges.push(
      clean({
        id: ch.id,
        customer: cus(ch.customer),
        amount,
        amount_refunded: num(ch.amount_refunded),
        currency: str(ch.currency) ?? undefined,
        status: opt(ch.status) as "succeeded" | "pending" | "failed" | undefined,
        payment_intent: pi && intentIds.has(pi) ? pi : null,
        invoice: inv && invoiceIds.has(inv) ? inv : null,
        description: text(ch.description),
        created: num(ch.created),
        disputed: bool(ch.disputed),
        failure_code: str(ch.failure_code),
        failure_message: str(ch.failure_message),
        receipt_email: otherEmail(ch.receipt_email),
        statement_descriptor: str(ch.statement_descriptor),
        payment_method_details:
          card && typeof card.brand === "string" && typeof card.last4 === "string" && /^\d{4}$/.test(card.last4)
            ? { type: "card" as const, card: { brand: card.brand, last4: card.last4, exp_month: num(card.exp_month) ?? 1, exp_year: num(card.exp_year) ?? 2030 } }
            : undefined,
        metadata: metadataOf(ch.metadata, scrub),
      }),
    );
  }
  for (const pi of objects.payment_intents.values()) {
    const amount = num(pi.amount) ?? 0;
    if (amount <= 0) {
      drop("payment intent", pi.id, "it has no amount");
      continue;
    }
    const latest = idOf(pi.latest_charge);
    const inv = idOf(pi.invoice);
    data.payment_intents.push(
      clean({
        id: pi.id,
        customer: cus(pi.customer),
        amount,
        amount_received: num(pi.amount_received),
        currency: str(pi.currency) ?? undefined,
        status: pi.status as Data["payment_intents"][number]["status"],
        latest_charge: latest && chargeIds.has(latest) ? latest : null,
        invoice: inv && invoiceIds.has(inv) ? inv : null,
        description: text(pi.description),
        created: num(pi.created),
        metadata: metadataOf(pi.metadata, scrub),
      }),
    );
  }

  // Refunds: a charge's amount_refunded must equal its refunds, so a charge whose refunds could not all be read
  // keeps the ones that were, and says the rest in its amount (the twin derives it from the refunds).
  const refundsByCharge = new Map<string, number>();
  for (const r of objects.refunds.values()) {
    const charge = idOf(r.charge);
    const amount = num(r.amount) ?? 0;
    if (!charge || !chargeIds.has(charge) || amount <= 0) {
      drop("refund", r.id, charge ? `its charge ${charge} could not be read` : "it names no charge");
      continue;
    }
    if (r.status === "failed" || r.status === "canceled") {
      drop("refund", r.id, `it is ${r.status}`);
      continue;
    }
    refundsByCharge.set(charge, (refundsByCharge.get(charge) ?? 0) + amount);
    data.refunds.push(clean({ id: r.id, charge, amount, currency: str(r.currency) ?? undefined, reason: (str(r.reason) ?? null) as Data["refunds"][number]["reason"], status: opt(r.status) as Data["refunds"][number]["status"], created: num(r.created), metadata: metadataOf(r.metadata, scrub) }));
  }
  for (const ch of data.charges) {
    const listed = refundsByCharge.get(ch.id) ?? 0;
    if (ch.amount_refunded !== undefined && ch.amount_refunded !== listed) {
      warnings.push(`charge ${ch.id}: amount_refunded ${ch.amount_refunded} but its readable refunds add up to ${listed}; seeded with the refunds`);
      delete ch.amount_refunded;
    }
  }
  const refundIds = new Set(data.refunds.map((r) => r.id));

  const balanceTxns = objects.balance_transactions;
  for (const cn of objects.credit_notes.values()) {
    const inv = idOf(cn.invoice);
    if (!inv || !invoiceIds.has(inv)) {
      drop("credit note", cn.id, `its invoice ${inv ?? "(none)"} could not be read`);
      continue;
    }
    const cnLines = items(cn.lines);
    if (!cnLines.length) {
      drop("credit note", cn.id, "it has no lines");
      continue;
    }
    const post = num(cn.post_payment_amount) ?? 0;
    const oob = num(cn.out_of_band_amount) ?? 0;
    const cbtxnId = idOf(cn.customer_balance_transaction);
    const credited = cbtxnId ? Math.max(0, -(num(balanceTxns.get(cbtxnId)?.amount) ?? 0)) : 0;
    const refund = idOf(cn.refund);
    const linked = refund && refundIds.has(refund) ? refund : null;
    // The post-payment part splits into balance credit, refund and out of band; whatever the links do not
    // explain goes to the refund when there is one, else to the balance.
    const credit = linked ? Math.min(credited, Math.max(0, post - oob)) : Math.max(0, post - oob);
    const refundAmount = linked ? Math.max(0, post - oob - credit) : 0;
    data.credit_notes.push(
      clean({
        id: cn.id,
        invoice: inv,
        customer: cus(cn.customer) ?? undefined,
        number: opt(cn.number),
        status: opt(cn.status) as "issued" | "void" | undefined,
        reason: (str(cn.reason) ?? null) as Data["credit_notes"][number]["reason"],
        memo: text(cn.memo),
        lines: cnLines.map((l) =>
          clean({
            id: l.id.startsWith("cnli_") ? l.id : `cnli_${l.id.replace(/[^A-Za-z0-9]/g, "")}`,
            amount: Math.max(0, num(l.amount) ?? 0),
            description: text(l.description),
            invoice_line_item: str(l.invoice_line_item) ? lineId(str(l.invoice_line_item)!) : l.invoice_line_item === null ? null : undefined,
            quantity: num(l.quantity) ?? (l.quantity === null ? null : undefined),
            type: opt(l.type) as "invoice_line_item" | "custom_line_item" | undefined,
          }),
        ),
        credit_amount: credit || undefined,
        refund_amount: refundAmount || undefined,
        out_of_band_amount: oob || undefined,
        refund: linked,
        customer_balance_transaction: cbtxnId && balanceTxns.has(cbtxnId) ? cbtxnId : null,
        created: num(cn.created),
        voided_at: num(cn.voided_at) ?? (cn.voided_at === null ? null : undefined),
        metadata: metadataOf(cn.metadata, scrub),
      }),
    );
  }
  const creditNoteIds = new Set(data.credit_notes.map((c) => c.id));
  for (const cn of data.credit_notes) if (cn.customer_balance_transaction && !balanceTxns.has(cn.customer_balance_transaction)) cn.customer_balance_transaction = null;

  for (const b of balanceTxns.values()) {
    const customer = cus(b.customer);
    if (!customer) {
      drop("balance transaction", b.id, "its customer could not be read");
      continue;
    }
    const inv = idOf(b.invoice);
    const cn = idOf(b.credit_note);
    const type = str(b.type);
    data.balance_transactions.push(
      clean({
        id: b.id,
        customer,
        amount: num(b.amount) ?? 0,
        currency: str(b.currency) ?? undefined,
        type: (type && BALANCE_TYPES.has(type) ? type : "adjustment") as Data["balance_transactions"][number]["type"],
        description: text(b.description),
        invoice: inv && invoiceIds.has(inv) ? inv : null,
        credit_note: cn && creditNoteIds.has(cn) ? cn : null,
        ending_balance: num(b.ending_balance),
        created: num(b.created),
        metadata: metadataOf(b.metadata, scrub),
      }),
    );
  }

  // Stable order: oldest first, then by id, so the same account writes the same bytes.
  for (const list of Object.values(data) as Array<Array<{ id: string | number; created?: number }>>) list.sort((a, b) => (a.created ?? 0) - (b.created ?? 0) || String(a.id).localeCompare(String(b.id)));
  identities.sort((a, b) => a.pseudonym.id.localeCompare(b.pseudonym.id));

  const seed: SeedDocument = {
    version: 1,
    name: opts.name,
    description: opts.description,
    clock: opts.clock ?? isoOf(latestEvent(data)),
    currency: mostCommonCurrency(data),
    data,
  };
  return { seed, identities, warnings: warnings.sort() };
}

const BALANCE_TYPES = new Set(["adjustment", "applied_to_invoice", "credit_note", "initial", "invoice_overpaid", "invoice_too_large", "invoice_too_small", "unspent_receiver_credit", "unapplied_from_invoice"]);

/** The world's clock: the newest moment the data knows of, so a re-import of an unchanged account is identical. */
function latestEvent(d: Data): number {
  let t = 0;
  const see = (v: number | null | undefined) => {
    if (typeof v === "number" && v > t) t = v;
  };
  for (const list of Object.values(d) as Array<Array<{ created?: number }>>) for (const o of list) see(o.created);
  for (const s of d.subscriptions) for (const it of s.items) see(it.current_period_start);
  for (const inv of d.invoices) (see(inv.finalized_at), see(inv.paid_at), see(inv.voided_at));
  return t || 0;
}

function mostCommonCurrency(d: Data): string {
  const counts = new Map<string, number>();
  for (const list of [d.prices, d.charges, d.invoices] as Array<Array<{ currency?: string }>>) for (const o of list) if (o.currency) counts.set(o.currency, (counts.get(o.currency) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? "usd";
}
