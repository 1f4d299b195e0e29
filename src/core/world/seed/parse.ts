// Seed parsing with errors that name the path of every problem, then the cross-references a world relies on.
import type { z } from "zod";
import { canonicalJson, sha256Hex } from "../../util/canonical";
import { describeTreeProblem, FILE_MAX_DEPTH, findTreeProblem } from "../../util/safe-tree";
import { seedDocument, type SeedDocument } from "./schema";

export interface SeedIssue {
  path: string;
  message: string;
}

export type SeedParseResult = { ok: true; seed: SeedDocument } | { ok: false; issues: SeedIssue[] };

export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = "";
  for (const p of path) out += typeof p === "number" ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out || "(document)";
}

export function zodIssues(error: z.ZodError, prefix: ReadonlyArray<PropertyKey> = []): SeedIssue[] {
  const out: SeedIssue[] = [];
  for (const i of error.issues) {
    if (i.code === "unrecognized_keys") {
      for (const k of i.keys) out.push({ path: formatPath([...prefix, ...i.path, k]), message: "unknown field" });
    } else out.push({ path: formatPath([...prefix, ...i.path]), message: i.message });
  }
  return out;
}

export function parseSeed(input: unknown): SeedParseResult {
  const unsafe = findTreeProblem(input, FILE_MAX_DEPTH);
  if (unsafe) return { ok: false, issues: [{ path: formatPath(unsafe.path), message: describeTreeProblem(unsafe, formatPath) }] };
  const parsed = seedDocument.safeParse(input);
  if (!parsed.success) return { ok: false, issues: zodIssues(parsed.error) };
  const issues = checkReferences(parsed.data);
  return issues.length ? { ok: false, issues } : { ok: true, seed: parsed.data };
}

/** Every reference must land on an object of the seed, and every id must be unique in its collection. */
export function checkReferences(seed: SeedDocument): SeedIssue[] {
  const d = seed.data;
  const issues: SeedIssue[] = [];
  const ids = (xs: Array<{ id: string | number }>, name: string) => {
    const set = new Set<string | number>();
    xs.forEach((x, i) => {
      if (set.has(x.id)) issues.push({ path: `data.${name}[${i}].id`, message: `duplicate id ${x.id}` });
      set.add(x.id);
    });
    return set;
  };
  const customers = ids(d.customers, "customers");
  const products = ids(d.products, "products");
  const prices = ids(d.prices, "prices");
  const subs = ids(d.subscriptions, "subscriptions");
  const invoices = ids(d.invoices, "invoices");
  const charges = ids(d.charges, "charges");
  const pis = ids(d.payment_intents, "payment_intents");
  ids(d.refunds, "refunds");
  ids(d.credit_notes, "credit_notes");
  ids(d.balance_transactions, "balance_transactions");
  ids(d.tickets, "tickets");
  const users = ids(d.users, "users");
  const orgs = ids(d.organizations ?? [], "organizations");
  const groups = ids(d.groups ?? [], "groups");
  ids(d.macros ?? [], "macros");
  ids(d.ticket_fields ?? [], "ticket_fields");
  ids(d.disputes ?? [], "disputes");
  const coupons = ids(d.coupons ?? [], "coupons");
  ids(d.promotion_codes ?? [], "promotion_codes");
  ids(d.tax_ids ?? [], "tax_ids");
  const ref = (set: Set<string | number>, v: string | number | null | undefined, path: string, what: string) => {
    if (v !== null && v !== undefined && !set.has(v)) issues.push({ path, message: `no ${what} ${v} in the seed` });
  };
  d.prices.forEach((p, i) => ref(products, p.product, `data.prices[${i}].product`, "product"));
  d.customers.forEach((c, i) => ref(coupons, c.coupon, `data.customers[${i}].coupon`, "coupon"));
  (d.coupons ?? []).forEach((c, i) => c.applies_to?.products.forEach((p, j) => ref(products, p, `data.coupons[${i}].applies_to.products[${j}]`, "product")));
  (d.promotion_codes ?? []).forEach((p, i) => {
    ref(coupons, p.coupon, `data.promotion_codes[${i}].coupon`, "coupon");
    ref(customers, p.customer, `data.promotion_codes[${i}].customer`, "customer");
  });
  (d.tax_ids ?? []).forEach((t, i) => ref(customers, t.customer, `data.tax_ids[${i}].customer`, "customer"));
  d.subscriptions.forEach((s, i) => {
    ref(customers, s.customer, `data.subscriptions[${i}].customer`, "customer");
    ref(invoices, s.latest_invoice, `data.subscriptions[${i}].latest_invoice`, "invoice");
    s.items.forEach((it, j) => ref(prices, it.price, `data.subscriptions[${i}].items[${j}].price`, "price"));
  });
  d.invoices.forEach((inv, i) => {
    ref(customers, inv.customer, `data.invoices[${i}].customer`, "customer");
    ref(subs, inv.subscription, `data.invoices[${i}].subscription`, "subscription");
    ref(charges, inv.charge, `data.invoices[${i}].charge`, "charge");
    ref(pis, inv.payment_intent, `data.invoices[${i}].payment_intent`, "payment intent");
    inv.lines.forEach((l, j) => ref(prices, l.price, `data.invoices[${i}].lines[${j}].price`, "price"));
  });
  d.charges.forEach((ch, i) => {
    ref(customers, ch.customer, `data.charges[${i}].customer`, "customer");
    ref(pis, ch.payment_intent, `data.charges[${i}].payment_intent`, "payment intent");
    ref(invoices, ch.invoice, `data.charges[${i}].invoice`, "invoice");
  });
  d.payment_intents.forEach((pi, i) => {
    ref(customers, pi.customer, `data.payment_intents[${i}].customer`, "customer");
    ref(charges, pi.latest_charge, `data.payment_intents[${i}].latest_charge`, "charge");
    ref(invoices, pi.invoice, `data.payment_intents[${i}].invoice`, "invoice");
  });
  d.refunds.forEach((r, i) => ref(charges, r.charge, `data.refunds[${i}].charge`, "charge"));
  d.credit_notes.forEach((cn, i) => {
    ref(invoices, cn.invoice, `data.credit_notes[${i}].invoice`, "invoice");
    ref(customers, cn.customer, `data.credit_notes[${i}].customer`, "customer");
  });
  d.balance_transactions.forEach((b, i) => ref(customers, b.customer, `data.balance_transactions[${i}].customer`, "customer"));
  const disputedCharges = new Set<string>();
  (d.disputes ?? []).forEach((du, i) => {
    const path = `data.disputes[${i}]`;
    const ch = d.charges.find((c) => c.id === du.charge);
    if (!ch) return ref(charges, du.charge, `${path}.charge`, "charge");
    // Only money that moved can be disputed, once per charge, and never more than was charged.
    if ((ch.status ?? "succeeded") !== "succeeded") issues.push({ path: `${path}.charge`, message: `charge ${ch.id} did not succeed, so it cannot be disputed` });
    if (disputedCharges.has(ch.id)) issues.push({ path: `${path}.charge`, message: `charge ${ch.id} already has a dispute in the seed` });
    disputedCharges.add(ch.id);
    if (du.amount !== undefined && du.amount > ch.amount) issues.push({ path: `${path}.amount`, message: `a dispute of ${du.amount} is more than charge ${ch.id}'s ${ch.amount}` });
    if (ch.disputed === false) issues.push({ path: `data.charges[${d.charges.indexOf(ch)}].disputed`, message: `charge ${ch.id} has dispute ${du.id}; leave disputed out or set it true` });
  });
  d.users.forEach((u, i) => ref(orgs, u.organization_id, `data.users[${i}].organization_id`, "organization"));
  (d.organizations ?? []).forEach((o, i) => ref(groups, o.group_id, `data.organizations[${i}].group_id`, "group"));
  (d.macros ?? []).forEach((m, i) =>
    m.actions.forEach((a, j) => {
      if (a.field === "group_id" && typeof a.value === "number") ref(groups, a.value, `data.macros[${i}].actions[${j}].value`, "group");
      if (a.field === "assignee_id" && typeof a.value === "number") ref(users, a.value, `data.macros[${i}].actions[${j}].value`, "user");
    }),
  );
  const commentIds = new Set<number>();
  d.tickets.forEach((t, i) => {
    ref(orgs, t.organization_id, `data.tickets[${i}].organization_id`, "organization");
    ref(groups, t.group_id, `data.tickets[${i}].group_id`, "group");
    ref(users, t.requester_id, `data.tickets[${i}].requester_id`, "user");
    ref(users, t.assignee_id, `data.tickets[${i}].assignee_id`, "user");
    if (t.requester_id === undefined && !t.requester) issues.push({ path: `data.tickets[${i}]`, message: "needs requester_id or requester" });
    (t.comments ?? []).forEach((c, j) => {
      ref(users, c.author_id, `data.tickets[${i}].comments[${j}].author_id`, "user");
      if (c.id === undefined) return;
      if (commentIds.has(c.id)) issues.push({ path: `data.tickets[${i}].comments[${j}].id`, message: `duplicate comment id ${c.id}` });
      commentIds.add(c.id);
    });
  });
  return issues;
}

/** The seed's identity: SHA-256 of its canonical JSON (key order and whitespace do not matter). */
export function seedHash(seed: SeedDocument): Promise<string> {
  return sha256Hex(canonicalJson(seed));
}
