// Changing the billing account: refunds, balance credits, voids, cancellations, plan changes. Each is one billing
// API write, so the twin's own rules (refund limits, invoice states, proration...) decide and the diff records it
// under the call's request, exactly as for the same REST request. Amounts are cents, as the API counts them.
import { z } from "zod";
import type { Store } from "../../store/store";
import { accountTool, idempotencyKey, objectId, seg } from "./define";

const REFUND_REASONS = ["duplicate", "fraudulent", "requested_by_customer"] as const;

export const refundCharge = accountTool({
  name: "refund_charge",
  title: "Refund a charge",
  description:
    "Refund a charge, in full (omit amount: everything not yet refunded) or in part (amount in cents). Answers the refund object. A charge can be refunded more than once until nothing is left.",
  effect: "write",
  hints: { destructive: true, idempotent: false },
  args: z.strictObject({
    charge: objectId("charge"),
    amount: z.number().int().min(1).optional().describe("Cents to refund; omit to refund the whole remaining amount."),
    reason: z.enum(REFUND_REASONS).optional(),
    idempotency_key: idempotencyKey,
  }),
  request: (a) => ({ service: "stripe", method: "POST", path: "/v1/refunds", form: { charge: a.charge, amount: a.amount, reason: a.reason }, idempotencyKey: a.idempotency_key }),
});

/** The customer's own currency when it has one (the ledger refuses another), else the account's. */
function creditCurrency(store: Store, customer: string): string {
  const c = store.get("customers", customer);
  return (typeof c?.currency === "string" && c.currency) || store.meta("currency") || "usd";
}

export const creditBalance = accountTool({
  name: "credit_customer_balance",
  title: "Credit a customer's balance",
  description:
    "Give a customer account credit (amount in cents, positive): it is taken off their next invoices. Answers the customer balance transaction (its amount is negative: a credit).",
  effect: "write",
  hints: { destructive: true, idempotent: false },
  args: z.strictObject({
    customer: objectId("customer"),
    amount: z.number().int().min(1).describe("Cents of credit to give (positive)."),
    currency: z.string().regex(/^[a-z]{3}$/).optional().describe("Three-letter currency code; default the customer's (else the account's)."),
    description: z.string().max(500).optional().describe("Why, as the account's ledger shows it."),
    idempotency_key: idempotencyKey,
  }),
  request: (a, store) => ({
    service: "stripe",
    method: "POST",
    path: `/v1/customers/${seg(a.customer)}/balance_transactions`,
    form: { amount: -a.amount, currency: a.currency ?? creditCurrency(store, a.customer), description: a.description },
    idempotencyKey: a.idempotency_key,
  }),
});

export const voidInvoice = accountTool({
  name: "void_invoice",
  title: "Void an invoice",
  description: "Void an open or uncollectible invoice so it is no longer owed (a paid or draft invoice cannot be voided; a draft is deleted instead). Answers the invoice.",
  effect: "write",
  hints: { destructive: true, idempotent: false },
  args: z.strictObject({ invoice: objectId("invoice"), idempotency_key: idempotencyKey }),
  request: (a) => ({ service: "stripe", method: "POST", path: `/v1/invoices/${seg(a.invoice)}/void`, idempotencyKey: a.idempotency_key }),
});

export const cancelSubscription = accountTool({
  name: "cancel_subscription",
  title: "Cancel a subscription",
  description:
    "Cancel a subscription: at_period_end true schedules the end for the end of the current period (the customer keeps access until then and is not billed again); false cancels it now. Answers the subscription.",
  effect: "write",
  hints: { destructive: true, idempotent: false },
  args: z.strictObject({
    subscription: objectId("subscription"),
    at_period_end: z.boolean().describe("true: end at the end of the current period; false: cancel immediately."),
    idempotency_key: idempotencyKey,
  }),
  request: (a) =>
    a.at_period_end
      ? { service: "stripe", method: "POST", path: `/v1/subscriptions/${seg(a.subscription)}`, form: { cancel_at_period_end: true }, idempotencyKey: a.idempotency_key }
      : { service: "stripe", method: "DELETE", path: `/v1/subscriptions/${seg(a.subscription)}`, idempotencyKey: a.idempotency_key },
});

const PRORATION = ["always_invoice", "create_prorations", "none"] as const;

export const changePlan = accountTool({
  name: "change_subscription_price",
  title: "Change a subscription's plan",
  description:
    "Move a subscription to another price (plan; see list_prices). A subscription with one item needs no `item`; with several, name the item (si_...) to change. Proration follows the billing API's default unless proration_behavior says otherwise. Answers the subscription.",
  effect: "write",
  hints: { destructive: true, idempotent: true },
  args: z.strictObject({
    subscription: objectId("subscription"),
    price: objectId("price"),
    item: objectId("subscription item").optional(),
    proration_behavior: z.enum(PRORATION).optional(),
    idempotency_key: idempotencyKey,
  }),
  request: (a, store) => {
    let item = a.item;
    // Which item to move is the one thing REST asks for that a plan change does not say; read it, never guess.
    const items = (store.get("subscriptions", a.subscription)?.items as { data?: Array<{ id: string }> } | undefined)?.data ?? [];
    if (item === undefined && items.length > 1)
      return { ok: false, error: { code: "invalid_arguments", message: `change_subscription_price: ${a.subscription} has ${items.length} items (${items.map((i) => i.id).join(", ")}); name the one to change as item.` } };
    item ??= items[0]?.id;
    return {
      service: "stripe",
      method: "POST",
      path: `/v1/subscriptions/${seg(a.subscription)}`,
      form: { "items[0][id]": item, "items[0][price]": a.price, proration_behavior: a.proration_behavior },
      idempotencyKey: a.idempotency_key,
    };
  },
});

export const BILLING_WRITES = [refundCharge, creditBalance, voidInvoice, cancelSubscription, changePlan];
