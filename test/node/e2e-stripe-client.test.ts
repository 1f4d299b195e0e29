// The unmodified official `stripe` client against a world on the real local server (workerd via Miniflare, the
// runtime `worlds serve` and `--server auto` use), so anything that only works inside the vitest pool fails here.
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalServer, type LocalServer } from "../../src/cli/server/local";

let server: LocalServer;

interface World {
  id: string;
  key: string;
  stripe_api_base: string;
}

async function createWorld(seed: unknown = "acme-small"): Promise<World> {
  const res = await fetch(`${server.url}/admin/worlds`, {
    method: "POST",
    headers: { authorization: `Bearer ${server.token}`, "content-type": "application/json" },
    body: JSON.stringify({ seed }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as World;
}

function client(world: World, opts: { apiVersion?: string } = {}): Stripe {
  const base = new URL(world.stripe_api_base);
  return new Stripe(world.key, {
    host: base.hostname,
    port: Number(base.port),
    protocol: "http",
    maxNetworkRetries: 0,
    ...(opts.apiVersion ? { apiVersion: opts.apiVersion as Stripe.LatestApiVersion } : {}),
  });
}

async function diff(world: World): Promise<{ entries: Array<{ type: string; id: string; op: string; fields?: Record<string, { before: unknown; after: unknown }> }> }> {
  const res = await fetch(`${server.url}/admin/worlds/${world.id}/diff`, { headers: { authorization: `Bearer ${server.token}` } });
  expect(res.status).toBe(200);
  return (await res.json()) as Awaited<ReturnType<typeof diff>>;
}

beforeAll(async () => {
  server = await startLocalServer();
});

afterAll(async () => {
  await server?.stop();
});

describe("the official stripe client against a world", () => {
  it("auto-paginates every customer, newest first, and expands references", async () => {
    const stripe = client(await createWorld());
    const all = await stripe.customers.list({ limit: 4 }).autoPagingToArray({ limit: 100 });
    expect(all).toHaveLength(15);
    expect(new Set(all.map((c) => c.id)).size).toBe(15);
    const shared = await stripe.customers.list({ email: "accounts.harbor@example.com" });
    expect(shared.data.map((c) => c.id).sort()).toEqual(["cus_AcmeHarborDowntown", "cus_AcmeHarborMain"]);
    const charge = await stripe.charges.retrieve("ch_AcmeBluebird0812", { expand: ["customer", "refunds"] });
    expect((charge.customer as Stripe.Customer).email).toBe("hello.bluebird@example.com");
    expect(charge.refunds?.data.reduce((a, r) => a + r.amount, 0)).toBe(1000);
    const page = await stripe.charges.list({ customer: "cus_AcmeNorthwind", expand: ["data.customer"] });
    expect(page.data.every((c) => (c.customer as Stripe.Customer).id === "cus_AcmeNorthwind")).toBe(true);
  });

  it("refunds partially, then the rest, then refuses an over-refund with the real error class", async () => {
    const world = await createWorld();
    const stripe = client(world);
    const first = await stripe.refunds.create({ charge: "ch_AcmeNorthwindDup", amount: 2500, reason: "requested_by_customer" });
    expect(first.amount).toBe(2500);
    const rest = await stripe.refunds.create({ charge: "ch_AcmeNorthwindDup" });
    expect(rest.amount).toBe(9900 - 2500);
    const charge = await stripe.charges.retrieve("ch_AcmeNorthwindDup");
    expect(charge.refunded).toBe(true);
    expect(charge.amount_refunded).toBe(9900);
    const err = await stripe.refunds.create({ charge: "ch_AcmeNorthwindDup", amount: 100 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect((err as Stripe.errors.StripeError).code).toBe("charge_already_refunded");
    const d = await diff(world);
    expect(d.entries.filter((e) => e.type === "refunds" && e.op === "created")).toHaveLength(2);
  });

  it("replays an idempotent request and refuses the same key with other parameters", async () => {
    const world = await createWorld();
    const stripe = client(world);
    const a = await stripe.refunds.create({ charge: "ch_AcmeDelta0803", amount: 1000 }, { idempotencyKey: "refund-once" });
    const b = await stripe.refunds.create({ charge: "ch_AcmeDelta0803", amount: 1000 }, { idempotencyKey: "refund-once" });
    expect(b.id).toBe(a.id);
    expect(b.lastResponse.headers["idempotent-replayed"]).toBe("true");
    const err = await stripe.refunds.create({ charge: "ch_AcmeDelta0803", amount: 2000 }, { idempotencyKey: "refund-once" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    expect((await diff(world)).entries.filter((e) => e.type === "refunds")).toHaveLength(1);
  });

  it("walks invoices through finalize, pay and void, and refuses invalid transitions", async () => {
    const stripe = client(await createWorld());
    const finalized = await stripe.invoices.finalizeInvoice("in_AcmeJuniperOnboard");
    expect(finalized.status).toBe("open");
    const voided = await stripe.invoices.voidInvoice("in_AcmeJuniperOnboard");
    expect(voided.status).toBe("void");
    const paid = await stripe.invoices.pay("in_AcmeJuniper0912");
    expect(paid.status).toBe("paid");
    const bad = await stripe.invoices.voidInvoice("in_AcmeJuniper0912").catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    const again = await stripe.invoices.finalizeInvoice("in_AcmeJuniper0912").catch((e: unknown) => e);
    expect(again).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
  });

  it("cancels at period end, changes plan keeping the item id, and cancels now", async () => {
    const world = await createWorld();
    const stripe = client(world);
    const later = await stripe.subscriptions.update("sub_AcmeLumen", { cancel_at_period_end: true });
    expect(later.cancel_at_period_end).toBe(true);
    expect(later.status).toBe("active");
    const changed = await stripe.subscriptions.update("sub_AcmeNorthwind", {
      items: [{ id: "si_AcmeNorthwind", price: "price_AcmeScaleMonthly" }],
      proration_behavior: "none",
    });
    expect(changed.items.data).toHaveLength(1);
    expect(changed.items.data[0].id).toBe("si_AcmeNorthwind");
    expect(changed.items.data[0].price.id).toBe("price_AcmeScaleMonthly");
    const now = await stripe.subscriptions.cancel("sub_AcmeNimbus");
    expect(now.status).toBe("canceled");
    const d = await diff(world);
    const sub = d.entries.find((e) => e.id === "sub_AcmeLumen");
    expect(sub?.fields?.cancel_at_period_end).toEqual({ before: false, after: true });
  });

  it("credits a customer's balance and splits a credit note into credit and refund", async () => {
    const stripe = client(await createWorld());
    const txn = await stripe.customers.createBalanceTransaction("cus_AcmeKestrel", { amount: -2500, currency: "usd", description: "Goodwill credit" });
    expect(txn.ending_balance).toBe(-2500);
    expect((await stripe.customers.retrieve("cus_AcmeKestrel") as Stripe.Customer).balance).toBe(-2500);
    const note = await stripe.creditNotes.create({ invoice: "in_AcmeIris0908", amount: 10000, credit_amount: 4000, refund_amount: 6000 });
    expect(note.amount).toBe(10000);
    const charge = await stripe.charges.retrieve("ch_AcmeIris0908");
    expect(charge.amount_refunded).toBe(6000);
  });

  it("serves pre-2025 shapes to a client pinned to an older API version", async () => {
    const world = await createWorld();
    const old = client(world, { apiVersion: "2024-06-20" });
    const inv = (await old.invoices.retrieve("in_AcmeNorthwind0903")) as unknown as Record<string, unknown>;
    expect(inv.charge).toBe("ch_AcmeNorthwind0903");
    expect(inv.subscription).toBe("sub_AcmeNorthwind");
    expect(inv.paid).toBe(true);
    const sub = (await old.subscriptions.retrieve("sub_AcmeNorthwind")) as unknown as Record<string, unknown>;
    expect(typeof sub.current_period_end).toBe("number");
  });

  it("never opens another world with a world's key", async () => {
    const a = await createWorld();
    const b = await createWorld();
    const stripeA = client(a);
    await stripeA.refunds.create({ charge: "ch_AcmeNorthwindDup" });
    // The same object ids exist in B (same seed), but A's key only ever reaches A: B is untouched.
    expect((await diff(b)).entries).toEqual([]);
    const forged = new Stripe(a.key.slice(0, -4) + "AAAA", { host: "127.0.0.1", port: Number(new URL(a.stripe_api_base).port), protocol: "http", maxNetworkRetries: 0 });
    const err = await forged.customers.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
  });

  it("never over-refunds under 50 concurrent refund requests on one charge", async () => {
    const world = await createWorld();
    const stripe = client(world);
    const results = await Promise.allSettled(Array.from({ length: 50 }, () => stripe.refunds.create({ charge: "ch_AcmeCobalt2604", amount: 10000 })));
    const ok = results.filter((r) => r.status === "fulfilled").length;
    expect(ok).toBe(34); // 349000 / 10000 = 34 whole refunds fit
    const charge = await stripe.charges.retrieve("ch_AcmeCobalt2604");
    expect(charge.amount_refunded).toBe(340000);
    expect(charge.amount_refunded).toBeLessThanOrEqual(charge.amount);
  });

  it("answers uncompressed on the local server, even to a client that asks for gzip", async () => {
    const world = await createWorld();
    const { request } = await import("node:http");
    // node:http does not decompress, so this sees exactly the bytes on the wire.
    const raw = (path: string, authorization: string) =>
      new Promise<{ headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
        const req = request(`${server.url}${path}`, { headers: { authorization, "accept-encoding": "gzip, br" } }, (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (d: string) => (text += d));
          res.on("end", () => resolve({ headers: res.headers, body: text }));
        });
        req.on("error", reject);
        req.end();
      });
    const list = await raw("/v1/invoices?limit=100", `Bearer ${world.key}`);
    expect(list.headers["content-encoding"]).toBe("identity");
    expect((JSON.parse(list.body) as { data: unknown[] }).data.length).toBeGreaterThan(10);
    const diff = await raw(`/admin/worlds/${world.id}/diff`, `Bearer ${server.token}`);
    expect(diff.headers["content-encoding"]).toBe("identity");
    expect((JSON.parse(diff.body) as { world: string }).world).toBe(world.id);
  });
});
