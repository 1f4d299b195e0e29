// Charges: retrieve (refunds only with expand[]=refunds, inline for versions before 2022-11-15), list by
// customer / payment intent, search, update of the descriptive fields, and the charge-scoped refund endpoints
// older integrations still call. amount_refunded / refunded only ever move through money/refund-charge.ts.
import type { z } from "zod";
import type { SeedDocument } from "../../../src/core/world/seed/schema";
import type { SeedContext, SeedRow } from "../../seed/rows";
import type { StoredObject } from "../../store/store";
import { noSuch } from "../errors";
import { embeddedList, paginate } from "../list";
import { applyMetadata, emptyable, inRange, listShape, metadata, range, searchShape, str, strict, type MetadataParam } from "../params";
import { searchPage } from "../search";
import { route, type Resource, type StripeContext } from "../types";
import { versionBefore, BASIL } from "../versions";
import { txnId } from "./money/ledger";
import { invoiceForCharge, refundsOfCharge } from "./money/links";
import { refundCharge } from "./money/refund-charge";
import { cardDetails, chargeDoc, defaultCard } from "./money/shapes";
import { moneyIndex } from "./money/seed-index";
import { paymentMethodId } from "./payment-methods";
import { refundCreateFields, refundReasonFrom } from "./refunds";

/** From this version on a charge's refunds are only returned when expanded. */
export const REFUNDS_NOT_INLINE = "2022-11-15";

function seedCharges(doc: SeedDocument, ctx: SeedContext): SeedRow[] {
  const idx = moneyIndex(doc);
  return doc.data.charges.map((ch) => {
    const created = ch.created ?? ctx.clock;
    const customer = ch.customer ? idx.customers.get(ch.customer) : undefined;
    const refunded = (idx.refundsByCharge.get(ch.id) ?? []).reduce((s, r) => s + r.amount, 0);
    const card = ch.payment_method_details?.card ?? defaultCard(ctx.clock);
    const obj = chargeDoc({
      id: ch.id,
      amount: ch.amount,
      amount_refunded: refunded,
      currency: ch.currency ?? doc.currency,
      customer: ch.customer,
      created,
      status: ch.status ?? "succeeded",
      payment_intent: ch.payment_intent ?? null,
      description: ch.description ?? null,
      disputed: ch.disputed ?? (doc.data.disputes ?? []).some((d) => d.charge === ch.id),
      failure_code: ch.failure_code ?? (ch.status === "failed" ? "card_declined" : null),
      failure_message: ch.failure_message ?? (ch.status === "failed" ? "Your card was declined." : null),
      receipt_email: ch.receipt_email ?? null,
      statement_descriptor: ch.statement_descriptor ?? null,
      billing: { email: customer?.email ?? null, name: customer?.name ?? null },
      payment_method_details: cardDetails(card, ch.amount),
      metadata: ch.metadata ?? {},
    });
    // The card it was paid with is one of the customer's payment methods (payment-methods.ts seeds them).
    if (ch.customer) obj.payment_method = paymentMethodId(ch.customer, card);
    return { type: "charges", obj, customer: ch.customer, created };
  });
}

export function requireCharge(ctx: StripeContext, id: string): StoredObject {
  const ch = ctx.store.get("charges", id);
  if (!ch) throw noSuch("charge", id);
  return ch;
}

function refundList(ctx: StripeContext, ch: StoredObject) {
  return embeddedList(refundsOfCharge(ctx.store, ch), `/v1/charges/${ch.id}/refunds`);
}

/** A charge in the request's version: with its invoice before 2025-03-31 and its refunds inline before 2022-11-15. */
export function presentCharge(obj: StoredObject, ctx: StripeContext): StoredObject {
  if (obj.object !== "charge") return obj;
  const out: StoredObject = { ...obj, balance_transaction: obj.status === "succeeded" ? txnId(obj.id) : null };
  if (versionBefore(ctx.apiVersion, BASIL)) out.invoice = invoiceForCharge(ctx.store, obj);
  if (versionBefore(ctx.apiVersion, REFUNDS_NOT_INLINE)) out.refunds = refundList(ctx, obj);
  return out;
}

const listParams = strict({ ...listShape, customer: str().optional(), payment_intent: str().optional(), created: range().optional(), transfer_group: str().optional() });

function listCharges(ctx: StripeContext, a: z.output<typeof listParams>) {
  const base = a.customer !== undefined ? ctx.store.list("charges", { customer: a.customer }) : ctx.store.list("charges");
  const items = base.filter(
    (c) => (a.payment_intent === undefined || c.payment_intent === a.payment_intent) && inRange(c.created, a.created) && (a.transfer_group === undefined || c.transfer_group === a.transfer_group),
  );
  return paginate(items, a, "/v1/charges", "charge", (id) => ctx.store.get("charges", id));
}

const updateParams = strict({
  description: emptyable(str()).optional(),
  metadata: metadata().optional(),
  receipt_email: emptyable(str()).optional(),
  transfer_group: emptyable(str()).optional(),
  fraud_details: strict({ user_report: emptyable(str()) }).optional(),
  shipping: strict({
    address: strict({ city: str().optional(), country: str().optional(), line1: str().optional(), line2: str().optional(), postal_code: str().optional(), state: str().optional() }),
    name: str(),
    carrier: str().optional(),
    phone: str().optional(),
    tracking_number: str().optional(),
  }).optional(),
});

function updateCharge(ctx: StripeContext, id: string, a: z.output<typeof updateParams>): StoredObject {
  const ch = requireCharge(ctx, id);
  const next: StoredObject = { ...ch, metadata: applyMetadata(ch.metadata as Record<string, string>, a.metadata as MetadataParam | undefined) };
  if (a.description !== undefined) next.description = a.description;
  if (a.receipt_email !== undefined) next.receipt_email = a.receipt_email;
  if (a.transfer_group !== undefined) next.transfer_group = a.transfer_group;
  if (a.fraud_details !== undefined) next.fraud_details = a.fraud_details.user_report ? { user_report: a.fraud_details.user_report } : {};
  if (a.shipping !== undefined) next.shipping = { carrier: null, phone: null, tracking_number: null, ...a.shipping, address: { city: null, country: null, line1: null, line2: null, postal_code: null, state: null, ...a.shipping.address } };
  return ctx.store.update("charges", id, next);
}

const chargeRefundParams = strict(refundCreateFields);

function refundThisCharge(ctx: StripeContext, id: string, a: z.output<typeof chargeRefundParams>): StoredObject {
  const ch = requireCharge(ctx, id);
  return refundCharge(ctx.store, ch, { amount: a.amount, reason: refundReasonFrom(a.reason), metadata: applyMetadata({}, a.metadata as MetadataParam | undefined), instructions_email: a.instructions_email });
}

const refundListParams = strict({ ...listShape });

export const charges: Resource = {
  type: "charges",
  object: "charge",
  prefix: "ch",
  seed: seedCharges,
  expandable: ["customer", "payment_intent", "balance_transaction", "invoice", "application_fee", "review"],
  includable: { refunds: (obj, ctx) => refundList(ctx, obj) },
  searchFields: {
    amount: { kind: "number" },
    created: { kind: "number" },
    currency: { kind: "token" },
    customer: { kind: "token" },
    disputed: { kind: "token", get: (o) => String(o.disputed) },
    payment_intent: { kind: "token" },
    refunded: { kind: "token", get: (o) => String(o.refunded) },
    status: { kind: "token" },
    "payment_method_details.card.last4": { kind: "token", get: (o) => (o.payment_method_details as { card?: { last4?: string } } | null)?.card?.last4 ?? null },
    "payment_method_details.card.brand": { kind: "token", get: (o) => (o.payment_method_details as { card?: { brand?: string } } | null)?.card?.brand ?? null },
    "billing_details.email": { kind: "string", get: (o) => (o.billing_details as { email?: string | null } | null)?.email ?? null },
  },
  present: presentCharge,
  routes: [
    route("GET", "/v1/charges", listParams, listCharges),
    route("GET", "/v1/charges/search", strict(searchShape), (ctx, a) => searchPage(ctx.store.list("charges"), a, "/v1/charges/search", charges.searchFields!, "charge")),
    route("GET", "/v1/charges/:id", strict({}), (ctx, _a, p) => requireCharge(ctx, p.id)),
    route("POST", "/v1/charges/:id", updateParams, (ctx, a, p) => updateCharge(ctx, p.id, a)),
    // The refund endpoints scoped to a charge, from before the Refund API; both still answer.
    route("POST", "/v1/charges/:id/refund", chargeRefundParams, (ctx, a, p) => {
      refundThisCharge(ctx, p.id, a);
      return requireCharge(ctx, p.id);
    }),
    route("POST", "/v1/charges/:id/refunds", chargeRefundParams, (ctx, a, p) => refundThisCharge(ctx, p.id, a)),
    route("GET", "/v1/charges/:id/refunds", refundListParams, (ctx, a, p) => {
      const ch = requireCharge(ctx, p.id);
      return paginate(refundsOfCharge(ctx.store, ch), a, `/v1/charges/${ch.id}/refunds`, "refund", (id) => ctx.store.get("refunds", id));
    }),
    route("GET", "/v1/charges/:charge/refunds/:id", strict({}), (ctx, _a, p) => {
      const r = ctx.store.get("refunds", p.id);
      if (!r || r.charge !== p.charge) throw noSuch("refund", p.id);
      return r;
    }),
  ],
};
