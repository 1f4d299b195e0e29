// The one place money goes back to a customer's card: refunds by the Refund API, by the legacy charge refund
// endpoint and by credit notes all pass through here, so the charge can never be refunded beyond its amount.
// Handlers run synchronously inside one storage transaction, so this check-then-write cannot interleave.
import type { Store, StoredObject } from "../../../store/store";
import { domainError } from "../../errors";
import { formatAmount } from "./format";
import { refundDoc } from "./shapes";

export interface RefundRequest {
  /** Omitted: everything not yet refunded. */
  amount?: number;
  reason: string | null;
  metadata: Record<string, string>;
  instructions_email?: string;
  /** Set when the agent named the payment intent, so failures name it as the API does. */
  viaPaymentIntent?: string;
  /** The parameter that carried the amount (credit notes pass refund_amount). */
  amountParam?: string;
}

export function refundable(charge: StoredObject): number {
  return (charge.amount as number) - (charge.amount_refunded as number);
}

export function refundCharge(store: Store, charge: StoredObject, req: RefundRequest): StoredObject {
  if (charge.status !== "succeeded") {
    if (req.viaPaymentIntent) throw domainError(`This PaymentIntent (${req.viaPaymentIntent}) does not have a successful charge to refund.`, undefined, "payment_intent");
    throw domainError(`Charge ${charge.id} has not succeeded and cannot be refunded.`, undefined, "charge");
  }
  // An inquiry leaves the charge refundable; a chargeback has already taken the money back.
  const dispute = charge.disputed === true ? store.list("disputes").find((d) => d.charge === charge.id) : undefined;
  if (charge.disputed === true && dispute?.is_charge_refundable !== true) throw domainError(`Charge ${charge.id} has been charged back; cannot issue a refund.`, "charge_disputed");
  const remaining = refundable(charge);
  if (remaining <= 0) throw domainError(`Charge ${charge.id} has already been refunded.`, "charge_already_refunded");
  const amount = req.amount ?? remaining;
  const currency = charge.currency as string;
  if (amount > remaining) {
    throw domainError(`Refund amount (${formatAmount(amount, currency)}) is greater than unrefunded amount on charge (${formatAmount(remaining, currency)})`, undefined, req.amountParam ?? "amount");
  }
  const customer = (charge.customer as string | null) ?? null;
  const refund = refundDoc({
    id: store.newId("re"),
    amount,
    charge: charge.id,
    currency,
    customer,
    payment_intent: (charge.payment_intent as string | null) ?? null,
    created: store.now(),
    reason: req.reason,
    status: "succeeded",
    metadata: req.metadata,
    instructions_email: req.instructions_email,
  });
  store.insert("refunds", refund, customer);
  const refunded = (charge.amount_refunded as number) + amount;
  store.update("charges", charge.id, { ...charge, amount_refunded: refunded, refunded: refunded >= (charge.amount as number) });
  return refund;
}
