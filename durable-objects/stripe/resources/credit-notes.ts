// Credit notes: create against a finalized invoice with `amount` or `lines`; the part the invoice still owes
// is reduced first (pre-payment), the rest (post-payment) is split into credit_amount (customer balance),
// refund_amount (a refund on the invoice's charge), out_of_band_amount and linked refunds, which must add up.
// List, retrieve, update memo/metadata, lines, and void (reversing the invoice and balance effects).
import type { z } from "zod";
import type { SeedDocument } from "../../../src/core/world/seed/schema";
import type { SeedContext, SeedRow } from "../../seed/rows";
import type { Store, StoredObject } from "../../store/store";
import { domainError, invalidParam, noSuch, noSuchParam } from "../errors";
import { paginate } from "../list";
import { applyMetadata, array, inRange, int, listShape, metadata, oneOf, range, str, strict, type MetadataParam } from "../params";
import { route, type Resource, type StripeContext } from "../types";
import { BASIL, versionBefore } from "../versions";
import { applyBalanceChange } from "./customer-balance";
import { paidByCredit } from "./money/invoice-actions";
import { settle, type InvoiceDoc } from "./money/invoice-math";
import { formatAmount } from "./money/format";
import { paidCharge } from "./money/links";
import { refundable, refundCharge } from "./money/refund-charge";
import { invoiceNumber, invoicePrefix, moneyIndex } from "./money/seed-index";

const REASONS = ["duplicate", "fraudulent", "order_change", "product_unsatisfactory"] as const;

interface CreditNoteRefund {
  amount_refunded: number;
  payment_record_refund: null;
  refund: string;
  type: "refund";
}

interface CreditNoteDoc extends StoredObject {
  amount: number;
  currency: string;
  customer: string;
  invoice: string;
  status: "issued" | "void";
  pre_payment_amount: number;
  post_payment_amount: number;
  out_of_band_amount: number | null;
  refunds: CreditNoteRefund[];
  customer_balance_transaction: string | null;
  lines: { object: "list"; data: StoredObject[]; has_more: boolean; total_count: number; url: string };
}

function lineDoc(f: { id: string; amount: number; description: string | null; invoice_line_item?: string | null; quantity: number | null; type: string; metadata?: Record<string, string> }): StoredObject {
  const unit = f.quantity ? Math.round(f.amount / f.quantity) : f.amount;
  const doc: StoredObject = {
    id: f.id,
    object: "credit_note_line_item",
    amount: f.amount,
    description: f.description,
    discount_amount: 0,
    discount_amounts: [],
    livemode: false,
    metadata: f.metadata ?? {},
    pretax_credit_amounts: [],
    quantity: f.quantity,
    tax_rates: [],
    taxes: [],
    type: f.type,
    unit_amount: unit,
    unit_amount_decimal: String(unit),
  };
  if (f.invoice_line_item) doc.invoice_line_item = f.invoice_line_item;
  return doc;
}

function creditNoteDoc(f: {
  id: string;
  amount: number;
  created: number;
  currency: string;
  customer: string;
  invoice: string;
  number: string;
  lines: StoredObject[];
  pre: number;
  post: number;
  out_of_band: number;
  refunds: CreditNoteRefund[];
  customer_balance_transaction: string | null;
  reason: string | null;
  memo: string | null;
  metadata: Record<string, string>;
  status: "issued" | "void";
  effective_at: number;
  voided_at: number | null;
}): CreditNoteDoc {
  return {
    id: f.id,
    object: "credit_note",
    amount: f.amount,
    amount_shipping: 0,
    created: f.created,
    currency: f.currency,
    customer: f.customer,
    customer_account: null,
    customer_balance_transaction: f.customer_balance_transaction,
    discount_amount: 0,
    discount_amounts: [],
    effective_at: f.effective_at,
    invoice: f.invoice,
    lines: { object: "list", data: f.lines, has_more: false, total_count: f.lines.length, url: `/v1/credit_notes/${f.id}/lines` },
    livemode: false,
    memo: f.memo,
    metadata: f.metadata,
    number: f.number,
    out_of_band_amount: f.out_of_band > 0 ? f.out_of_band : null,
    pdf: `https://pay.stripe.com/credit_notes/${f.id}/pdf`,
    post_payment_amount: f.post,
    pre_payment_amount: f.pre,
    pretax_credit_amounts: [],
    reason: f.reason,
    refunds: f.refunds,
    shipping_cost: null,
    status: f.status,
    subtotal: f.amount,
    subtotal_excluding_tax: f.amount,
    total: f.amount,
    total_excluding_tax: f.amount,
    total_taxes: [],
    type: f.pre > 0 && f.post > 0 ? "mixed" : f.post > 0 ? "post_payment" : "pre_payment",
    voided_at: f.voided_at,
  };
}

function creditNumber(invoiceNumberOrNull: string | null, customer: string, n: number): string {
  return `${invoiceNumberOrNull ?? invoiceNumber(invoicePrefix(customer), 0)}-CN-${String(n).padStart(2, "0")}`;
}

function seedCreditNotes(doc: SeedDocument, ctx: SeedContext): SeedRow[] {
  const idx = moneyIndex(doc);
  const perInvoice = new Map<string, number>();
  return doc.data.credit_notes.map((cn) => {
    const inv = idx.invoices.get(cn.invoice)!;
    const split = idx.splits.get(cn.id)!;
    const created = cn.created ?? ctx.clock;
    const n = (perInvoice.get(inv.id) ?? 0) + 1;
    perInvoice.set(inv.id, n);
    const refund = cn.refund ? idx.refunds.get(cn.refund) : undefined;
    const obj = creditNoteDoc({
      id: cn.id,
      amount: split.amount,
      created,
      currency: inv.currency ?? doc.currency,
      customer: inv.customer,
      invoice: inv.id,
      number: cn.number ?? creditNumber(idx.invoiceNumbers.get(inv.id) ?? null, inv.customer, n),
      lines: cn.lines.map((l) =>
        lineDoc({ id: l.id, amount: l.amount, description: l.description ?? null, invoice_line_item: l.invoice_line_item ?? null, quantity: l.quantity ?? 1, type: l.type ?? (l.invoice_line_item ? "invoice_line_item" : "custom_line_item") }),
      ),
      pre: split.pre,
      post: split.post,
      out_of_band: cn.out_of_band_amount ?? 0,
      refunds: refund ? [{ amount_refunded: cn.refund_amount ?? refund.amount, payment_record_refund: null, refund: refund.id, type: "refund" }] : [],
      customer_balance_transaction: cn.customer_balance_transaction ?? null,
      reason: cn.reason ?? null,
      memo: cn.memo ?? null,
      metadata: cn.metadata ?? {},
      status: cn.status ?? "issued",
      effective_at: created,
      voided_at: cn.status === "void" ? (cn.voided_at ?? created) : null,
    });
    // Attributed to the invoice's customer.
    return { type: "credit_notes", obj, customer: inv.customer, created };
  });
}

const lineParam = strict({
  type: oneOf(["invoice_line_item", "custom_line_item"]),
  invoice_line_item: str().optional(),
  quantity: int({ min: 0 }).optional(),
  amount: int({ min: 0 }).optional(),
  description: str().optional(),
  unit_amount: int({ min: 0 }).optional(),
  unit_amount_decimal: str().optional(),
  metadata: metadata().optional(),
});

const createParams = strict({
  invoice: str(),
  amount: int({ min: 1 }).optional(),
  lines: array(lineParam).optional(),
  credit_amount: int({ min: 0 }).optional(),
  refund_amount: int({ min: 0 }).optional(),
  out_of_band_amount: int({ min: 0 }).optional(),
  refunds: array(strict({ refund: str(), amount_refunded: int({ min: 1 }).optional() })).optional(),
  // Versions before 2025-03-31 linked one existing refund with `refund`.
  refund: str().optional(),
  reason: oneOf(REASONS).optional(),
  memo: str().optional(),
  metadata: metadata().optional(),
  email_type: oneOf(["credit_note", "none"]).optional(),
  effective_at: int().optional(),
});
type CreateArgs = z.output<typeof createParams>;

/** The lines a create asks for, priced from the invoice's lines where they refer to one. */
function plannedLines(store: Store, inv: InvoiceDoc, a: CreateArgs): Array<{ amount: number; description: string | null; invoice_line_item?: string; quantity: number | null; type: string; metadata?: Record<string, string> }> {
  if (!a.lines) {
    if (a.amount === undefined) throw invalidParam("You must pass `amount` or `lines` to create a credit note.", "amount");
    return [{ amount: a.amount, description: null, quantity: 1, type: "custom_line_item" }];
  }
  return a.lines.map((l, i) => {
    const p = `lines[${i}]`;
    const meta = applyMetadata({}, l.metadata as MetadataParam | undefined);
    if (l.type === "invoice_line_item") {
      if (!l.invoice_line_item) throw invalidParam(`Missing required param: ${p}[invoice_line_item].`, `${p}[invoice_line_item]`, "parameter_missing");
      const line = inv.lines.data.find((x) => x.id === l.invoice_line_item);
      if (!line) throw noSuchParam("invoice line item", l.invoice_line_item, `${p}[invoice_line_item]`);
      const lineQty = (line.quantity as number | null) ?? 1;
      if (l.quantity !== undefined && l.quantity > lineQty) throw invalidParam(`The quantity (${l.quantity}) is more than the invoice line item's quantity (${lineQty}).`, `${p}[quantity]`);
      const amount = l.amount ?? (l.quantity !== undefined ? Math.round(((line.amount as number) * l.quantity) / Math.max(lineQty, 1)) : (line.amount as number));
      return { amount, description: (line.description as string | null) ?? null, invoice_line_item: line.id, quantity: l.quantity ?? lineQty, type: "invoice_line_item", metadata: meta };
    }
    if (l.unit_amount === undefined && l.amount === undefined) throw invalidParam(`Missing required param: ${p}[unit_amount].`, `${p}[unit_amount]`, "parameter_missing");
    if (!l.description) throw invalidParam(`Missing required param: ${p}[description].`, `${p}[description]`, "parameter_missing");
    const quantity = l.quantity ?? 1;
    return { amount: l.amount ?? l.unit_amount! * quantity, description: l.description, quantity, type: "custom_line_item", metadata: meta };
  });
}

/** What the invoice can still be credited: its total less credit notes and refunds made outside them. */
function creditable(store: Store, inv: InvoiceDoc, charge: StoredObject | null): number {
  const notes = store.list<CreditNoteDoc>("credit_notes", { customer: inv.customer }).filter((c) => c.invoice === inv.id && c.status === "issued");
  const viaNotes = notes.reduce((s, c) => s + c.refunds.reduce((t, r) => t + r.amount_refunded, 0), 0);
  const outside = charge ? Math.max(0, (charge.amount_refunded as number) - viaNotes) : 0;
  return inv.total - inv.pre_payment_credit_notes_amount - inv.post_payment_credit_notes_amount - outside;
}

export function createCreditNote(ctx: StripeContext, a: CreateArgs): CreditNoteDoc {
  const store = ctx.store;
  const inv = store.get<InvoiceDoc>("invoices", a.invoice);
  if (!inv) throw noSuchParam("invoice", a.invoice, "invoice");
  if (inv.status === "draft") throw domainError("You cannot create a credit note for a draft invoice.", undefined, "invoice");
  if (inv.status === "void") throw domainError("You cannot create a credit note for a void invoice.", undefined, "invoice");
  const lines = plannedLines(store, inv, a);
  const amount = lines.reduce((s, l) => s + l.amount, 0);
  if (a.amount !== undefined && a.lines && a.amount !== amount)
    throw invalidParam(`The amount (${a.amount}) does not match the sum of the lines (${amount}).`, "amount");
  if (amount <= 0) throw invalidParam("A credit note's amount must be greater than 0.", "amount");
  const charge = paidCharge(store, inv);
  const cur = inv.currency;
  const max = creditable(store, inv, charge);
  if (amount > max)
    throw domainError(`The credit note amount (${formatAmount(amount, cur)}) is greater than the amount that can still be credited on invoice ${inv.id} (${formatAmount(Math.max(0, max), cur)}).`, undefined, "amount");

  // The part still owed comes off the invoice first; only the rest needs money moved.
  const owes = inv.status === "open" || inv.status === "uncollectible";
  const pre = owes ? Math.min(amount, inv.amount_remaining) : 0;
  const post = amount - pre;
  const credit = a.credit_amount ?? 0;
  const refund = a.refund_amount ?? 0;
  const oob = a.out_of_band_amount ?? 0;
  const linkedArgs = [...(a.refunds ?? []), ...(a.refund ? [{ refund: a.refund, amount_refunded: undefined }] : [])];
  const linked = linkedArgs.map((l, i) => {
    const r = store.get("refunds", l.refund);
    if (!r) throw noSuchParam("refund", l.refund, a.refund === l.refund ? "refund" : `refunds[${i}][refund]`);
    if (!charge || r.charge !== charge.id) throw invalidParam(`Refund ${r.id} is not a refund of invoice ${inv.id}'s payment.`, `refunds[${i}][refund]`);
    const amt = l.amount_refunded ?? (r.amount as number);
    if (amt > (r.amount as number)) throw invalidParam(`amount_refunded (${amt}) is more than refund ${r.id}'s amount (${String(r.amount)}).`, `refunds[${i}][amount_refunded]`);
    return { amount_refunded: amt, payment_record_refund: null, refund: r.id, type: "refund" as const };
  });
  const allocated = credit + refund + oob + linked.reduce((s, l) => s + l.amount_refunded, 0);
  if (allocated !== post) {
    const why =
      pre > 0
        ? `${formatAmount(pre, cur)} of it reduces what invoice ${inv.id} still owes, so credit_amount + refund_amount + out_of_band_amount (+ refunds) must add up to the remaining ${formatAmount(post, cur)}`
        : `invoice ${inv.id} is already paid, so credit_amount + refund_amount + out_of_band_amount (+ refunds) must add up to the credit note's amount ${formatAmount(post, cur)}`;
    throw invalidParam(`The credit note amount is ${formatAmount(amount, cur)}: ${why} (they add up to ${formatAmount(allocated, cur)}).`, refund ? "refund_amount" : "credit_amount");
  }
  if (refund > 0) {
    if (!charge) throw invalidParam(`Invoice ${inv.id} was not paid with a charge, so there is nothing to refund; use credit_amount or out_of_band_amount.`, "refund_amount");
    if (refund > refundable(charge))
      throw domainError(`The refund amount (${formatAmount(refund, cur)}) is greater than what is left to refund on charge ${charge.id} (${formatAmount(refundable(charge), cur)}).`, undefined, "refund_amount");
  }

  const id = store.newId("cn");
  const now = store.now();
  const refunds = [...linked];
  if (refund > 0) {
    const reason = a.reason === "duplicate" || a.reason === "fraudulent" ? a.reason : null;
    const r = refundCharge(store, charge!, { amount: refund, reason, metadata: {}, amountParam: "refund_amount" });
    refunds.unshift({ amount_refunded: refund, payment_record_refund: null, refund: r.id, type: "refund" });
  }
  const txn = credit > 0 ? applyBalanceChange(store, { customer: inv.customer, amount: -credit, currency: cur, type: "credit_note", credit_note: id, invoice: inv.id }) : null;
  const count = store.list<CreditNoteDoc>("credit_notes", { customer: inv.customer }).filter((c) => c.invoice === inv.id).length;
  const note = creditNoteDoc({
    id,
    amount,
    created: now,
    currency: cur,
    customer: inv.customer,
    invoice: inv.id,
    number: creditNumber(inv.number, inv.customer, count + 1),
    lines: lines.map((l) => lineDoc({ ...l, id: store.newId("cnli") })),
    pre,
    post,
    out_of_band: oob,
    refunds,
    customer_balance_transaction: txn?.id ?? null,
    reason: a.reason ?? null,
    memo: a.memo ?? null,
    metadata: applyMetadata({}, a.metadata as MetadataParam | undefined),
    status: "issued",
    effective_at: a.effective_at ?? now,
    voided_at: null,
  });
  store.insert("credit_notes", note, inv.customer);
  const updated = store.update(
    "invoices",
    inv.id,
    settle({ ...inv, pre_payment_credit_notes_amount: inv.pre_payment_credit_notes_amount + pre, post_payment_credit_notes_amount: inv.post_payment_credit_notes_amount + post }),
  );
  paidByCredit(store, updated);
  return note;
}

function requireNote(ctx: StripeContext, id: string): CreditNoteDoc {
  const cn = ctx.store.get<CreditNoteDoc>("credit_notes", id);
  if (!cn) throw noSuch("credit_note", id);
  return cn;
}

/** Voids an issued credit note: the invoice owes its pre-payment part again and balance credit is taken back. Refunds already sent stay sent. */
export function voidCreditNote(ctx: StripeContext, id: string): CreditNoteDoc {
  const store = ctx.store;
  const cn = requireNote(ctx, id);
  if (cn.status === "void") throw domainError(`Credit note ${cn.id} has already been voided.`, "status_transition_invalid");
  const inv = store.get<InvoiceDoc>("invoices", cn.invoice);
  if (inv && cn.pre_payment_amount > 0 && inv.status === "paid")
    throw domainError(`Credit note ${cn.id} reduced what invoice ${inv.id} owed and that invoice has since been paid, so the credit note can no longer be voided.`);
  const refunded = cn.refunds.reduce((s, r) => s + r.amount_refunded, 0);
  const credit = cn.post_payment_amount - refunded - (cn.out_of_band_amount ?? 0);
  if (credit > 0 && store.get("customers", cn.customer))
    applyBalanceChange(store, { customer: cn.customer, amount: credit, currency: cn.currency, type: "credit_note", credit_note: cn.id, invoice: cn.invoice });
  if (inv)
    store.update(
      "invoices",
      inv.id,
      settle({
        ...inv,
        pre_payment_credit_notes_amount: inv.pre_payment_credit_notes_amount - cn.pre_payment_amount,
        post_payment_credit_notes_amount: inv.post_payment_credit_notes_amount - cn.post_payment_amount,
      }),
    );
  return store.update("credit_notes", cn.id, { ...cn, status: "void", voided_at: store.now() });
}

function present(obj: StoredObject, ctx: StripeContext): StoredObject {
  if (obj.object !== "credit_note") return obj;
  const cn = obj as CreditNoteDoc;
  const lines = cn.lines.data;
  const out: StoredObject = { ...cn, lines: { ...cn.lines, data: lines.slice(0, 10), has_more: lines.length > 10 } };
  if (versionBefore(ctx.apiVersion, BASIL)) {
    delete out.refunds;
    out.refund = cn.refunds[0]?.refund ?? null;
    out.tax_amounts = [];
    out.lines = { ...(out.lines as CreditNoteDoc["lines"]), data: (out.lines as CreditNoteDoc["lines"]).data.map(legacyNoteLine) };
  }
  return out;
}

/** Before 2025-03-31 a credit note and its lines carried tax_amounts (taxes since); the twin charges no tax. */
function legacyNoteLine(line: StoredObject): StoredObject {
  return { ...line, tax_amounts: [] };
}

const listParams = strict({ ...listShape, invoice: str().optional(), customer: str().optional(), created: range().optional() });

function listNotes(ctx: StripeContext, a: z.output<typeof listParams>) {
  const base = a.customer !== undefined ? ctx.store.list("credit_notes", { customer: a.customer }) : ctx.store.list("credit_notes");
  const items = base.filter((c) => (a.invoice === undefined || c.invoice === a.invoice) && inRange(c.created, a.created));
  return paginate(items, a, "/v1/credit_notes", "credit_note", (id) => ctx.store.get("credit_notes", id));
}

const updateParams = strict({ memo: str().optional(), metadata: metadata().optional() });

export const creditNotes: Resource = {
  type: "credit_notes",
  object: "credit_note",
  prefix: "cn",
  seed: seedCreditNotes,
  expandable: ["customer", "invoice", "customer_balance_transaction", "refund"],
  present,
  routes: [
    route("POST", "/v1/credit_notes", createParams, createCreditNote),
    route("GET", "/v1/credit_notes", listParams, listNotes),
    // What a create with these parameters would issue, computed by running it and rolling everything back.
    route("GET", "/v1/credit_notes/preview", createParams, (ctx, a) => ctx.dryRun(() => createCreditNote(ctx, a))),
    route("GET", "/v1/credit_notes/preview/lines", strict({ ...createParams.shape, ...listShape }), (ctx, a) => {
      const { limit: _l, starting_after: _s, ending_before: _e, ...create } = a;
      const issued = ctx.dryRun(() => createCreditNote(ctx, create)).lines.data;
      const lines = versionBefore(ctx.apiVersion, BASIL) ? issued.map(legacyNoteLine) : issued;
      return paginate(lines, a, "/v1/credit_notes/preview/lines", "credit note line item", (lid) => lines.find((l) => l.id === lid) ?? null);
    }),
    route("GET", "/v1/credit_notes/:id", strict({}), (ctx, _a, p) => requireNote(ctx, p.id)),
    route("POST", "/v1/credit_notes/:id", updateParams, (ctx, a, p) => {
      const cn = requireNote(ctx, p.id);
      const next: CreditNoteDoc = { ...cn, metadata: applyMetadata(cn.metadata as Record<string, string>, a.metadata as MetadataParam | undefined) };
      if (a.memo !== undefined) next.memo = a.memo;
      return ctx.store.update("credit_notes", cn.id, next);
    }),
    route("POST", "/v1/credit_notes/:id/void", strict({}), (ctx, _a, p) => voidCreditNote(ctx, p.id)),
    route("GET", "/v1/credit_notes/:id/lines", strict({ ...listShape }), (ctx, a, p) => {
      const cn = requireNote(ctx, p.id);
      const lines = versionBefore(ctx.apiVersion, BASIL) ? cn.lines.data.map(legacyNoteLine) : cn.lines.data;
      return paginate(lines, a, `/v1/credit_notes/${cn.id}/lines`, "credit note line item", (lid) => lines.find((l) => l.id === lid) ?? null);
    }),
  ],
};
