// Payment methods: the cards on file. Seeded from the cards a customer's charges were paid with (one per
// distinct card, attached to that customer), so a world's payment methods always agree with its payment
// history. List (customer, type), retrieve, the customer-scoped list and retrieve, update of metadata and
// billing details, detach (the card leaves the customer for good, and stops being the customer's default)
// and attach, with the real refusals: a card attached elsewhere, or one detached before, cannot be attached.
import type { z } from "zod";
import type { SeedDocument } from "../../../src/core/world/seed/schema";
import type { SeedContext, SeedRow } from "../../seed/rows";
import { deterministicId } from "../../store/ids";
import type { StoredObject } from "../../store/store";
import { domainError, noSuch, noSuchParam } from "../errors";
import { paginate } from "../list";
import { applyMetadata, emptyable, int, listShape, metadata, str, strict, type ListArgs, type MetadataParam } from "../params";
import { route, type Resource, type StripeContext } from "../types";
import { defaultCard, type Card } from "./money/shapes";
import { moneyIndex } from "./money/seed-index";

/** The one payment method type the twin holds; listing another type is an empty list, as in an account without them. */
const TYPES = ["acss_debit", "affirm", "afterpay_clearpay", "alipay", "au_becs_debit", "bacs_debit", "bancontact", "card", "cashapp", "customer_balance", "eps", "fpx", "giropay", "ideal", "klarna", "link", "p24", "paypal", "sepa_debit", "sofort", "us_bank_account", "wechat_pay"];

/** The card's id within a customer: stable for the same customer and card, so seeding twice gives the same id. */
export function paymentMethodId(customer: string, card: Card): string {
  return deterministicId("pm", `${customer}:${card.brand}:${card.last4}:${card.exp_month}:${card.exp_year}`, 0);
}

function paymentMethodDoc(id: string, customer: string | null, card: Card, created: number, billing: { email: string | null; name: string | null }): StoredObject {
  return {
    id,
    object: "payment_method",
    allow_redisplay: "unspecified",
    billing_details: { address: { city: null, country: null, line1: null, line2: null, postal_code: null, state: null }, email: billing.email, name: billing.name, phone: null, tax_id: null },
    card: {
      brand: card.brand,
      checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: "pass" },
      country: "US",
      display_brand: card.brand,
      exp_month: card.exp_month,
      exp_year: card.exp_year,
      fingerprint: `fp${card.brand}${card.last4}`,
      funding: "credit",
      generated_from: null,
      last4: card.last4,
      networks: { available: [card.brand], preferred: null },
      regulated_status: "unregulated",
      three_d_secure_usage: { supported: true },
      wallet: null,
    },
    created,
    customer,
    customer_account: null,
    livemode: false,
    metadata: {},
    type: "card",
  };
}

function seedPaymentMethods(doc: SeedDocument, ctx: SeedContext): SeedRow[] {
  const idx = moneyIndex(doc);
  const rows = new Map<string, SeedRow>();
  // Oldest charge first: a card's payment method dates from the first time it paid.
  const charges = [...doc.data.charges].sort((a, b) => (a.created ?? ctx.clock) - (b.created ?? ctx.clock));
  for (const ch of charges) {
    if (!ch.customer) continue;
    const card = ch.payment_method_details?.card ?? defaultCard(ctx.clock);
    const id = paymentMethodId(ch.customer, card);
    if (rows.has(id)) continue;
    const c = idx.customers.get(ch.customer);
    const created = ch.created ?? ctx.clock;
    rows.set(id, { type: "payment_methods", obj: paymentMethodDoc(id, ch.customer, card, created, { email: c?.email ?? null, name: c?.name ?? null }), customer: ch.customer, created });
  }
  return [...rows.values()];
}

function requirePaymentMethod(ctx: StripeContext, id: string): StoredObject {
  const pm = ctx.store.get("payment_methods", id);
  if (!pm) throw noSuch("PaymentMethod", id, "payment_method");
  return pm;
}

function requireCustomer(ctx: StripeContext, id: string, param = "customer"): StoredObject {
  const c = ctx.store.get("customers", id);
  if (!c) throw noSuch("customer", id, param);
  return c;
}

const listParams = strict({ ...listShape, customer: str().optional(), type: str().optional() });
const customerListParams = strict({ ...listShape, type: str().optional(), allow_redisplay: str().optional() });

function checkType(type: string | undefined): void {
  if (type !== undefined && !TYPES.includes(type)) throw domainError(`Invalid type: must be one of ${TYPES.join(", ")}`, undefined, "type");
}

function listPaymentMethods(ctx: StripeContext, a: ListArgs & { customer?: string; type?: string }, url: string) {
  checkType(a.type);
  const items = (a.customer !== undefined ? ctx.store.list("payment_methods", { customer: a.customer }).filter((pm) => pm.customer === a.customer) : ctx.store.list("payment_methods")).filter(
    (pm) => a.type === undefined || pm.type === a.type,
  );
  return paginate(items, a, url, "PaymentMethod", (id) => ctx.store.get("payment_methods", id));
}

const updateParams = strict({
  metadata: metadata().optional(),
  billing_details: strict({
    address: emptyable(strict({ city: str().optional(), country: str().optional(), line1: str().optional(), line2: str().optional(), postal_code: str().optional(), state: str().optional() })).optional(),
    email: emptyable(str()).optional(),
    name: emptyable(str()).optional(),
    phone: emptyable(str()).optional(),
  }).optional(),
  card: strict({ exp_month: int({ min: 1, max: 12 }).optional(), exp_year: int().optional() }).optional(),
  allow_redisplay: str().optional(),
});

function updatePaymentMethod(ctx: StripeContext, id: string, a: z.output<typeof updateParams>): StoredObject {
  const pm = requirePaymentMethod(ctx, id);
  // Only a card saved to a customer can be changed; a detached one is spent.
  if (!pm.customer) throw domainError("You must save this PaymentMethod to a customer before you can update it.", undefined, undefined);
  const next: StoredObject = { ...pm, metadata: applyMetadata(pm.metadata as Record<string, string>, a.metadata as MetadataParam | undefined) };
  if (a.billing_details) {
    const bd = { ...(pm.billing_details as Record<string, unknown>) };
    const { address, ...rest } = a.billing_details;
    for (const [k, v] of Object.entries(rest)) if (v !== undefined) bd[k] = v;
    if (address !== undefined) bd.address = { city: null, country: null, line1: null, line2: null, postal_code: null, state: null, ...(address ?? {}) };
    next.billing_details = bd;
  }
  if (a.card) next.card = { ...(pm.card as Record<string, unknown>), ...Object.fromEntries(Object.entries(a.card).filter(([, v]) => v !== undefined)) };
  if (a.allow_redisplay !== undefined) next.allow_redisplay = a.allow_redisplay;
  return ctx.store.update("payment_methods", pm.id, next);
}

function detach(ctx: StripeContext, id: string): StoredObject {
  const pm = requirePaymentMethod(ctx, id);
  const owner = pm.customer as string | null;
  if (!owner) throw domainError("The payment method you provided is not attached to a customer so detachment is impossible.", undefined, "payment_method");
  const c = ctx.store.get("customers", owner);
  const settings = (c?.invoice_settings ?? null) as Record<string, unknown> | null;
  if (c && settings?.default_payment_method === pm.id) ctx.store.update("customers", c.id, { ...c, invoice_settings: { ...settings, default_payment_method: null } });
  // Recorded under the customer it left, so the diff attributes the removal to that account.
  return ctx.store.update("payment_methods", pm.id, { ...pm, customer: null, detached_from: owner });
}

function attach(ctx: StripeContext, id: string, customer: string): StoredObject {
  const pm = requirePaymentMethod(ctx, id);
  if (!ctx.store.get("customers", customer)) throw noSuchParam("customer", customer, "customer");
  if (pm.customer) throw domainError("The payment method you provided has already been attached to a customer.", "payment_method_unexpected_state", "payment_method");
  if (pm.detached_from) throw domainError("This PaymentMethod was previously used without being attached to a Customer or was detached from a Customer, and may not be used again.", "payment_method_unexpected_state", "payment_method");
  return ctx.store.update("payment_methods", pm.id, { ...pm, customer });
}

/** The field recording a detachment stays internal: the API shows a detached card with customer null. */
function present(obj: StoredObject): StoredObject {
  if (obj.object !== "payment_method" || !("detached_from" in obj)) return obj;
  const { detached_from: _gone, ...rest } = obj;
  return rest as StoredObject;
}

export const paymentMethods: Resource = {
  type: "payment_methods",
  object: "payment_method",
  prefix: "pm",
  seed: seedPaymentMethods,
  expandable: ["customer"],
  present,
  routes: [
    route("GET", "/v1/payment_methods", listParams, (ctx, a) => {
      if (a.customer !== undefined) requireCustomer(ctx, a.customer);
      return listPaymentMethods(ctx, a, "/v1/payment_methods");
    }),
    route("GET", "/v1/payment_methods/:id", strict({}), (ctx, _a, p) => requirePaymentMethod(ctx, p.id)),
    route("POST", "/v1/payment_methods/:id", updateParams, (ctx, a, p) => updatePaymentMethod(ctx, p.id, a)),
    route("POST", "/v1/payment_methods/:id/detach", strict({}), (ctx, _a, p) => detach(ctx, p.id)),
    route("POST", "/v1/payment_methods/:id/attach", strict({ customer: str() }), (ctx, a, p) => attach(ctx, p.id, a.customer)),
    route("GET", "/v1/customers/:customer/payment_methods", customerListParams, (ctx, a, p) => {
      requireCustomer(ctx, p.customer);
      return listPaymentMethods(ctx, { ...a, customer: p.customer }, `/v1/customers/${p.customer}/payment_methods`);
    }),
    route("GET", "/v1/customers/:customer/payment_methods/:id", strict({}), (ctx, _a, p) => {
      requireCustomer(ctx, p.customer);
      const pm = ctx.store.get("payment_methods", p.id);
      if (!pm || pm.customer !== p.customer) throw noSuch("PaymentMethod", p.id, "payment_method");
      return pm;
    }),
  ],
};
