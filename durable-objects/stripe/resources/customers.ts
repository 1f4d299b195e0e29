// Customers: create, retrieve (a deleted customer reads as its stub), update (metadata merge and unset,
// balance changes go through the ledger), delete (cancels live subscriptions), list by email, search.
import { z } from "zod";
import type { SeedDocument } from "../../../src/core/world/seed/schema";
import type { SeedContext, SeedRow } from "../../seed/rows";
import type { Store, StoredObject } from "../../store/store";
import { invalidParam, noSuch, noSuchParam, unknownParam } from "../errors";
import { paginate, embeddedList } from "../list";
import { applyMetadata, array, emptyable, int, listShape, metadata, oneOf, range, inRange, searchShape, str, strict, type MetadataParam } from "../params";
import { searchPage } from "../search";
import { route, type Resource, type StripeContext } from "../types";
import { applyBalanceChange } from "./customer-balance";
import { customerTaxIds } from "./tax-ids";
import { presentDiscount, seededCustomerDiscount, setCustomerDiscount } from "./discounts";
import { isPreBasil } from "../versions";
import { cancelSubscriptionNow } from "./subscriptions";

const address = () =>
  emptyable(strict({ city: str().optional(), country: str().optional(), line1: str().optional(), line2: str().optional(), postal_code: str().optional(), state: str().optional() }));
const shipping = () => emptyable(strict({ address: strict({ city: str().optional(), country: str().optional(), line1: str().optional(), line2: str().optional(), postal_code: str().optional(), state: str().optional() }), name: str(), phone: str().optional() }));
const invoiceSettings = () =>
  strict({
    default_payment_method: emptyable(str()).optional(),
    footer: emptyable(str()).optional(),
    custom_fields: emptyable(array(strict({ name: str(), value: str() }))).optional(),
  });

const writable = {
  address: address().optional(),
  balance: int().optional(),
  description: emptyable(str()).optional(),
  email: emptyable(str()).optional(),
  invoice_prefix: emptyable(str()).optional(),
  invoice_settings: invoiceSettings().optional(),
  metadata: metadata().optional(),
  name: emptyable(str()).optional(),
  next_invoice_sequence: int({ min: 1 }).optional(),
  phone: emptyable(str()).optional(),
  preferred_locales: emptyable(array(str())).optional(),
  shipping: shipping().optional(),
  tax_exempt: emptyable(oneOf(["none", "exempt", "reverse"])).optional(),
};
// coupon and promotion_code: accepted before 2025-03-31 only (withDiscount refuses them later, as the API does).
const discountParams = { coupon: str().optional(), promotion_code: str().optional() };
const createParams = strict({ ...writable, ...discountParams });
const updateParams = strict({ ...writable, ...discountParams, default_source: emptyable(str()).optional() });
type WritableArgs = z.output<typeof updateParams>;

function fullAddress(a: Record<string, string> | null | undefined): Record<string, string | null> | null {
  if (!a) return null;
  return { city: a.city ?? null, country: a.country ?? null, line1: a.line1 ?? null, line2: a.line2 ?? null, postal_code: a.postal_code ?? null, state: a.state ?? null };
}

/** A deterministic invoice prefix of the kind the API assigns (8 upper-case characters derived from the id). */
function invoicePrefix(id: string): string {
  const tail = id.slice(id.indexOf("_") + 1).replace(/[^A-Za-z0-9]/g, "").toUpperCase();
  return (tail + "XXXXXXXX").slice(0, 8);
}

export function customerShape(fields: Partial<StoredObject> & { id: string; created: number }): StoredObject {
  return {
    id: fields.id,
    object: "customer",
    address: fields.address ?? null,
    balance: fields.balance ?? 0,
    created: fields.created,
    currency: fields.currency ?? null,
    default_source: fields.default_source ?? null,
    delinquent: fields.delinquent ?? false,
    description: fields.description ?? null,
    discount: fields.discount ?? null,
    email: fields.email ?? null,
    invoice_prefix: fields.invoice_prefix ?? invoicePrefix(fields.id),
    invoice_settings: fields.invoice_settings ?? { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
    livemode: false,
    metadata: fields.metadata ?? {},
    name: fields.name ?? null,
    next_invoice_sequence: fields.next_invoice_sequence ?? 1,
    phone: fields.phone ?? null,
    preferred_locales: fields.preferred_locales ?? [],
    shipping: fields.shipping ?? null,
    tax_exempt: fields.tax_exempt ?? "none",
    test_clock: null,
  };
}

function seedCustomers(doc: SeedDocument, ctx: SeedContext): SeedRow[] {
  return doc.data.customers.map((c) => {
    const created = c.created ?? ctx.clock;
    const obj = customerShape({ ...c, created, currency: c.currency ?? (c.balance ? doc.currency : null), discount: seededCustomerDiscount(doc, c, ctx) });
    return { type: "customers", obj, customer: c.id, created };
  });
}

function checkEmail(email: string | null | undefined): void {
  if (email && !/^[^\s@]+@[^\s@]+$/.test(email)) throw invalidParam(`Invalid email address: ${email}`, "email", "email_invalid");
}

/** Applies the writable fields of a create/update to a customer document (balance excluded: it moves through the ledger). */
function applyWritable(c: StoredObject, a: WritableArgs): StoredObject {
  const next: StoredObject = { ...c };
  if (a.address !== undefined) next.address = fullAddress(a.address);
  if (a.description !== undefined) next.description = a.description;
  if (a.email !== undefined) next.email = a.email;
  if (a.invoice_prefix !== undefined) next.invoice_prefix = a.invoice_prefix ?? invoicePrefix(c.id);
  if (a.name !== undefined) next.name = a.name;
  if (a.next_invoice_sequence !== undefined) next.next_invoice_sequence = a.next_invoice_sequence;
  if (a.phone !== undefined) next.phone = a.phone;
  if (a.preferred_locales !== undefined) next.preferred_locales = a.preferred_locales ?? [];
  if (a.shipping !== undefined) next.shipping = a.shipping ? { address: fullAddress(a.shipping.address), name: a.shipping.name, phone: a.shipping.phone ?? null } : null;
  if (a.tax_exempt !== undefined) next.tax_exempt = a.tax_exempt ?? "none";
  if (a.default_source !== undefined) next.default_source = a.default_source;
  if (a.invoice_settings !== undefined) {
    const cur = (c.invoice_settings as Record<string, unknown>) ?? {};
    const s = a.invoice_settings;
    next.invoice_settings = {
      ...cur,
      ...(s.default_payment_method !== undefined ? { default_payment_method: s.default_payment_method } : {}),
      ...(s.footer !== undefined ? { footer: s.footer } : {}),
      ...(s.custom_fields !== undefined ? { custom_fields: s.custom_fields } : {}),
    };
  }
  next.metadata = applyMetadata(c.metadata as Record<string, string>, a.metadata as MetadataParam | undefined);
  return next;
}

export function createCustomer(store: Store, a: z.output<typeof createParams>): StoredObject {
  checkEmail(a.email);
  const id = store.newId("cus");
  const base = applyWritable(customerShape({ id, created: store.now() }), a);
  store.insert("customers", base, id);
  // A starting balance is recorded as the ledger's `initial` entry, keeping balance and ending_balance in step.
  if (a.balance) applyBalanceChange(store, { customer: id, amount: a.balance, currency: store.meta("currency") ?? "usd", type: "initial" });
  return store.get("customers", id)!;
}

export function updateCustomer(store: Store, id: string, a: WritableArgs): StoredObject {
  const c = store.get("customers", id);
  if (!c) throw noSuch("customer", id);
  checkEmail(a.email);
  checkDefaultPaymentMethod(store, id, a.invoice_settings?.default_payment_method);
  store.update("customers", id, applyWritable(c, a));
  if (a.balance !== undefined && a.balance !== Number(c.balance ?? 0)) {
    const currency = (c.currency as string | null) ?? store.meta("currency") ?? "usd";
    applyBalanceChange(store, { customer: id, amount: a.balance - Number(c.balance ?? 0), currency, type: "adjustment" });
  }
  return store.get("customers", id)!;
}

/** A default card must be one of the customer's own, as the real API requires. */
function checkDefaultPaymentMethod(store: Store, customer: string, pm: string | null | undefined): void {
  if (!pm) return;
  const param = "invoice_settings[default_payment_method]";
  const found = store.get("payment_methods", pm);
  if (!found) throw noSuchParam("PaymentMethod", pm, param);
  if (found.customer !== customer) throw invalidParam(`The customer does not have a payment method with the ID ${pm}. The payment method must be attached to the customer.`, param);
}

/** Deletes a customer; like the real API this immediately cancels the customer's live subscriptions. */
export function deleteCustomer(store: Store, id: string): StoredObject {
  const c = store.get("customers", id);
  if (!c) throw noSuch("customer", id);
  for (const sub of store.list("subscriptions", { customer: id }))
    if (sub.status !== "canceled" && sub.status !== "incomplete_expired") cancelSubscriptionNow(store, sub, { reason: "cancellation_requested" });
  const stub = { id, object: "customer", deleted: true };
  store.remove("customers", id, stub);
  return stub;
}

export function retrieveCustomer(store: Store, id: string): StoredObject {
  const c = store.get("customers", id, { includeDeleted: true });
  if (!c) throw noSuch("customer", id);
  return c;
}

/** The older versions' coupon / promotion_code on a customer write: a new discount replacing the old one. */
function withDiscount(ctx: StripeContext, a: { coupon?: string; promotion_code?: string }, write: () => StoredObject): StoredObject {
  const legacy = isPreBasil(ctx.apiVersion);
  for (const k of ["coupon", "promotion_code"] as const) if (!legacy && a[k] !== undefined) throw unknownParam(k);
  const c = write();
  if (a.coupon === undefined && a.promotion_code === undefined) return c;
  // An empty coupon removes the customer's discount.
  const spec = a.coupon === "" ? null : a.coupon !== undefined ? { coupon: a.coupon } : { promotion_code: a.promotion_code };
  setCustomerDiscount(ctx.store, c.id, spec, a.coupon !== undefined ? "coupon" : "promotion_code");
  return ctx.store.get("customers", c.id)!;
}

const listParams = strict({ ...listShape, email: str().optional(), created: range().optional(), test_clock: str().optional() });

function listCustomers(ctx: StripeContext, a: z.output<typeof listParams>) {
  const all = ctx.store.list("customers");
  const items = all.filter((c) => (a.email === undefined || c.email === a.email) && inRange(c.created, a.created) && (a.test_clock === undefined || c.test_clock === a.test_clock));
  return paginate(items, a, "/v1/customers", "customer", (id) => ctx.store.get("customers", id));
}

export const customers: Resource = {
  type: "customers",
  object: "customer",
  prefix: "cus",
  seed: seedCustomers,
  expandable: ["default_source", "discount.customer", "discount.promotion_code", "invoice_settings.default_payment_method", "test_clock"],
  present: (c, ctx) => (c.discount ? { ...c, discount: presentDiscount(c.discount as StoredObject, ctx) } : c),
  includable: {
    subscriptions: (c, ctx) =>
      embeddedList(ctx.store.list("subscriptions", { customer: c.id }).filter((s) => s.status !== "canceled"), `/v1/customers/${c.id}/subscriptions`),
    sources: (c) => embeddedList([], `/v1/customers/${c.id}/sources`),
    tax_ids: (c, ctx) => embeddedList(customerTaxIds(ctx.store, c.id), `/v1/customers/${c.id}/tax_ids`),
  },
  searchFields: {
    created: { kind: "number" },
    email: { kind: "string" },
    name: { kind: "string" },
    phone: { kind: "string" },
  },
  routes: [
    route("POST", "/v1/customers", createParams, (ctx, a) => withDiscount(ctx, a, () => createCustomer(ctx.store, a))),
    route("GET", "/v1/customers", listParams, listCustomers),
    route("GET", "/v1/customers/search", strict(searchShape), (ctx, a) =>
      searchPage(ctx.store.list("customers"), a, "/v1/customers/search", customers.searchFields!, "customer"),
    ),
    route("GET", "/v1/customers/:id", strict({}), (ctx, _a, p) => retrieveCustomer(ctx.store, p.id)),
    route("POST", "/v1/customers/:id", updateParams, (ctx, a, p) => withDiscount(ctx, a, () => updateCustomer(ctx.store, p.id, a))),
    route("DELETE", "/v1/customers/:id", strict({}), (ctx, _a, p) => deleteCustomer(ctx.store, p.id)),
  ],
};
