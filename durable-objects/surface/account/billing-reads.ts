// Reading the billing account: customers, charges, invoices, subscriptions, prices. Each is the billing API's own
// GET, so an answer is the API's object or list ({object: "list", data, has_more}).
import { z } from "zod";
import { accountTool, limit, objectId, seg, startingAfter } from "./define";

const retrieve = (name: string, what: string, collection: string, description: string) =>
  accountTool({
    name,
    title: `Get ${what}`,
    description,
    effect: "read",
    args: z.strictObject({ [what]: objectId(what) }),
    request: (a) => ({ service: "stripe", method: "GET", path: `/v1/${collection}/${seg(String(a[what]))}` }),
  });

export const getCustomer = retrieve("get_customer", "customer", "customers", "Look up one customer by id (cus_...): name, email, balance (negative = credit owed to the customer), currency, metadata.");
export const getCharge = retrieve("get_charge", "charge", "charges", "One charge by id (ch_...): amount and amount_refunded in cents, status, refunded, the invoice it paid (if any), created (unix seconds).");
export const getInvoice = retrieve("get_invoice", "invoice", "invoices", "One invoice by id (in_...): status (draft, open, paid, void, uncollectible), amounts due/paid in cents, lines, the subscription it bills.");
export const getSubscription = retrieve("get_subscription", "subscription", "subscriptions", "One subscription by id (sub_...): status, items with their prices and current period, cancel_at_period_end.");

export const findCustomers = accountTool({
  name: "find_customers",
  title: "Find customers by email",
  description: "Customers whose email is exactly this address, newest first. More than one customer can share an email; check which one you mean before changing anything.",
  effect: "read",
  args: z.strictObject({ email: z.string().min(3).max(512).describe("The email address, e.g. the ticket requester's."), limit }),
  request: (a) => ({ service: "stripe", method: "GET", path: "/v1/customers", query: { email: a.email, limit: a.limit ?? 10 } }),
});

export const listCharges = accountTool({
  name: "list_charges",
  title: "List charges",
  description: "Charges, newest first: a customer's when `customer` is given, else the whole account's. Amounts are in cents; created is unix seconds.",
  effect: "read",
  args: z.strictObject({ customer: objectId("customer").optional(), limit, starting_after: startingAfter }),
  request: (a) => ({ service: "stripe", method: "GET", path: "/v1/charges", query: { customer: a.customer, limit: a.limit ?? 10, starting_after: a.starting_after } }),
});

const INVOICE_STATUSES = ["draft", "open", "paid", "uncollectible", "void"] as const;
export const listInvoices = accountTool({
  name: "list_invoices",
  title: "List a customer's invoices",
  description: "A customer's invoices, newest first, optionally only those with one status.",
  effect: "read",
  args: z.strictObject({ customer: objectId("customer"), status: z.enum(INVOICE_STATUSES).optional(), limit, starting_after: startingAfter }),
  request: (a) => ({ service: "stripe", method: "GET", path: "/v1/invoices", query: { customer: a.customer, status: a.status, limit: a.limit ?? 10, starting_after: a.starting_after } }),
});

const SUBSCRIPTION_STATUSES = ["active", "all", "canceled", "ended", "incomplete", "incomplete_expired", "past_due", "paused", "trialing", "unpaid"] as const;
export const listSubscriptions = accountTool({
  name: "list_subscriptions",
  title: "List a customer's subscriptions",
  description: "A customer's subscriptions, newest first. Without `status`, every one that is not canceled (as the billing API answers); status \"all\" includes canceled ones.",
  effect: "read",
  args: z.strictObject({ customer: objectId("customer"), status: z.enum(SUBSCRIPTION_STATUSES).optional(), limit, starting_after: startingAfter }),
  request: (a) => ({ service: "stripe", method: "GET", path: "/v1/subscriptions", query: { customer: a.customer, status: a.status, limit: a.limit ?? 10, starting_after: a.starting_after } }),
});

export const listPrices = accountTool({
  name: "list_prices",
  title: "List prices",
  description: "The account's prices (the plans a subscription can move to), newest first: unit_amount in cents, recurring interval, product, nickname, lookup_key.",
  effect: "read",
  args: z.strictObject({
    product: objectId("product").optional(),
    active: z.boolean().optional().describe("Only active (true) or inactive (false) prices."),
    limit,
    starting_after: startingAfter,
  }),
  request: (a) => ({ service: "stripe", method: "GET", path: "/v1/prices", query: { product: a.product, active: a.active, limit: a.limit ?? 10, starting_after: a.starting_after } }),
});

export const BILLING_READS = [getCustomer, findCustomers, listCharges, getCharge, listInvoices, getInvoice, listSubscriptions, getSubscription, listPrices];
