// Invoices: retrieve, list (customer, status, subscription...), search, lines, and the state machine's
// actions (finalize, pay, void, mark_uncollectible) in money/invoice-actions.ts; metadata/draft updates and
// draft deletion; invoice payments (GET /v1/invoice_payments), which live inside their invoices. Stored in the current shape; money/invoice-present.ts shows older API versions theirs.
import type { z } from "zod";
import type { StoredObject } from "../../store/store";
import { domainError, noSuch } from "../errors";
import { embeddedList, paginate } from "../list";
import { applyMetadata, bool, emptyable, inRange, int, listShape, metadata, oneOf, range, searchShape, str, strict, type MetadataParam } from "../params";
import { searchPage } from "../search";
import { route, type Resource, type StripeContext } from "../types";
import { BASIL, versionBefore } from "../versions";
import { finalizeInvoice, markUncollectible, payInvoice, voidInvoice } from "./money/invoice-actions";
import type { InvoiceDoc, InvoicePaymentDoc } from "./money/invoice-math";
import { paymentIntentOf } from "./money/links";
import { legacyLine, presentInvoice } from "./money/invoice-present";
import { seedInvoices } from "./money/invoice-seed";
import { invoiceDraftRoutes } from "./invoice-drafts";
import { invoicePreviewRoutes } from "./invoice-previews";

export const INVOICE_STATUSES = ["draft", "open", "paid", "uncollectible", "void"] as const;

/** The invoice in the path; `param` is how the endpoint names it in a 404 (reads say invoice, actions id). */
export function requireInvoice(ctx: StripeContext, id: string, param = "invoice"): InvoiceDoc {
  const inv = ctx.store.get<InvoiceDoc>("invoices", id);
  if (!inv) throw noSuch("invoice", id, param);
  return inv;
}

const subscriptionOf = (o: StoredObject) => (o as InvoiceDoc).parent?.subscription_details?.subscription ?? null;

const listParams = strict({
  ...listShape,
  customer: str().optional(),
  status: oneOf(INVOICE_STATUSES).optional(),
  subscription: str().optional(),
  collection_method: oneOf(["charge_automatically", "send_invoice"]).optional(),
  created: range().optional(),
  due_date: range().optional(),
  test_clock: str().optional(),
});

function listInvoices(ctx: StripeContext, a: z.output<typeof listParams>) {
  const base = a.customer !== undefined ? ctx.store.list("invoices", { customer: a.customer }) : ctx.store.list("invoices");
  const items = base.filter(
    (i) =>
      (a.status === undefined || i.status === a.status) &&
      (a.subscription === undefined || subscriptionOf(i) === a.subscription) &&
      (a.collection_method === undefined || i.collection_method === a.collection_method) &&
      (a.test_clock === undefined || i.test_clock === a.test_clock) &&
      inRange(i.created, a.created) &&
      (a.due_date === undefined || inRange(i.due_date, a.due_date)),
  );
  return paginate(items, a, "/v1/invoices", "invoice", (id) => ctx.store.get("invoices", id));
}

function listLines(ctx: StripeContext, a: z.output<typeof linesParams>, id: string) {
  const inv = requireInvoice(ctx, id);
  const legacy = versionBefore(ctx.apiVersion, BASIL);
  const lines = inv.lines.data.map((l) => (legacy ? legacyLine(l, ctx.store) : l));
  return paginate(lines, a, `/v1/invoices/${id}/lines`, "invoice line item", (lid) => lines.find((l) => l.id === lid) ?? null);
}
const linesParams = strict({ ...listShape });

const updateParams = strict({
  metadata: metadata().optional(),
  description: emptyable(str()).optional(),
  footer: emptyable(str()).optional(),
  auto_advance: bool().optional(),
  due_date: int().optional(),
  days_until_due: int({ min: 0 }).optional(),
  collection_method: oneOf(["charge_automatically", "send_invoice"]).optional(),
});

function updateInvoice(ctx: StripeContext, id: string, a: z.output<typeof updateParams>): InvoiceDoc {
  const inv = requireInvoice(ctx, id, "id");
  const { metadata: meta, auto_advance, ...fields } = a;
  const changed = Object.keys(fields).filter((k) => fields[k as keyof typeof fields] !== undefined);
  // Once finalized, an invoice's contents are fixed: only metadata and auto_advance may still change.
  if (inv.status !== "draft" && changed.length) throw domainError("Finalized invoices can't be updated in this way", "invoice_not_editable", changed.sort()[0]);
  const next: InvoiceDoc = { ...inv, metadata: applyMetadata(inv.metadata as Record<string, string>, meta as MetadataParam | undefined) };
  if (auto_advance !== undefined) next.auto_advance = auto_advance;
  if (a.description !== undefined) next.description = a.description;
  if (a.footer !== undefined) next.footer = a.footer;
  if (a.collection_method !== undefined) next.collection_method = a.collection_method;
  if (a.due_date !== undefined) next.due_date = a.due_date;
  if (a.days_until_due !== undefined) next.due_date = (inv.created as number) + a.days_until_due * 86_400;
  return ctx.store.update("invoices", id, next);
}

function deleteInvoice(ctx: StripeContext, id: string): StoredObject {
  const inv = requireInvoice(ctx, id);
  if (inv.status !== "draft") throw domainError("You can only delete draft invoices.", "invoice_not_editable");
  const stub = { id, object: "invoice", deleted: true };
  ctx.store.remove("invoices", id, stub);
  return stub;
}

const paymentListParams = strict({
  ...listShape,
  invoice: str().optional(),
  status: oneOf(["canceled", "open", "paid"]).optional(),
  payment: strict({ type: oneOf(["payment_intent", "payment_record"]), payment_intent: str().optional(), payment_record: str().optional() }).optional(),
  created: range().optional(),
});

/** Invoice payments live inside their invoice; these read them across invoices, newest first. */
function allPayments(ctx: StripeContext, invoice?: string): InvoicePaymentDoc[] {
  const invs = invoice !== undefined ? [ctx.store.get<InvoiceDoc>("invoices", invoice)].filter((x): x is InvoiceDoc => x !== null) : ctx.store.list<InvoiceDoc>("invoices");
  return invs.flatMap((i) => i.payments?.data ?? []).sort((a, b) => (b.created as number) - (a.created as number));
}

function listPayments(ctx: StripeContext, a: z.output<typeof paymentListParams>) {
  const items = allPayments(ctx, a.invoice).filter(
    (p) =>
      (a.status === undefined || p.status === a.status) &&
      inRange(p.created, a.created) &&
      (a.payment === undefined || (p.payment.type === a.payment.type && (a.payment.payment_intent === undefined || paymentIntentOf(p) === a.payment.payment_intent))),
  );
  return paginate(items, a, "/v1/invoice_payments", "invoice_payment", (id) => items.find((p) => p.id === id) ?? null);
}

const payParams = strict({
  paid_out_of_band: bool().optional(),
  forgive: bool().optional(),
  off_session: bool().optional(),
  payment_method: str().optional(),
  source: str().optional(),
  mandate: emptyable(str()).optional(),
});

export const invoices: Resource = {
  type: "invoices",
  object: "invoice",
  prefix: "in",
  seed: seedInvoices,
  expandable: [
    "customer",
    "default_payment_method",
    "default_source",
    "discounts",
    "latest_revision",
    "test_clock",
    "on_behalf_of",
    "parent.subscription_details.subscription",
    // pre-2025-03-31 fields
    "charge",
    "payment_intent",
    "subscription",
  ],
  includable: {
    payments: (obj, ctx) => {
      const stored = ctx.store.get<InvoiceDoc>("invoices", obj.id);
      return embeddedList(stored?.payments?.data ?? [], `/v1/invoice_payments?invoice=${obj.id}`);
    },
  },
  searchFields: {
    created: { kind: "number" },
    currency: { kind: "token" },
    customer: { kind: "token" },
    number: { kind: "string" },
    status: { kind: "token" },
    subscription: { kind: "token", get: subscriptionOf },
    total: { kind: "number" },
  },
  present: presentInvoice,
  routes: [
    route("GET", "/v1/invoices", listParams, listInvoices),
    route("GET", "/v1/invoice_payments", paymentListParams, listPayments),
    route("GET", "/v1/invoice_payments/:id", strict({}), (ctx, _a, p) => {
      const found = allPayments(ctx).find((x) => x.id === p.id);
      if (!found) throw noSuch("invoice_payment", p.id);
      return found;
    }),
    ...invoicePreviewRoutes,
    ...invoiceDraftRoutes,
    route("GET", "/v1/invoices/search", strict(searchShape), (ctx, a) => searchPage(ctx.store.list("invoices"), a, "/v1/invoices/search", invoices.searchFields!, "invoice")),
    route("GET", "/v1/invoices/:id", strict({}), (ctx, _a, p) => requireInvoice(ctx, p.id)),
    route("POST", "/v1/invoices/:id", updateParams, (ctx, a, p) => updateInvoice(ctx, p.id, a)),
    route("DELETE", "/v1/invoices/:id", strict({}), (ctx, _a, p) => deleteInvoice(ctx, p.id)),
    route("GET", "/v1/invoices/:id/lines", linesParams, (ctx, a, p) => listLines(ctx, a, p.id)),
    route("POST", "/v1/invoices/:id/finalize", strict({ auto_advance: bool().optional() }), (ctx, a, p) => finalizeInvoice(ctx.store, requireInvoice(ctx, p.id, "id"), a)),
    route("POST", "/v1/invoices/:id/pay", payParams, (ctx, a, p) => payInvoice(ctx.store, requireInvoice(ctx, p.id, "id"), a)),
    route("POST", "/v1/invoices/:id/void", strict({}), (ctx, _a, p) => voidInvoice(ctx.store, requireInvoice(ctx, p.id, "id"))),
    route("POST", "/v1/invoices/:id/mark_uncollectible", strict({}), (ctx, _a, p) => markUncollectible(ctx.store, requireInvoice(ctx, p.id, "id"))),
  ],
};
