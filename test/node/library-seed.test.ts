// The starter library's seed and rubric as committed: a valid, internally consistent account whose every
// ticket is keyed, and the seed the server serves by name.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { consistencyProblems } from "../../scripts/seeds-gen/consistency.mjs";
import { rubricDocument } from "../../src/core/rubric/schema";
import { parseSeed, seedHash } from "../../src/core/world/seed/parse";
import { BUNDLED_SEEDS } from "../../src/seeds/bundled";

const root = join(import.meta.dirname, "..", "..");
const seedJson = JSON.parse(readFileSync(join(root, "seeds", "acme-prod-library.json"), "utf8"));
const rubricJson = JSON.parse(readFileSync(join(root, "rubrics", "acme-prod-library.json"), "utf8"));

describe("acme-prod-library seed", () => {
  const parsed = parseSeed(seedJson);

  it("passes parseSeed with every reference resolved", () => {
    expect(parsed.ok ? [] : parsed.issues).toEqual([]);
  });

  it("keeps money and time consistent (refunds, invoice totals, payments, balances, periods)", () => {
    expect(consistencyProblems(seedJson)).toEqual([]);
  });

  it("catches an inconsistency when one is introduced", () => {
    const broken = structuredClone(seedJson);
    const paid = broken.data.invoices.find((i: { status: string; amount_paid: number }) => i.status === "paid" && i.amount_paid > 0);
    paid.lines[0].amount += 100;
    const ch = broken.data.charges.find((c: { amount_refunded: number }) => c.amount_refunded > 0);
    ch.amount_refunded += 1;
    const problems = consistencyProblems(broken);
    expect(problems.some((p) => p.includes(paid.id))).toBe(true);
    expect(problems.some((p) => p.includes(ch.id))).toBe(true);
  });

  it("is a realistic account: a cast of 200+, every subscription state, a year of billing", () => {
    const d = seedJson.data;
    expect(d.customers.length).toBeGreaterThanOrEqual(200);
    for (const c of d.customers) expect(c.email).toMatch(/@example\.com$/);
    const statuses = new Set(d.subscriptions.map((s: { status: string }) => s.status));
    for (const s of ["active", "trialing", "past_due", "unpaid", "canceled", "paused", "incomplete", "incomplete_expired"]) expect(statuses).toContain(s);
    expect(d.subscriptions.some((s: { cancel_at_period_end: boolean }) => s.cancel_at_period_end)).toBe(true);
    const nicknames = d.prices.filter((p: { recurring: unknown }) => p.recurring).map((p: { nickname: string }) => p.nickname);
    for (const plan of ["Starter", "Growth", "Scale"]) for (const every of ["monthly", "yearly"]) expect(nicknames).toContain(`${plan} ${every}`);
    const clock = Date.parse(seedJson.clock) / 1000;
    const oldest = Math.min(...d.charges.map((c: { created: number }) => c.created));
    expect(clock - oldest).toBeGreaterThan(330 * 86400);
    expect(d.credit_notes.length).toBeGreaterThan(0);
    expect(d.balance_transactions.length).toBeGreaterThan(0);
    expect(d.refunds.length).toBeGreaterThan(0);
    const byEmail = new Map<string, number>();
    for (const c of d.customers) byEmail.set(c.email, (byEmail.get(c.email) ?? 0) + 1);
    expect([...byEmail.values()].filter((n) => n > 1).length).toBeGreaterThanOrEqual(3);
    expect(d.customers.some((c: { metadata?: { parent_company?: string } }) => c.metadata?.parent_company)).toBe(true);
  });

  it("holds the benchmark inbox as tickets 1-30, then at least 60 library cases, oldest first", () => {
    const ids = seedJson.data.tickets.map((t: { id: number }) => t.id);
    expect(ids.slice(0, 30)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(ids.length).toBeGreaterThanOrEqual(90);
    const times = seedJson.data.tickets.map((t: { created_at: string }) => Date.parse(t.created_at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(Math.max(...times)).toBeLessThan(Date.parse(seedJson.clock));
  });

  it("is bundled so the server serves it by name", () => {
    expect(BUNDLED_SEEDS["acme-prod-library"]).toEqual(seedJson);
  });
});

describe("acme-prod-library rubric", () => {
  const rubric = rubricDocument.parse(rubricJson);

  it("keys every ticket of the seed, in order, against this exact seed", async () => {
    const parsed = parseSeed(seedJson);
    if (!parsed.ok) throw new Error("seed does not parse");
    expect(rubric.seed).toEqual({ name: "acme-prod-library", hash: await seedHash(parsed.seed) });
    expect(rubric.tickets.map((t) => t.id)).toEqual(seedJson.data.tickets.map((t: { id: number }) => t.id));
    for (const t of rubric.tickets) {
      const ticket = seedJson.data.tickets[t.id - 1];
      expect(t.subject).toBe(ticket.subject);
      expect(t.label).toBe(ticket.external_id);
      expect(t.claim).not.toBe("policy");
      expect(t.expect).not.toBeNull();
      expect(t.trap_class).toBeTruthy();
    }
  });

  it("runs as one shift with the invariants and a day credit budget the keys fit in", () => {
    expect(rubric.mode).toBe("shift");
    expect(rubric.invariants).toEqual(["deleted.customers==0", "created.subscriptions==0"]);
    const credits = rubric.tickets.filter((t) => t.expect?.action === "credit");
    const total = credits.reduce((s, t) => s + (t.expect?.amount ?? 0), 0);
    expect(rubric.budget?.credits_total_max).toBeGreaterThanOrEqual(total);
    expect(rubric.budget?.credits_count_max).toBeGreaterThanOrEqual(credits.length);
    expect(rubric.plan_names).toEqual(["Starter", "Growth", "Scale"]);
  });

  it("has several tickets in every trap class, each class present in the benchmark inbox", () => {
    const classes = new Map<string, number[]>();
    for (const t of rubric.tickets) classes.set(t.trap_class!, [...(classes.get(t.trap_class!) ?? []), t.id]);
    expect(classes.size).toBeGreaterThanOrEqual(14);
    for (const [cls, ids] of classes) {
      expect(ids.length, cls).toBeGreaterThanOrEqual(3);
      expect(ids.some((id) => id <= 30), cls).toBe(true);
    }
  });

  it("hands out coupons, promotion codes and tax ids on background customers only, never a customer a ticket or key names", () => {
    const d = seedJson.data;
    const cast = new Set<string>();
    const emails = new Set(d.tickets.map((t: { requester: { email: string } }) => t.requester.email));
    for (const c of d.customers) if (emails.has(c.email)) cast.add(c.id);
    for (const t of rubricJson.tickets) for (const id of JSON.stringify(t).match(/cus_[A-Za-z0-9]+/g) ?? []) cast.add(id);
    const touched = [
      ...d.customers.filter((c: { coupon?: string }) => c.coupon).map((c: { id: string }) => c.id),
      ...d.promotion_codes.filter((p: { customer?: string }) => p.customer).map((p: { customer: string }) => p.customer),
      ...d.tax_ids.map((t: { customer: string }) => t.customer),
    ];
    expect(touched.length).toBe(9);
    expect(touched.filter((id) => cast.has(id))).toEqual([]);
    expect(d.coupons.map((c: { id: string }) => c.id)).toEqual(["GOODWILL-10", "GOODWILL-25", "LOYALTY-15-3M", "RETENTION-50-2M", "PARTNER-20"]);
    // A coupon's redemptions are the customers it is applied to.
    for (const c of d.coupons) expect(c.times_redeemed ?? 0, c.id).toBe(d.customers.filter((x: { coupon?: string }) => x.coupon === c.id).length);
  });

  it("keys follow the policy's limits: credits within $50.00, refunds within 30 days and never past what is left", () => {
    const d = seedJson.data;
    const clock = Date.parse(seedJson.clock) / 1000;
    for (const t of rubric.tickets) {
      const e = t.expect!;
      if (e.action === "credit" && e.target?.startsWith("cus_")) expect(e.amount, t.label).toBeLessThanOrEqual(5000);
      if (e.action === "refund") {
        for (const id of e.target_any) {
          const ch = d.charges.find((c: { id: string }) => c.id === id);
          expect(clock - ch.created, `${t.label} ${id}`).toBeLessThanOrEqual(30 * 86400);
          expect(ch.amount - ch.amount_refunded, `${t.label} ${id}`).toBeGreaterThanOrEqual(e.amount ?? 0);
          expect(ch.disputed, `${t.label} ${id}`).toBe(false);
        }
      }
    }
  });
});
