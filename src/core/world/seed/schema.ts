// The seed document: a world's starting state. Objects are written in the billing API's own (current-version)
// shapes so an agent sees exactly what the seed author wrote; fields the API always carries but a seed author
// rarely cares about (object, livemode, empty metadata...) are filled in when the world is seeded.
// Every object schema is strict: an unknown field is an error that names its path.
import { toolsWorldBlock } from "../../kinds/tools/world-block";
import { replayBlockSizeProblem, replayWorldBlock } from "../../kinds/replay/recorded/world-block";
import { z } from "zod";

const id = (prefix: string) =>
  z.string().regex(new RegExp(`^${prefix}_[A-Za-z0-9]+$`), `must be an id starting with ${prefix}_`);
const ts = z.number().int().nonnegative(); // unix seconds
const amount = z.number().int();
const currency = z.string().regex(/^[a-z]{3}$/, "must be a lowercase 3-letter ISO currency code");
const metadata = z.record(z.string(), z.string()).optional();

export const seedCustomer = z.strictObject({
  id: id("cus"),
  email: z.string().email().nullable(),
  name: z.string().nullable(),
  created: ts.optional(),
  balance: amount.optional(),
  currency: currency.nullable().optional(),
  description: z.string().nullable().optional(),
  phone: z.string().nullable().optional(),
  delinquent: z.boolean().optional(),
  /** A coupon of the seed applied to the customer (its discount starts at the customer's creation). */
  coupon: z.string().optional(),
  metadata,
});

export const seedProduct = z.strictObject({
  id: id("prod"),
  name: z.string(),
  active: z.boolean().optional(),
  description: z.string().nullable().optional(),
  created: ts.optional(),
  metadata,
});

export const seedPrice = z.strictObject({
  id: id("price"),
  product: id("prod"),
  unit_amount: amount.nonnegative(),
  currency: currency.optional(),
  nickname: z.string().nullable().optional(),
  active: z.boolean().optional(),
  lookup_key: z.string().nullable().optional(),
  recurring: z
    .strictObject({ interval: z.enum(["day", "week", "month", "year"]), interval_count: z.number().int().positive().optional() })
    .nullable()
    .optional(),
  created: ts.optional(),
  metadata,
});

export const seedSubscriptionItem = z.strictObject({
  id: id("si"),
  price: id("price"),
  quantity: z.number().int().positive().optional(),
  current_period_start: ts,
  current_period_end: ts,
  created: ts.optional(),
  metadata,
});

export const subscriptionStatus = z.enum([
  "incomplete",
  "incomplete_expired",
  "trialing",
  "active",
  "past_due",
  "canceled",
  "unpaid",
  "paused",
]);

export const seedSubscription = z.strictObject({
  id: id("sub"),
  customer: id("cus"),
  status: subscriptionStatus,
  items: z.array(seedSubscriptionItem).min(1),
  created: ts.optional(),
  start_date: ts.optional(),
  billing_cycle_anchor: ts.optional(),
  cancel_at_period_end: z.boolean().optional(),
  cancel_at: ts.nullable().optional(),
  canceled_at: ts.nullable().optional(),
  ended_at: ts.nullable().optional(),
  trial_start: ts.nullable().optional(),
  trial_end: ts.nullable().optional(),
  latest_invoice: id("in").nullable().optional(),
  collection_method: z.enum(["charge_automatically", "send_invoice"]).optional(),
  currency: currency.optional(),
  description: z.string().nullable().optional(),
  metadata,
});

export const seedInvoiceLine = z.strictObject({
  id: id("il"),
  amount: amount,
  description: z.string().nullable().optional(),
  price: id("price").nullable().optional(),
  quantity: z.number().int().nonnegative().nullable().optional(),
  period: z.strictObject({ start: ts, end: ts }),
  proration: z.boolean().optional(),
  subscription_item: id("si").nullable().optional(),
  metadata,
});

export const invoiceStatus = z.enum(["draft", "open", "paid", "void", "uncollectible"]);

export const seedInvoice = z.strictObject({
  id: id("in"),
  customer: id("cus"),
  status: invoiceStatus,
  number: z.string().nullable().optional(),
  currency: currency.optional(),
  subscription: id("sub").nullable().optional(),
  lines: z.array(seedInvoiceLine),
  amount_paid: amount.nonnegative().optional(),
  starting_balance: amount.optional(),
  created: ts.optional(),
  due_date: ts.nullable().optional(),
  period_start: ts.optional(),
  period_end: ts.optional(),
  payment_intent: id("pi").nullable().optional(),
  charge: id("ch").nullable().optional(),
  collection_method: z.enum(["charge_automatically", "send_invoice"]).optional(),
  description: z.string().nullable().optional(),
  finalized_at: ts.nullable().optional(),
  paid_at: ts.nullable().optional(),
  voided_at: ts.nullable().optional(),
  marked_uncollectible_at: ts.nullable().optional(),
  metadata,
});

export const seedCharge = z.strictObject({
  id: id("ch"),
  customer: id("cus").nullable(),
  amount: amount.positive(),
  amount_refunded: amount.nonnegative().optional(),
  currency: currency.optional(),
  status: z.enum(["succeeded", "pending", "failed"]).optional(),
  payment_intent: id("pi").nullable().optional(),
  invoice: id("in").nullable().optional(),
  description: z.string().nullable().optional(),
  created: ts.optional(),
  disputed: z.boolean().optional(),
  failure_code: z.string().nullable().optional(),
  failure_message: z.string().nullable().optional(),
  receipt_email: z.string().nullable().optional(),
  statement_descriptor: z.string().nullable().optional(),
  payment_method_details: z
    .strictObject({ type: z.literal("card"), card: z.strictObject({ brand: z.string(), last4: z.string().regex(/^\d{4}$/), exp_month: z.number().int(), exp_year: z.number().int() }) })
    .optional(),
  metadata,
});

export const seedPaymentIntent = z.strictObject({
  id: id("pi"),
  customer: id("cus").nullable(),
  amount: amount.positive(),
  amount_received: amount.nonnegative().optional(),
  currency: currency.optional(),
  status: z.enum(["requires_payment_method", "requires_confirmation", "requires_action", "processing", "requires_capture", "canceled", "succeeded"]),
  latest_charge: id("ch").nullable().optional(),
  invoice: id("in").nullable().optional(),
  description: z.string().nullable().optional(),
  created: ts.optional(),
  metadata,
});

export const refundReason = z.enum(["duplicate", "fraudulent", "requested_by_customer", "expired_uncaptured_charge"]);

export const seedRefund = z.strictObject({
  id: id("re"),
  charge: id("ch"),
  amount: amount.positive(),
  currency: currency.optional(),
  reason: refundReason.nullable().optional(),
  status: z.enum(["pending", "succeeded", "failed", "canceled", "requires_action"]).optional(),
  created: ts.optional(),
  metadata,
});

export const seedCreditNoteLine = z.strictObject({
  id: id("cnli"),
  amount: amount.nonnegative(),
  description: z.string().nullable().optional(),
  invoice_line_item: id("il").nullable().optional(),
  quantity: z.number().int().nonnegative().nullable().optional(),
  type: z.enum(["invoice_line_item", "custom_line_item"]).optional(),
});

export const seedCreditNote = z.strictObject({
  id: id("cn"),
  invoice: id("in"),
  customer: id("cus").optional(),
  number: z.string().optional(),
  status: z.enum(["issued", "void"]).optional(),
  type: z.enum(["pre_payment", "post_payment"]).optional(),
  reason: z.enum(["duplicate", "fraudulent", "order_change", "product_unsatisfactory"]).nullable().optional(),
  memo: z.string().nullable().optional(),
  lines: z.array(seedCreditNoteLine).min(1),
  credit_amount: amount.nonnegative().optional(),
  refund_amount: amount.nonnegative().optional(),
  out_of_band_amount: amount.nonnegative().optional(),
  refund: id("re").nullable().optional(),
  customer_balance_transaction: id("cbtxn").nullable().optional(),
  created: ts.optional(),
  voided_at: ts.nullable().optional(),
  metadata,
});

export const balanceTransactionType = z.enum([
  "adjustment",
  "applied_to_invoice",
  "credit_note",
  "initial",
  "invoice_overpaid",
  "invoice_too_large",
  "invoice_too_small",
  "unspent_receiver_credit",
  "unapplied_from_invoice",
]);

export const seedBalanceTransaction = z.strictObject({
  id: id("cbtxn"),
  customer: id("cus"),
  amount: amount,
  currency: currency.optional(),
  type: balanceTransactionType.optional(),
  description: z.string().nullable().optional(),
  invoice: id("in").nullable().optional(),
  credit_note: id("cn").nullable().optional(),
  ending_balance: amount.optional(),
  created: ts.optional(),
  metadata,
});

/** The text evidence a dispute carries (file evidence is out of scope: the twin holds no file uploads). */
export const DISPUTE_EVIDENCE_FIELDS = [
  "access_activity_log", "billing_address", "cancellation_policy", "cancellation_policy_disclosure", "cancellation_rebuttal",
  "customer_communication", "customer_email_address", "customer_name", "customer_purchase_ip", "customer_signature",
  "duplicate_charge_documentation", "duplicate_charge_explanation", "duplicate_charge_id", "product_description", "receipt",
  "refund_policy", "refund_policy_disclosure", "refund_refusal_explanation", "service_date", "service_documentation",
  "shipping_address", "shipping_carrier", "shipping_date", "shipping_documentation", "shipping_tracking_number",
  "uncategorized_file", "uncategorized_text",
] as const;

export const disputeReason = z.enum([
  "bank_cannot_process", "check_returned", "credit_not_processed", "customer_initiated", "debit_not_authorized", "duplicate",
  "fraudulent", "general", "incorrect_account_details", "insufficient_funds", "noncompliant", "product_not_received",
  "product_unacceptable", "subscription_canceled", "unrecognized",
]);
/** warning_*: an inquiry (no money withdrawn yet); the others: a chargeback. */
export const disputeStatus = z.enum(["warning_needs_response", "warning_under_review", "warning_closed", "needs_response", "under_review", "won", "lost"]);

export const seedDispute = z.strictObject({
  id: id("du"),
  charge: id("ch"),
  /** Default: the charge's amount. */
  amount: amount.positive().optional(),
  currency: currency.optional(),
  reason: disputeReason.optional(),
  status: disputeStatus.optional(),
  created: ts.optional(),
  /** When evidence is due; default seven days after the dispute opened. */
  due_by: ts.nullable().optional(),
  evidence: z.strictObject(Object.fromEntries(DISPUTE_EVIDENCE_FIELDS.map((f) => [f, z.string().max(20000).optional()])) as Record<(typeof DISPUTE_EVIDENCE_FIELDS)[number], z.ZodOptional<z.ZodString>>).optional(),
  /** Evidence submissions already made (a dispute under review or decided has at least one). */
  submission_count: z.number().int().nonnegative().optional(),
  metadata,
});

export const ticketStatus = z.enum(["new", "open", "pending", "hold", "solved", "closed"]);
export const ticketPriority = z.enum(["low", "normal", "high", "urgent"]);

export const seedTicketComment = z.strictObject({
  id: z.number().int().positive().optional(),
  author_id: z.number().int().positive().optional(),
  body: z.string(),
  public: z.boolean().optional(),
  created_at: z.string().datetime().optional(),
});

export const seedTicket = z.strictObject({
  id: z.number().int().positive(),
  subject: z.string(),
  description: z.string(),
  status: ticketStatus.optional(),
  priority: ticketPriority.nullable().optional(),
  type: z.enum(["problem", "incident", "question", "task"]).nullable().optional(),
  tags: z.array(z.string()).optional(),
  requester_id: z.number().int().positive().optional(),
  requester: z.strictObject({ email: z.string().email(), name: z.string().optional() }).optional(),
  assignee_id: z.number().int().positive().nullable().optional(),
  created_at: z.string().datetime().optional(),
  created_offset: z.number().int().optional(), // seconds relative to the world clock; tasks files place tickets this way
  comments: z.array(seedTicketComment).optional(),
  external_id: z.string().nullable().optional(),
  /** Default: the requester's organization. */
  organization_id: z.number().int().positive().nullable().optional(),
  group_id: z.number().int().positive().nullable().optional(),
});

export const seedUser = z.strictObject({
  id: z.number().int().positive(),
  name: z.string(),
  email: z.string().email(),
  role: z.enum(["end-user", "agent", "admin"]).optional(),
  organization_id: z.number().int().positive().nullable().optional(),
  tags: z.array(z.string()).optional(),
  created_at: z.string().datetime().optional(),
});

/** A coupon: percent or amount off (the amount in the seed's currency unless given), once, repeating or forever. */
export const seedCoupon = z
  .strictObject({
    id: z.string().regex(/^[A-Za-z0-9_-]{1,200}$/, "must be letters, digits, dashes and underscores"),
    name: z.string().nullable().optional(),
    percent_off: z.number().positive().max(100).optional(),
    amount_off: amount.positive().optional(),
    currency: currency.optional(),
    duration: z.enum(["forever", "once", "repeating"]),
    duration_in_months: z.number().int().positive().optional(),
    max_redemptions: z.number().int().positive().optional(),
    redeem_by: ts.optional(),
    times_redeemed: z.number().int().nonnegative().optional(),
    applies_to: z.strictObject({ products: z.array(id("prod")) }).optional(),
    created: ts.optional(),
    metadata,
  })
  .superRefine((c, ctx) => {
    if ((c.percent_off === undefined) === (c.amount_off === undefined)) ctx.addIssue({ code: "custom", path: ["percent_off"], message: "a coupon takes exactly one of percent_off and amount_off" });
    if ((c.duration === "repeating") !== (c.duration_in_months !== undefined)) ctx.addIssue({ code: "custom", path: ["duration_in_months"], message: "duration_in_months goes with duration repeating, and only with it" });
  });

export const seedPromotionCode = z.strictObject({
  id: id("promo"),
  code: z.string().regex(/^[A-Za-z0-9]{1,500}$/, "must be letters and digits"),
  coupon: z.string(),
  active: z.boolean().optional(),
  customer: id("cus").nullable().optional(),
  expires_at: ts.optional(),
  max_redemptions: z.number().int().positive().optional(),
  first_time_transaction: z.boolean().optional(),
  /** In the seed's currency. */
  minimum_amount: amount.positive().optional(),
  created: ts.optional(),
  metadata,
});

/** A customer's tax id; its country is derived from the type (and, for EU VAT, the value's prefix). */
export const seedTaxId = z.strictObject({
  id: id("txi"),
  customer: id("cus"),
  type: z.string().regex(/^[a-z]{2}_[a-z_]+$/, "must be a tax id type such as eu_vat or us_ein"),
  value: z.string().min(1),
  verification: z.enum(["pending", "unavailable", "unverified", "verified"]).optional(),
  created: ts.optional(),
});

export const seedOrganization = z.strictObject({
  id: z.number().int().positive(),
  name: z.string().min(1),
  domain_names: z.array(z.string()).optional(),
  details: z.string().nullable().optional(),
  notes: z.string().nullable().optional(),
  external_id: z.string().nullable().optional(),
  group_id: z.number().int().positive().nullable().optional(),
  tags: z.array(z.string()).optional(),
  created_at: z.string().datetime().optional(),
});

export const seedGroup = z.strictObject({
  id: z.number().int().positive(),
  name: z.string().min(1),
  description: z.string().optional(),
  default: z.boolean().optional(),
  is_public: z.boolean().optional(),
  created_at: z.string().datetime().optional(),
});

/** A macro's actions in the help desk's own form: {field, value}, e.g. status/solved, comment_value/"Thanks!". */
export const seedMacroAction = z.strictObject({
  field: z.enum(["status", "priority", "type", "subject", "assignee_id", "group_id", "set_tags", "current_tags", "remove_tags", "comment_value", "comment_value_html", "comment_mode_is_public"]),
  value: z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.union([z.string(), z.number()]))]),
});

export const seedMacro = z.strictObject({
  id: z.number().int().positive(),
  title: z.string().min(1),
  description: z.string().nullable().optional(),
  active: z.boolean().optional(),
  actions: z.array(seedMacroAction).min(1),
  created_at: z.string().datetime().optional(),
});

export const seedTicketField = z.strictObject({
  id: z.number().int().positive(),
  type: z.enum(["text", "textarea", "checkbox", "date", "integer", "decimal", "regexp", "tagger", "multiselect"]),
  title: z.string().min(1),
  description: z.string().optional(),
  required: z.boolean().optional(),
  active: z.boolean().optional(),
  tag: z.string().nullable().optional(),
  options: z.array(z.strictObject({ name: z.string(), value: z.string() })).optional(),
  created_at: z.string().datetime().optional(),
});

export const seedData = z.strictObject({
  customers: z.array(seedCustomer).default([]),
  products: z.array(seedProduct).default([]),
  prices: z.array(seedPrice).default([]),
  subscriptions: z.array(seedSubscription).default([]),
  invoices: z.array(seedInvoice).default([]),
  charges: z.array(seedCharge).default([]),
  payment_intents: z.array(seedPaymentIntent).default([]),
  refunds: z.array(seedRefund).default([]),
  credit_notes: z.array(seedCreditNote).default([]),
  balance_transactions: z.array(seedBalanceTransaction).default([]),
  // Optional rather than defaulted, like the desk's directory below: older seeds keep their hash.
  coupons: z.array(seedCoupon).optional(),
  promotion_codes: z.array(seedPromotionCode).optional(),
  tax_ids: z.array(seedTaxId).optional(),
  tickets: z.array(seedTicket).default([]),
  users: z.array(seedUser).default([]),
  // Optional rather than defaulted: a seed without them keeps the hash it had before the desk's directory existed.
  organizations: z.array(seedOrganization).optional(),
  groups: z.array(seedGroup).optional(),
  macros: z.array(seedMacro).optional(),
  ticket_fields: z.array(seedTicketField).optional(),
  disputes: z.array(seedDispute).optional(),
});

export const seedDocument = z.strictObject({
  version: z.literal(1),
  /** What the world simulates: an account (billing + help desk; also when absent, so older seeds keep their hash) or a team's own tools. */
  kind: z.enum(["account", "tools", "replay"]).optional(),
  /** A tools world's block and task (src/core/kinds/tools/world-block.ts); required when kind is tools. */
  tools: toolsWorldBlock.optional(),
  /** A replay world's tools and recorded results (src/core/kinds/replay/recorded/world-block.ts); required when kind is replay. */
  replay: replayWorldBlock.optional(),
  name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, "must be lowercase letters, digits and dashes"),
  description: z.string().optional(),
  clock: z.string().datetime({ offset: true }),
  currency: currency,
  stripe_version: z.string().regex(/^\d{4}-\d{2}-\d{2}(\.[a-z]+)?$/).optional(),
  account: z.strictObject({ name: z.string(), support_email: z.string().email().optional() }).optional(),
  data: seedData,
}).superRefine((doc, ctx) => {
  if (doc.kind === "tools" && !doc.tools) ctx.addIssue({ code: "custom", path: ["tools"], message: "a tools world needs its tools block" });
  if (doc.kind !== "tools" && doc.tools) ctx.addIssue({ code: "custom", path: ["kind"], message: "a seed with a tools block must say kind: tools" });
  if (doc.kind === "replay" && !doc.replay) ctx.addIssue({ code: "custom", path: ["replay"], message: "a replay world needs its replay block" });
  if (doc.kind !== "replay" && doc.replay) ctx.addIssue({ code: "custom", path: ["kind"], message: "a seed with a replay block must say kind: replay" });
  const tooLarge = doc.replay ? replayBlockSizeProblem(doc.replay) : null;
  if (tooLarge) ctx.addIssue({ code: "custom", path: ["replay"], message: tooLarge });
});

export type SeedDocument = z.infer<typeof seedDocument>;
export type SeedData = SeedDocument["data"];
export type SeedCustomer = z.infer<typeof seedCustomer>;
export type SeedDispute = z.infer<typeof seedDispute>;
export type SeedTicket = z.infer<typeof seedTicket>;
export type SeedUser = z.infer<typeof seedUser>;
export type SeedMacro = z.infer<typeof seedMacro>;
export type SeedTicketField = z.infer<typeof seedTicketField>;
export type SeedCollection = keyof SeedData;
