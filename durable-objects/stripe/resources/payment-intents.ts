// Payment intents: retrieve, list by customer, search. Paying an invoice creates and settles them
// (money/invoice-actions.ts); refunds by payment intent go through its latest charge. Versions before
// 2025-03-31 also show the invoice it paid, and before 2022-11-15 its charges inline.
import type { z } from "zod";
import type { SeedDocument } from "../../../src/core/world/seed/schema";
import type { SeedContext, SeedRow } from "../../seed/rows";
import type { StoredObject } from "../../store/store";
import { domainError, noSuch } from "../errors";
import { embeddedList, paginate } from "../list";
import { inRange, listShape, oneOf, range, searchShape, str, strict } from "../params";
import { searchPage } from "../search";
import { route, type Resource, type StripeContext } from "../types";
import { BASIL, versionBefore } from "../versions";
import { presentCharge, REFUNDS_NOT_INLINE } from "./charges";
import { invoiceForIntent } from "./money/links";
import { paymentIntentDoc } from "./money/shapes";
import { latestCharge, moneyIndex } from "./money/seed-index";

function seedPaymentIntents(doc: SeedDocument, ctx: SeedContext): SeedRow[] {
  const idx = moneyIndex(doc);
  return doc.data.payment_intents.map((pi) => {
    const created = pi.created ?? ctx.clock;
    const obj = paymentIntentDoc({
      id: pi.id,
      amount: pi.amount,
      amount_received: pi.amount_received ?? (pi.status === "succeeded" ? pi.amount : 0),
      currency: pi.currency ?? doc.currency,
      customer: pi.customer,
      created,
      status: pi.status,
      latest_charge: latestCharge(idx, pi.id),
      description: pi.description ?? null,
      metadata: pi.metadata ?? {},
    });
    return { type: "payment_intents", obj, customer: pi.customer, created };
  });
}

function requireIntent(ctx: StripeContext, id: string): StoredObject {
  const pi = ctx.store.get("payment_intents", id);
  if (!pi) throw noSuch("payment_intent", id, "intent");
  return pi;
}

function present(obj: StoredObject, ctx: StripeContext): StoredObject {
  if (obj.object !== "payment_intent") return obj;
  const out: StoredObject = { ...obj };
  if (versionBefore(ctx.apiVersion, BASIL)) out.invoice = invoiceForIntent(ctx.store, obj);
  if (versionBefore(ctx.apiVersion, REFUNDS_NOT_INLINE)) {
    const charges = ctx.store.list("charges", typeof obj.customer === "string" ? { customer: obj.customer } : {}).filter((c) => c.payment_intent === obj.id);
    // Embedded charges are shown in the same version as the intent (their refunds inline, as then).
    out.charges = embeddedList(charges.map((c) => presentCharge(c, ctx)), `/v1/charges?payment_intent=${obj.id}`);
  }
  return out;
}

/** An intent that has not moved money yet can be canceled; one that succeeded (or already was) cannot. */
const CANCELABLE = ["requires_payment_method", "requires_capture", "requires_confirmation", "requires_action", "processing"];
const cancelParams = strict({ cancellation_reason: oneOf(["abandoned", "duplicate", "fraudulent", "requested_by_customer"]).optional() });

function cancelIntent(ctx: StripeContext, id: string, reason: string | null): StoredObject {
  const pi = requireIntent(ctx, id);
  if (!CANCELABLE.includes(String(pi.status)))
    throw domainError(
      `You cannot cancel this PaymentIntent because it has a status of ${String(pi.status)}. Only a PaymentIntent with one of the following statuses may be canceled: ${CANCELABLE.join(", ")}.`,
      "payment_intent_unexpected_state",
    );
  return ctx.store.update("payment_intents", id, { ...pi, status: "canceled", canceled_at: ctx.store.now(), cancellation_reason: reason, amount_capturable: 0 });
}

const listParams = strict({ ...listShape, customer: str().optional(), created: range().optional() });

function listIntents(ctx: StripeContext, a: z.output<typeof listParams>) {
  const base = a.customer !== undefined ? ctx.store.list("payment_intents", { customer: a.customer }) : ctx.store.list("payment_intents");
  return paginate(base.filter((p) => inRange(p.created, a.created)), a, "/v1/payment_intents", "payment_intent", (id) => ctx.store.get("payment_intents", id));
}

export const paymentIntents: Resource = {
  type: "payment_intents",
  object: "payment_intent",
  prefix: "pi",
  seed: seedPaymentIntents,
  expandable: ["customer", "latest_charge", "invoice", "payment_method", "review", "application"],
  searchFields: {
    amount: { kind: "number" },
    created: { kind: "number" },
    currency: { kind: "token" },
    customer: { kind: "token" },
    status: { kind: "token" },
  },
  present,
  routes: [
    route("GET", "/v1/payment_intents", listParams, listIntents),
    route("GET", "/v1/payment_intents/search", strict(searchShape), (ctx, a) =>
      searchPage(ctx.store.list("payment_intents"), a, "/v1/payment_intents/search", paymentIntents.searchFields!, "payment_intent"),
    ),
    route("GET", "/v1/payment_intents/:id", strict({ client_secret: str().optional() }), (ctx, _a, p) => requireIntent(ctx, p.id)),
    route("POST", "/v1/payment_intents/:id/cancel", cancelParams, (ctx, a, p) => cancelIntent(ctx, p.id, a.cancellation_reason ?? null)),
  ],
};
