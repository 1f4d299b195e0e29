// The bundled acme-small seed: it parses, it has the cast the twin's tests and the starter tasks rely on, and its
// money adds up the way the billing system would have recorded it.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseSeed } from "../../src/core/world/seed/parse";
import type { SeedDocument } from "../../src/core/world/seed/schema";

const raw: unknown = JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "seeds", "acme-small.json"), "utf8"));
const parsed = parseSeed(raw);
if (!parsed.ok) throw new Error(`acme-small does not parse: ${JSON.stringify(parsed.issues, null, 2)}`);
const seed: SeedDocument = parsed.seed;
const d = seed.data;
const clock = Math.floor(Date.parse(seed.clock) / 1000);
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** What the invoice asks for: its lines, less any credit balance it started with (never below zero). */
function amountDue(inv: (typeof d.invoices)[number]): number {
  return Math.max(0, sum(inv.lines.map((l) => l.amount)) + (inv.starting_balance ?? 0));
}

describe("seeds/acme-small.json", () => {
  it("parses with no issues and a fixed clock", () => {
    expect(parsed.ok).toBe(true);
    expect(seed.clock).toBe("2026-09-15T12:00:00Z");
  });

  it("has about 15 customers with pseudonymous example.com emails, two sharing one billing email", () => {
    expect(d.customers).toHaveLength(15);
    for (const c of d.customers) expect(c.email).toMatch(/@example\.com$/);
    const byEmail = new Map<string, string[]>();
    for (const c of d.customers) byEmail.set(c.email!, [...(byEmail.get(c.email!) ?? []), c.id]);
    const shared = [...byEmail.values()].filter((ids) => ids.length > 1);
    expect(shared).toHaveLength(1);
    expect(shared[0]).toHaveLength(2);
    for (const u of d.users) expect(u.email).toMatch(/@example\.com$/);
  });

  it("sells Starter, Growth and Scale monthly and yearly, each price with a nickname", () => {
    for (const plan of ["Starter", "Growth", "Scale"]) {
      const product = d.products.find((p) => p.name.endsWith(plan));
      expect(product, plan).toBeDefined();
      const prices = d.prices.filter((p) => p.product === product!.id && p.active !== false);
      expect(prices.map((p) => p.recurring?.interval).sort(), plan).toEqual(["month", "year"]);
      for (const p of prices) expect(p.nickname, p.id).toMatch(new RegExp(`^${plan} (monthly|yearly)$`));
    }
  });

  it("has subscriptions in every state a support agent meets", () => {
    const statuses = new Set(d.subscriptions.map((s) => s.status));
    for (const s of ["active", "trialing", "past_due", "canceled"] as const) expect(statuses.has(s), s).toBe(true);
    const ending = d.subscriptions.filter((s) => s.cancel_at_period_end);
    expect(ending).toHaveLength(1);
    expect(ending[0].status).toBe("active");
    expect(ending[0].cancel_at).toBe(ending[0].items[0].current_period_end);
    expect(ending[0].canceled_at).toBeLessThanOrEqual(clock);
    for (const s of d.subscriptions) {
      const it0 = s.items[0];
      const price = d.prices.find((p) => p.id === it0.price)!;
      expect(price.recurring, s.id).not.toBeNull();
      expect(it0.current_period_start, s.id).toBeLessThan(it0.current_period_end);
      if (s.status === "canceled") expect(s.ended_at, s.id).not.toBeNull();
      if (s.status === "trialing") expect(s.trial_end, s.id).toBeGreaterThan(clock);
      if (s.status !== "canceled") expect(it0.current_period_end, s.id).toBeGreaterThan(clock);
      if (s.latest_invoice) expect(d.invoices.find((i) => i.id === s.latest_invoice)!.subscription, s.id).toBe(s.id);
    }
  });

  it("has invoices in every status whose totals, payments and state timestamps agree", () => {
    expect(new Set(d.invoices.map((i) => i.status))).toEqual(new Set(["draft", "open", "paid", "void", "uncollectible"]));
    for (const inv of d.invoices) {
      const due = amountDue(inv);
      if (inv.status === "paid") {
        expect(inv.amount_paid, inv.id).toBe(due);
        expect(inv.paid_at, inv.id).not.toBeNull();
      } else expect(inv.amount_paid ?? 0, inv.id).toBe(0);
      expect(inv.number === null || inv.number === undefined, inv.id).toBe(inv.status === "draft");
      if (inv.status === "void") expect(inv.voided_at, inv.id).not.toBeNull();
      if (inv.status === "uncollectible") expect(inv.marked_uncollectible_at, inv.id).not.toBeNull();
      // The charge that paid an invoice is for exactly what it asked.
      if (inv.charge) {
        const ch = d.charges.find((c) => c.id === inv.charge)!;
        expect(ch.amount, inv.id).toBe(due);
        expect(ch.invoice, inv.id).toBe(inv.id);
        expect(ch.customer, inv.id).toBe(inv.customer);
        expect(ch.status === "succeeded", inv.id).toBe(inv.status === "paid");
      } else if (inv.status === "paid") expect(due, inv.id).toBe(0);
    }
  });

  it("refunds add up on every charge: a partial, a full, and never more than the charge", () => {
    for (const ch of d.charges) {
      const refunded = sum(d.refunds.filter((r) => r.charge === ch.id).map((r) => r.amount));
      expect(ch.amount_refunded ?? 0, ch.id).toBe(refunded);
      expect(refunded, ch.id).toBeLessThanOrEqual(ch.amount);
      if (refunded > 0) expect(ch.status, ch.id).toBe("succeeded");
    }
    const full = d.charges.filter((c) => (c.amount_refunded ?? 0) === c.amount);
    const partial = d.charges.filter((c) => (c.amount_refunded ?? 0) > 0 && (c.amount_refunded ?? 0) < c.amount);
    expect(full).toHaveLength(1);
    expect(partial).toHaveLength(1);
  });

  it("has a duplicated pair: two succeeded charges for one customer, same amount, within the hour", () => {
    const ok = d.charges.filter((c) => c.status === "succeeded");
    const pairs = ok.flatMap((a, i) => ok.slice(i + 1).filter((b) => b.customer === a.customer && b.amount === a.amount && Math.abs((b.created ?? 0) - (a.created ?? 0)) <= 3600).map((b) => [a.id, b.id]));
    expect(pairs).toHaveLength(1);
  });

  it("links every charge to a payment intent that agrees with it", () => {
    for (const ch of d.charges) {
      const pi = d.payment_intents.find((p) => p.id === ch.payment_intent);
      expect(pi, ch.id).toBeDefined();
      expect(pi!.latest_charge, ch.id).toBe(ch.id);
      expect(pi!.amount, ch.id).toBe(ch.amount);
      expect(pi!.customer, ch.id).toBe(ch.customer);
      expect(pi!.status === "succeeded", ch.id).toBe(ch.status === "succeeded");
      expect(pi!.amount_received, ch.id).toBe(ch.status === "succeeded" ? ch.amount : 0);
      if (ch.status === "failed") expect(ch.failure_code, ch.id).toBeTruthy();
    }
  });

  it("has a credit note whose lines equal its credit/refund split, backed by the balance transaction", () => {
    expect(d.credit_notes.length).toBeGreaterThanOrEqual(1);
    for (const cn of d.credit_notes) {
      const total = sum(cn.lines.map((l) => l.amount));
      expect((cn.credit_amount ?? 0) + (cn.refund_amount ?? 0) + (cn.out_of_band_amount ?? 0), cn.id).toBe(total);
      const inv = d.invoices.find((i) => i.id === cn.invoice)!;
      expect(["paid", "open"]).toContain(inv.status);
      expect(total, cn.id).toBeLessThanOrEqual(amountDue(inv));
      if (cn.credit_amount) {
        const bt = d.balance_transactions.find((b) => b.id === cn.customer_balance_transaction)!;
        expect(bt, cn.id).toMatchObject({ type: "credit_note", amount: -cn.credit_amount, credit_note: cn.id, customer: inv.customer });
      }
    }
  });

  it("keeps every customer's balance equal to its balance transactions, with running ending balances", () => {
    for (const c of d.customers) {
      const txns = d.balance_transactions.filter((b) => b.customer === c.id).sort((a, b) => (a.created ?? 0) - (b.created ?? 0));
      let running = 0;
      for (const t of txns) {
        running += t.amount;
        expect(t.ending_balance, t.id).toBe(running);
      }
      expect(c.balance ?? 0, c.id).toBe(running);
    }
    // A credit used by an invoice shows on both sides.
    for (const b of d.balance_transactions.filter((x) => x.type === "applied_to_invoice")) {
      const inv = d.invoices.find((i) => i.id === b.invoice)!;
      expect(inv.starting_balance, b.id).toBe(-b.amount);
    }
  });

  it("has 6 tickets from customers, each requester a user whose email is a billing customer's", () => {
    expect(d.tickets).toHaveLength(6);
    const emails = new Set(d.customers.map((c) => c.email));
    for (const t of d.tickets) {
      const u = d.users.find((x) => x.id === t.requester_id);
      expect(u, String(t.id)).toBeDefined();
      expect(emails.has(u!.email), String(t.id)).toBe(true);
      expect(Date.parse(t.created_at!) / 1000, String(t.id)).toBeLessThanOrEqual(clock);
    }
    expect(d.users.filter((u) => u.role === "agent")).toHaveLength(1);
    // One ticket comes from the billing email two customers share.
    const sharedEmail = d.customers.find((c, i) => d.customers.findIndex((x) => x.email === c.email) !== i)!.email;
    expect(d.tickets.some((t) => d.users.find((u) => u.id === t.requester_id)!.email === sharedEmail)).toBe(true);
  });

  it("dates nothing after the world clock", () => {
    const stamps: Array<[string, number | null | undefined]> = [];
    for (const [name, xs] of Object.entries(d) as Array<[string, Array<Record<string, unknown>>]>)
      for (const x of xs) stamps.push([`${name}:${String(x.id)}`, x.created as number | undefined]);
    for (const [where, t] of stamps) if (typeof t === "number") expect(t, where).toBeLessThanOrEqual(clock);
  });
});
