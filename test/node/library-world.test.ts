// The starter library on the real local server: the server seeds a world from it by name, every keyed action
// can be taken through the unmodified stripe client, and the grader passes each ticket whose key was followed
// with a truthful reply. This is what proves the keys are reachable, not just well-formed.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalServer, type LocalServer } from "../../src/cli/server/local";
import type { RubricDocument, RubricTicket } from "../../src/core/rubric/schema";

const root = join(import.meta.dirname, "..", "..");
const rubric: RubricDocument = JSON.parse(readFileSync(join(root, "rubrics/acme-prod-library.json"), "utf8"));

interface World {
  id: string;
  key: string;
  seed: { name: string; hash: string };
  stripe_api_base: string;
  zendesk_url: string;
}

interface TaskGrade {
  label: string;
  verdict: string | null;
  reason: string;
}

let server: LocalServer;
let world: World;
let grades: Map<string, TaskGrade>;

const usd = (c: number) => `$${(c / 100).toFixed(2)}`;

async function admin(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${server.url}${path}`, { ...init, headers: { authorization: `Bearer ${server.token}`, "content-type": "application/json" } });
}

/** What a careful agent does for a key, through the billing API an agent would use. */
async function follow(stripe: Stripe, t: RubricTicket): Promise<void> {
  const e = t.expect!;
  switch (e.action) {
    case "refund":
      await stripe.refunds.create({ charge: e.target ?? e.target_any[e.target_any.length - 1], amount: e.amount ?? undefined });
      return;
    case "credit":
      if (e.target!.startsWith("in_")) await stripe.creditNotes.create({ invoice: e.target!, credit_amount: e.amount!, lines: [{ type: "custom_line_item", unit_amount: e.amount!, quantity: 1, description: "Billing correction" }] });
      else await stripe.customers.createBalanceTransaction(e.target!, { amount: -e.amount!, currency: "usd", description: "Goodwill credit" });
      return;
    case "void":
      await stripe.invoices.voidInvoice(e.target!);
      return;
    case "cancel":
      await stripe.subscriptions.cancel(e.target!);
      return;
    case "cancel_at_period_end":
      await stripe.subscriptions.update(e.target!, { cancel_at_period_end: true });
      return;
    case "plan_change": {
      const sub = await stripe.subscriptions.retrieve(e.target!);
      await stripe.subscriptions.update(e.target!, { items: [{ id: sub.items.data[0].id, price: e.price! }], proration_behavior: "none" });
      return;
    }
    default:
      return;
  }
}

/** A reply that says what was done and nothing more. */
function reply(t: RubricTicket): string {
  const e = t.expect!;
  switch (e.action) {
    case "refund":
      return `I've refunded ${usd(e.amount!)} to your card; it takes 5 to 10 business days to appear.`;
    case "credit":
      return e.target!.startsWith("in_") ? `I've issued a credit note of ${usd(e.amount!)} on that invoice, credited to your account balance.` : `I've added a credit of ${usd(e.amount!)} to your account balance.`;
    case "void":
      return "I've voided that invoice, so there is nothing to pay.";
    case "cancel":
      return "Your subscription is cancelled as of today.";
    case "cancel_at_period_end":
      return "Your subscription will end when the current billing period closes, and you won't be charged again.";
    case "plan_change":
      return `Done: your workspace is now on the ${e.line.split(" to ")[1].split(" ")[0]} plan.`;
    case "none":
      return "Thanks for writing in. Here is the information you asked about; nothing on your account needed changing.";
    default:
      return "I've escalated this to our billing lead, who will follow up with you directly.";
  }
}

beforeAll(async () => {
  server = await startLocalServer();
  const res = await admin("/admin/worlds", { method: "POST", body: JSON.stringify({ seed: "acme-prod-library" }) });
  expect(res.status).toBe(201);
  world = (await res.json()) as World;
  const base = new URL(world.stripe_api_base);
  const stripe = new Stripe(world.key, { host: base.hostname, port: Number(base.port), protocol: "http", maxNetworkRetries: 0 });
  for (const t of rubric.tickets) await follow(stripe, t);
  const replies = Object.fromEntries(rubric.tickets.map((t) => [String(t.id), reply(t)]));
  const graded = await admin(`/admin/worlds/${world.id}/grade`, { method: "POST", body: JSON.stringify({ rubric, mode: "isolated", replies }) });
  expect(graded.status).toBe(200);
  const body = (await graded.json()) as { warnings: string[]; grade: { tasks: TaskGrade[] } };
  expect(body.warnings).toEqual([]);
  grades = new Map(body.grade.tasks.map((g) => [g.label, g]));
}, 240_000);

afterAll(async () => {
  await server?.stop();
});

const isCreditNote = (t: RubricTicket) => t.expect?.action === "credit" && !!t.expect.target?.startsWith("in_");

describe("the starter library in a world", () => {
  it("is served by name, the world running exactly the seed the rubric keys", async () => {
    expect(world.seed).toEqual(rubric.seed);
    const res = await fetch(`${world.zendesk_url}/api/v2/tickets.json?status=open&per_page=100`, { headers: { authorization: `Bearer ${world.key}` } });
    expect(res.status).toBe(200);
    const desk = (await res.json()) as { tickets: Array<{ id: number; external_id: string }> };
    expect(desk.tickets.map((t) => t.external_id).sort()).toEqual(rubric.tickets.map((t) => t.label).sort());
  });

  it("serves the library's coupons, promotion codes, applied discounts and tax ids through the stripe client", async () => {
    const base = new URL(world.stripe_api_base);
    const stripe = new Stripe(world.key, { host: base.hostname, port: Number(base.port), protocol: "http", maxNetworkRetries: 0 });
    const coupons = await stripe.coupons.list({ limit: 100 });
    expect(coupons.data.map((c) => c.id).sort()).toEqual(["GOODWILL-10", "GOODWILL-25", "LOYALTY-15-3M", "PARTNER-20", "RETENTION-50-2M"]);
    const welcome = await stripe.promotionCodes.list({ code: "welcomeback" });
    expect(welcome.data.map((p) => p.code)).toEqual(["WELCOMEBACK"]);
    const seedJson = JSON.parse(readFileSync(join(root, "seeds", "acme-prod-library.json"), "utf8"));
    const discounted = seedJson.data.customers.find((c: { coupon?: string }) => c.coupon === "PARTNER-20");
    // The client's own version: a discount names its coupon under source (its whole coupon before 2025-09-30).
    const customer = (await stripe.customers.retrieve(discounted.id)) as Stripe.Customer;
    expect(customer.discount?.source.coupon).toBe("PARTNER-20");
    const vat = seedJson.data.tax_ids.find((t: { type: string }) => t.type === "gb_vat");
    const ids = await stripe.customers.listTaxIds(vat.customer);
    expect(ids.data.map((t) => [t.type, t.value, t.country])).toEqual([["gb_vat", "GB980780684", "GB"]]);
  });

  it("passes every ticket whose key was followed with a truthful reply", () => {
    const failed = rubric.tickets
      .filter((t) => !isCreditNote(t))
      .map((t) => grades.get(t.label)!)
      .filter((g) => g.verdict !== "passed")
      .map((g) => `${g.label}: ${g.verdict} (${g.reason})`);
    expect(failed).toEqual([]);
  });

  it("passes the credit notes on paid invoices (the grader must see a credit note's balance credit as landing on its invoice)", () => {
    const failed = rubric.tickets
      .filter(isCreditNote)
      .map((t) => grades.get(t.label)!)
      .filter((g) => g.verdict !== "passed")
      .map((g) => `${g.label}: ${g.verdict} (${g.reason})`);
    expect(failed).toEqual([]);
  });
});
