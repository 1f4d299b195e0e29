// The mapping's privacy and consistency rules on hand-made API objects: pseudonyms are a pure function of the
// salt, free text quoting a customer is rewritten, and objects whose required links are gone are left out.
import { describe, expect, it } from "vitest";
import { parseSeed } from "../../core/world/seed/parse";
import type { Objects } from "./crawl";
import { toSeed } from "./map";
import { deriveSalt, Pseudonymizer } from "./pseudonym";
import { KINDS, type ApiObject } from "./source";

function objects(parts: Partial<Record<keyof Objects, ApiObject[]>>): Objects {
  return Object.fromEntries(KINDS.map((k) => [k, new Map((parts[k] ?? []).map((o) => [o.id, o]))])) as Objects;
}

const p = new Pseudonymizer(deriveSalt("account", "acct_123"));

describe("pseudonyms", () => {
  it("are a pure function of the salt and the value; emails ignore case", () => {
    const again = new Pseudonymizer(deriveSalt("account", "acct_123"));
    expect(again.customer({ id: "cus_1", email: "Ann@Corp.com", name: "Ann Lee" })).toEqual(p.customer({ id: "cus_1", email: "ann@corp.com", name: "Ann Lee" }));
    const other = new Pseudonymizer(deriveSalt("account", "acct_456"));
    expect(other.customerId("cus_1")).not.toBe(p.customerId("cus_1"));
    expect(new Pseudonymizer(deriveSalt("phrase", "acct_123")).customerId("cus_1")).not.toBe(p.customerId("cus_1"));
  });
});

describe("toSeed", () => {
  const customer = { id: "cus_real1", object: "customer", email: "ann@corp.com", name: "Ann Lee", created: 100, phone: "+1 555 0100", description: "VIP: call Ann", metadata: { crm: "x" } };
  const data = objects({
    customers: [customer],
    products: [{ id: "prod_1", name: "Pro", created: 10 }],
    prices: [{ id: "price_1", product: "prod_1", unit_amount: 1000, currency: "usd", recurring: { interval: "month", interval_count: 1 }, created: 11 }],
    invoices: [
      { id: "in_1", customer: "cus_real1", status: "paid", currency: "usd", amount_paid: 1000, description: "Invoice for Ann Lee (ann@corp.com)", lines: { data: [{ id: "il_1", amount: 1000, price: { id: "price_1" }, quantity: 1, period: { start: 100, end: 200 } }] }, status_transitions: { finalized_at: 150, paid_at: 160 }, created: 150, charge: "ch_1" },
      { id: "in_gone", customer: "cus_deleted", status: "open", lines: { data: [] }, created: 90 },
    ],
    charges: [{ id: "ch_1", customer: "cus_real1", amount: 1000, amount_refunded: 300, currency: "usd", status: "succeeded", invoice: "in_1", receipt_email: "ann@corp.com", created: 160 }],
    refunds: [{ id: "re_1", charge: "ch_1", amount: 100, status: "succeeded", created: 170 }],
  });

  it("writes only pseudonyms, drops what has no customer, and keeps amounts consistent", () => {
    const m = toSeed(data, p, { name: "t", description: "test" });
    const text = JSON.stringify(m.seed);
    for (const real of ["cus_real1", "ann@corp.com", "Ann Lee", "+1 555 0100", "VIP"]) expect(text).not.toContain(real);
    const ps = p.customer({ id: "cus_real1", email: "ann@corp.com", name: "Ann Lee" });
    expect(m.seed.data.customers).toEqual([{ id: ps.id, email: ps.email, name: ps.name, created: 100 }]);
    expect(m.seed.data.invoices.map((i) => i.id)).toEqual(["in_1"]);
    expect(m.seed.data.invoices[0].description).toBe(`Invoice for ${ps.name} (${ps.email})`);
    expect(m.seed.data.charges[0].receipt_email).toBe(ps.email);
    // Only 100 of the 300 refunded could be read: the charge is seeded with the refunds it has.
    expect(m.seed.data.charges[0].amount_refunded).toBeUndefined();
    expect(m.warnings).toEqual([
      "charge ch_1: amount_refunded 300 but its readable refunds add up to 100; seeded with the refunds",
      "left out invoice in_gone: its customer could not be read",
    ]);
    expect(m.seed.clock).toBe("1970-01-01T00:02:50Z");
    const parsed = parseSeed(m.seed);
    expect(parsed.ok ? [] : parsed.issues).toEqual([]);
    expect(m.identities).toEqual([{ id: "cus_real1", email: "ann@corp.com", name: "Ann Lee", pseudonym: ps }]);
  });
});
