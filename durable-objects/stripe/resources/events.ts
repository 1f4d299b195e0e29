// Events: the world's own change log read back as the billing API's events. Every write the twin records is
// one event with the real type name (customer.updated, charge.refunded, invoice.paid...), the object as it
// stood after the write (before it, for a deletion) in the world's API version, and for updates the previous
// values of what changed. Nothing is stored: ids follow from the change's sequence number and the seed, the
// time is the world's fixed clock, so the same writes always read back as the same events. Writes with no
// event of their own in the API (a customer balance transaction, an invoice item edit) have none here either.
import type { z } from "zod";
import type { ChangeRecord } from "../../../src/core/world/diff/types";
import { deterministicId } from "../../store/ids";
import type { StoredObject } from "../../store/store";
import { invalidParam, noSuch } from "../errors";
import { paginate } from "../list";
import { array, bool, inRange, listShape, range, str, strict } from "../params";
import { route, type Resource, type StripeContext } from "../types";
import { CURRENT_API_VERSION } from "../versions";

type Doc = Record<string, unknown>;
type Namer = (op: "created" | "updated" | "deleted", before: Doc | null, after: Doc | null) => string | null;

const changed = (b: Doc | null, a: Doc | null, field: string, to?: unknown) =>
  !!b && !!a && JSON.stringify(b[field]) !== JSON.stringify(a[field]) && (to === undefined || a[field] === to);

/** create / update / delete named `<object>.<op>`, with updates possibly more specific. */
const plain = (object: string, update?: (b: Doc, a: Doc) => string | null, ops: Array<"created" | "updated" | "deleted"> = ["created", "updated", "deleted"]): Namer => (op, b, a) => {
  if (!ops.includes(op)) return null;
  if (op === "updated" && update && b && a) return update(b, a);
  return `${object}.${op}`;
};

const INVOICE_STATUS: Record<string, string> = { open: "invoice.finalized", paid: "invoice.paid", void: "invoice.voided", uncollectible: "invoice.marked_uncollectible" };

const NAMES: Record<string, Namer> = {
  customers: plain("customer"),
  products: plain("product"),
  prices: plain("price"),
  coupons: plain("coupon"),
  promotion_codes: plain("promotion_code", undefined, ["created", "updated"]),
  discounts: plain("customer.discount"),
  tax_ids: plain("customer.tax_id"),
  invoice_items: plain("invoiceitem", () => null, ["created", "deleted"]),
  refunds: plain("refund", undefined, ["created", "updated"]),
  subscriptions: (op, b, a) => {
    if (op === "created") return "customer.subscription.created";
    if (op === "deleted" || changed(b, a, "status", "canceled")) return "customer.subscription.deleted";
    if (changed(b, a, "status", "paused")) return "customer.subscription.paused";
    if (b?.status === "paused" && changed(b, a, "status")) return "customer.subscription.resumed";
    return "customer.subscription.updated";
  },
  invoices: plain("invoice", (b, a) => (changed(b, a, "status") ? (INVOICE_STATUS[String(a.status)] ?? "invoice.updated") : "invoice.updated")),
  charges: (op, b, a) => {
    if (op === "created") return a?.status === "failed" ? "charge.failed" : a?.status === "pending" ? "charge.pending" : "charge.succeeded";
    if (op === "deleted") return null;
    return Number(a?.amount_refunded ?? 0) > Number(b?.amount_refunded ?? 0) ? "charge.refunded" : "charge.updated";
  },
  payment_intents: (op, b, a) => {
    if (op === "created") return "payment_intent.created";
    if (changed(b, a, "status", "succeeded")) return "payment_intent.succeeded";
    if (changed(b, a, "status", "canceled")) return "payment_intent.canceled";
    if (changed(b, a, "status", "requires_payment_method")) return "payment_intent.payment_failed";
    // The API has no generic payment_intent.updated event.
    return null;
  },
  credit_notes: plain("credit_note", (b, a) => (changed(b, a, "status", "void") ? "credit_note.voided" : "credit_note.updated"), ["created", "updated"]),
  disputes: plain("charge.dispute", (b, a) => (changed(b, a, "status") && ["won", "lost", "prevented"].includes(String(a.status)) ? "charge.dispute.closed" : "charge.dispute.updated"), ["created", "updated"]),
  payment_methods: (op, b, a) => {
    if (op !== "updated" || !b || !a) return op === "created" && a?.customer ? "payment_method.attached" : null;
    if (changed(b, a, "customer")) return a.customer ? "payment_method.attached" : "payment_method.detached";
    return "payment_method.updated";
  },
};

/** The previous values of what an update changed: nested hashes down to the keys that differ. */
function previous(b: Doc, a: Doc, depth = 0): Doc {
  const out: Doc = {};
  for (const k of new Set([...Object.keys(b), ...Object.keys(a)])) {
    if (JSON.stringify(b[k]) === JSON.stringify(a[k])) continue;
    const bv = b[k];
    const av = a[k];
    const hash = (v: unknown) => !!v && typeof v === "object" && !Array.isArray(v);
    out[k] = depth < 3 && hash(bv) && hash(av) ? previous(bv as Doc, av as Doc, depth + 1) : (bv ?? null);
  }
  return out;
}

function eventOf(c: ChangeRecord, seedHash: string, created: number, version: string, ctx: StripeContext): StoredObject | null {
  const op = c.before === null ? "created" : c.after === null ? "deleted" : "updated";
  const type = NAMES[c.type]?.(op, c.before, c.after);
  if (!type) return null;
  const obj = (op === "deleted" ? c.before : c.after) as StoredObject;
  const data: Doc = { object: ctx.present(obj, version) };
  if (op === "updated") data.previous_attributes = previous(c.before!, c.after!);
  return {
    id: deterministicId("evt", `${seedHash}#events`, c.seq),
    object: "event",
    api_version: version,
    created,
    data,
    livemode: false,
    pending_webhooks: 0,
    request: { id: c.request_id, idempotency_key: null },
    type,
  };
}

/** Every event of the world, newest first. */
function allEvents(ctx: StripeContext): StoredObject[] {
  const store = ctx.store;
  const version = store.meta("stripe_version") || CURRENT_API_VERSION;
  const seed = store.meta("seed_hash") ?? "";
  const now = store.now();
  const out: StoredObject[] = [];
  const changes = store.changes();
  for (let i = changes.length - 1; i >= 0; i--) {
    const e = eventOf(changes[i], seed, now, version, ctx);
    if (e) out.push(e);
  }
  return out;
}

/** `customer.*` matches every customer event, as the API's type filter allows. */
function typeMatches(type: string, pattern: string): boolean {
  return pattern.endsWith(".*") ? type.startsWith(pattern.slice(0, -1)) : type === pattern;
}

const listParams = strict({
  ...listShape,
  type: str().optional(),
  types: array(str()).optional(),
  created: range().optional(),
  delivery_success: bool().optional(),
});

function listEvents(ctx: StripeContext, a: z.output<typeof listParams>) {
  if (a.type !== undefined && a.types !== undefined) throw invalidParam("You may only specify one of these parameters: type, types.", "types", "parameters_exclusive");
  if (a.types && a.types.length > 20) throw invalidParam("types may list at most 20 event types.", "types");
  const patterns = a.type !== undefined ? [a.type] : a.types;
  const all = allEvents(ctx);
  // No webhook endpoint exists in a world: nothing is pending or failed, so every event counts as delivered.
  const items = all.filter((e) => (!patterns || patterns.some((p) => typeMatches(String(e.type), p))) && inRange(e.created, a.created) && a.delivery_success !== false);
  return paginate(items, a, "/v1/events", "event", (id) => all.find((e) => e.id === id) ?? null);
}

export const events: Resource = {
  object: "event",
  prefix: "evt",
  find: (id, ctx) => allEvents(ctx).find((e) => e.id === id) ?? null,
  routes: [
    route("GET", "/v1/events", listParams, listEvents),
    route("GET", "/v1/events/:id", strict({}), (ctx, _a, p) => {
      const e = allEvents(ctx).find((x) => x.id === p.id);
      if (!e) throw noSuch("event", p.id);
      return e;
    }),
  ],
};
