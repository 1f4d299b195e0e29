// Full API shapes of the payment objects, shared by seeding and by the actions that create them (paying an
// invoice, refunding), so a seeded object and one the agent caused look exactly alike.
import type { StoredObject } from "../../../store/store";

export interface Card {
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
}

export function cardDetails(card: Card, amount: number): Record<string, unknown> {
  return {
    card: {
      amount_authorized: amount,
      authorization_code: null,
      brand: card.brand,
      checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: "pass" },
      country: "US",
      electronic_commerce_indicator: null,
      exp_month: card.exp_month,
      exp_year: card.exp_year,
      fingerprint: `fp${card.brand}${card.last4}`,
      funding: "credit",
      installments: null,
      last4: card.last4,
      mandate: null,
      network: card.brand,
      network_transaction_id: null,
      regulated_status: "unregulated",
      three_d_secure: null,
      transaction_link_id: null,
      wallet: null,
    },
    type: "card",
  };
}

export function defaultCard(clock: number): Card {
  return { brand: "visa", last4: "4242", exp_month: 12, exp_year: new Date(clock * 1000).getUTCFullYear() + 3 };
}

export interface ChargeInput {
  id: string;
  amount: number;
  amount_refunded: number;
  currency: string;
  customer: string | null;
  created: number;
  status: "succeeded" | "pending" | "failed";
  payment_intent: string | null;
  description: string | null;
  disputed: boolean;
  failure_code: string | null;
  failure_message: string | null;
  receipt_email: string | null;
  statement_descriptor: string | null;
  billing: { email: string | null; name: string | null };
  payment_method_details: Record<string, unknown>;
  metadata: Record<string, string>;
}

export function chargeDoc(c: ChargeInput): StoredObject {
  const ok = c.status === "succeeded";
  return {
    id: c.id,
    object: "charge",
    amount: c.amount,
    amount_captured: ok ? c.amount : 0,
    amount_refunded: c.amount_refunded,
    application: null,
    application_fee: null,
    application_fee_amount: null,
    balance_transaction: null,
    billing_details: {
      address: { city: null, country: null, line1: null, line2: null, postal_code: null, state: null },
      email: c.billing.email,
      name: c.billing.name,
      phone: null,
      tax_id: null,
    },
    calculated_statement_descriptor: c.statement_descriptor ?? "WORLDS",
    captured: ok,
    created: c.created,
    currency: c.currency,
    customer: c.customer,
    description: c.description,
    disputed: c.disputed,
    failure_balance_transaction: null,
    failure_code: c.failure_code,
    failure_message: c.failure_message,
    fraud_details: {},
    livemode: false,
    metadata: c.metadata,
    on_behalf_of: null,
    outcome: c.status === "pending"
      ? null
      : {
          advice_code: null,
          network_advice_code: null,
          network_decline_code: null,
          network_status: ok ? "approved_by_network" : "declined_by_network",
          reason: ok ? null : "generic_decline",
          risk_level: "normal",
          seller_message: ok ? "Payment complete." : "The bank did not return any further details with this decline.",
          type: ok ? "authorized" : "issuer_declined",
        },
    paid: ok,
    payment_intent: c.payment_intent,
    payment_method: null,
    payment_method_details: c.payment_method_details,
    receipt_email: c.receipt_email,
    receipt_number: null,
    receipt_url: `https://pay.stripe.com/receipts/payment/${c.id}`,
    refunded: c.amount_refunded >= c.amount,
    review: null,
    shipping: null,
    source: null,
    source_transfer: null,
    statement_descriptor: c.statement_descriptor,
    statement_descriptor_suffix: null,
    status: c.status,
    transfer_data: null,
    transfer_group: null,
  };
}

export type PaymentIntentStatus =
  | "requires_payment_method"
  | "requires_confirmation"
  | "requires_action"
  | "processing"
  | "requires_capture"
  | "canceled"
  | "succeeded";

export interface PaymentIntentInput {
  id: string;
  amount: number;
  amount_received: number;
  currency: string;
  customer: string | null;
  created: number;
  status: PaymentIntentStatus;
  latest_charge: string | null;
  description: string | null;
  metadata: Record<string, string>;
}

export function paymentIntentDoc(p: PaymentIntentInput): StoredObject {
  return {
    id: p.id,
    object: "payment_intent",
    allowed_payment_method_types: null,
    amount: p.amount,
    amount_capturable: 0,
    amount_details: { tip: {} },
    amount_received: p.amount_received,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: null,
    canceled_at: p.status === "canceled" ? p.created : null,
    cancellation_reason: null,
    capture_method: "automatic",
    client_secret: `${p.id}_secret_${p.id.slice(3).split("").reverse().join("")}`,
    confirmation_method: "automatic",
    created: p.created,
    currency: p.currency,
    customer: p.customer,
    customer_account: null,
    description: p.description,
    excluded_payment_method_types: null,
    last_payment_error: null,
    latest_charge: p.latest_charge,
    livemode: false,
    managed_payments: null,
    metadata: p.metadata,
    next_action: null,
    on_behalf_of: null,
    payment_method: null,
    payment_method_configuration_details: null,
    payment_method_options: { card: { installments: null, mandate_options: null, network: null, request_three_d_secure: "automatic" } },
    payment_method_types: ["card"],
    payment_record: null,
    processing: null,
    receipt_email: null,
    review: null,
    setup_future_usage: null,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: p.status,
    transfer_data: null,
    transfer_group: null,
  };
}

export const REFUND_REASONS = ["duplicate", "fraudulent", "requested_by_customer"] as const;

export interface RefundInput {
  id: string;
  amount: number;
  charge: string;
  currency: string;
  customer: string | null;
  payment_intent: string | null;
  created: number;
  reason: string | null;
  status: string;
  metadata: Record<string, string>;
  instructions_email?: string;
}

export function refundDoc(r: RefundInput): StoredObject {
  const doc: StoredObject = {
    id: r.id,
    object: "refund",
    amount: r.amount,
    balance_transaction: null,
    charge: r.charge,
    created: r.created,
    currency: r.currency,
    customer: r.customer,
    customer_account: null,
    destination_details: {
      // The network's reference is absent until it assigns one.
      card: { reference_status: "pending", reference_type: "acquirer_reference_number", type: "refund" },
      type: "card",
    },
    metadata: r.metadata,
    payment_intent: r.payment_intent,
    payment_method: null,
    reason: r.reason,
    receipt_number: null,
    source_transfer_reversal: null,
    status: r.status,
    transfer_reversal: null,
  };
  if (r.instructions_email) doc.instructions_email = r.instructions_email;
  return doc;
}

/** Embedded list envelope (object: list) as nested lists appear inside objects. */
export function embeddedList(data: unknown[], url: string, total = data.length, limit = 10): Record<string, unknown> {
  return { object: "list", data: data.slice(0, limit), has_more: total > limit, total_count: total, url };
}
