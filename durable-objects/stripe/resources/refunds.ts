// Refunds: create by charge or payment intent (default: everything not yet refunded; partial refunds repeat
// until the charge is fully refunded), list by charge / payment intent, retrieve, update metadata, cancel.
// The amount checks and the charge's amount_refunded / refunded live in money/refund-charge.ts.
import type { z } from "zod";
import type { SeedDocument } from "../../../src/core/world/seed/schema";
import type { SeedContext, SeedRow } from "../../seed/rows";
import type { StoredObject } from "../../store/store";
import { domainError, missingParam, noSuch, noSuchParam } from "../errors";
import { listByFields } from "../list";
import { applyMetadata, bool, int, listShape, metadata, oneOf, range, str, strict, type MetadataParam } from "../params";
import { route, type Resource, type StripeContext } from "../types";
import { txnId } from "./money/ledger";
import { refundCharge } from "./money/refund-charge";
import { REFUND_REASONS, refundDoc } from "./money/shapes";
import { moneyIndex } from "./money/seed-index";

/** Parameters every refund-creating endpoint takes (POST /v1/refunds adds charge / payment_intent). */
export const refundCreateFields = {
  amount: int({ min: 1 }).optional(),
  reason: oneOf(REFUND_REASONS).optional(),
  metadata: metadata().optional(),
  instructions_email: str().optional(),
  refund_application_fee: bool().optional(),
  reverse_transfer: bool().optional(),
};

export function refundReasonFrom(reason: string | undefined): string | null {
  return reason ?? null;
}

function seedRefunds(doc: SeedDocument, ctx: SeedContext): SeedRow[] {
  const idx = moneyIndex(doc);
  return doc.data.refunds.map((r) => {
    const ch = idx.charges.get(r.charge)!;
    const created = r.created ?? ch.created ?? ctx.clock;
    const obj = refundDoc({
      id: r.id,
      amount: r.amount,
      charge: r.charge,
      currency: r.currency ?? ch.currency ?? doc.currency,
      customer: ch.customer,
      payment_intent: ch.payment_intent ?? null,
      created,
      reason: r.reason ?? null,
      status: r.status ?? "succeeded",
      metadata: r.metadata ?? {},
    });
    // Attributed to the charge's customer, so a customer's diff shows the money returned to them.
    return { type: "refunds", obj, customer: ch.customer, created };
  });
}

const createParams = strict({ ...refundCreateFields, charge: str().optional(), payment_intent: str().optional() });

export function createRefund(ctx: StripeContext, a: z.output<typeof createParams>): StoredObject {
  if (a.charge === undefined && a.payment_intent === undefined) throw missingParam("charge");
  const req = { amount: a.amount, reason: refundReasonFrom(a.reason), metadata: applyMetadata({}, a.metadata as MetadataParam | undefined), instructions_email: a.instructions_email };
  let charge: StoredObject | null = null;
  if (a.charge !== undefined) {
    charge = ctx.store.get("charges", a.charge);
    if (!charge) throw noSuchParam("charge", a.charge, "charge");
  }
  if (a.payment_intent !== undefined) {
    const pi = ctx.store.get("payment_intents", a.payment_intent);
    if (!pi) throw noSuchParam("payment_intent", a.payment_intent, "payment_intent");
    if (charge) {
      if (charge.payment_intent !== pi.id) throw domainError(`Charge ${charge.id} does not belong to PaymentIntent ${pi.id}.`, undefined, "charge");
    } else {
      // A payment intent is refunded through its latest charge, the one that succeeded.
      charge = typeof pi.latest_charge === "string" ? ctx.store.get("charges", pi.latest_charge) : null;
      if (!charge || pi.status !== "succeeded")
        throw domainError(`This PaymentIntent (${pi.id}) does not have a successful charge to refund.`, undefined, "payment_intent");
      return refundCharge(ctx.store, charge, { ...req, viaPaymentIntent: pi.id });
    }
  }
  return refundCharge(ctx.store, charge!, req);
}

function requireRefund(ctx: StripeContext, id: string): StoredObject {
  const r = ctx.store.get("refunds", id);
  if (!r) throw noSuch("refund", id);
  return r;
}

const listParams = strict({ ...listShape, charge: str().optional(), payment_intent: str().optional(), created: range().optional() });

const listRefunds = listByFields("refunds", "/v1/refunds", "refund", ["charge", "payment_intent"]);

const updateParams = strict({ metadata: metadata().optional() });

export const refunds: Resource = {
  type: "refunds",
  object: "refund",
  prefix: "re",
  seed: seedRefunds,
  expandable: ["charge", "payment_intent", "balance_transaction", "failure_balance_transaction", "customer"],
  // The ledger entry a refund made (money/ledger.ts) is named by the refund's own id.
  present: (obj) => (obj.object === "refund" && (obj.status === "succeeded" || obj.status === "pending") ? { ...obj, balance_transaction: txnId(obj.id) } : obj),
  routes: [
    route("POST", "/v1/refunds", createParams, createRefund),
    route("GET", "/v1/refunds", listParams, listRefunds),
    route("GET", "/v1/refunds/:id", strict({}), (ctx, _a, p) => requireRefund(ctx, p.id)),
    route("POST", "/v1/refunds/:id", updateParams, (ctx, a, p) => {
      const r = requireRefund(ctx, p.id);
      return ctx.store.update("refunds", r.id, { ...r, metadata: applyMetadata(r.metadata as Record<string, string>, a.metadata as MetadataParam | undefined) });
    }),
    route("POST", "/v1/refunds/:id/cancel", strict({}), (ctx, _a, p) => {
      const r = requireRefund(ctx, p.id);
      // Only a refund still waiting on the customer (requires_action) can be called back.
      if (r.status !== "requires_action") throw domainError(`Refund ${r.id} cannot be canceled because it has a status of ${String(r.status)}.`, undefined, "refund");
      const ch = ctx.store.get("charges", r.charge as string);
      if (ch) {
        const refunded = (ch.amount_refunded as number) - (r.amount as number);
        ctx.store.update("charges", ch.id, { ...ch, amount_refunded: refunded, refunded: refunded >= (ch.amount as number) });
      }
      return ctx.store.update("refunds", r.id, { ...r, status: "canceled" });
    }),
  ],
};
