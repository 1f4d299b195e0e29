// The official `stripe` client, unmodified except for where it sends requests, against the billing twin:
// proves the wire format (form encoding, expand[n], Idempotency-Key on every POST, auto-pagination, search
// pages, error classes) works end to end inside the Workers runtime.
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { client, createWorld } from "./stripe-helpers";

describe("billing twin with the official stripe client", () => {
  it("retrieves, updates with metadata, auto-paginates and expands", async () => {
    const w = await createWorld();
    const stripe = client(w.key);
    const alice = await stripe.customers.retrieve("cus_Alice");
    expect(alice.deleted).toBeUndefined();
    expect((alice as Stripe.Customer).email).toBe("alice@example.com");
    expect(alice.lastResponse.requestId).toMatch(/^req_/);
    const updated = await stripe.customers.update("cus_Alice", { metadata: { tier: "", vip: "yes" } });
    expect(updated.metadata).toEqual({ vip: "yes" });
    const ids: string[] = [];
    for await (const c of stripe.customers.list({ limit: 1 })) ids.push(c.id);
    expect(ids).toEqual(["cus_Carol", "cus_Bob", "cus_Alice"]);
    const sub = await stripe.subscriptions.retrieve("sub_Alice", { expand: ["customer", "items.data.price.product"] });
    expect((sub.customer as Stripe.Customer).id).toBe("cus_Alice");
    expect((sub.items.data[0].price.product as Stripe.Product).name).toBe("Starter");
  });

  it("changes a plan keeping the item id and cancels at period end", async () => {
    const w = await createWorld();
    const stripe = client(w.key);
    const changed = await stripe.subscriptions.update("sub_Bob", { items: [{ id: "si_Bob", price: "price_StarterMonthly" }], proration_behavior: "none" });
    expect(changed.items.data[0].id).toBe("si_Bob");
    expect(changed.items.data[0].price.id).toBe("price_StarterMonthly");
    const canceling = await stripe.subscriptions.update("sub_Bob", { cancel_at_period_end: true });
    expect(canceling.cancel_at_period_end).toBe(true);
    expect(canceling.status).toBe("past_due");
    const canceled = await stripe.subscriptions.cancel("sub_Alice");
    expect(canceled.status).toBe("canceled");
  });

  it("credits a customer balance and pages through search results", async () => {
    const w = await createWorld();
    const stripe = client(w.key);
    const txn = await stripe.customers.createBalanceTransaction("cus_Bob", { amount: -250, currency: "usd" });
    expect(txn.ending_balance).toBe(-750);
    const found: string[] = [];
    for await (const c of stripe.customers.search({ query: "created>0", limit: 2 })) found.push(c.id);
    expect(found).toEqual(["cus_Carol", "cus_Bob", "cus_Alice"]);
  });

  it("maps errors to the client's classes and replays idempotent requests", async () => {
    const w = await createWorld();
    const stripe = client(w.key);
    await expect(stripe.customers.retrieve("cus_Nope")).rejects.toMatchObject({ type: "StripeInvalidRequestError", code: "resource_missing", statusCode: 404 });
    const first = await stripe.customers.create({ email: "idem@example.com" }, { idempotencyKey: "same-key" });
    const second = await stripe.customers.create({ email: "idem@example.com" }, { idempotencyKey: "same-key" });
    expect(second.id).toBe(first.id);
    expect(second.lastResponse.idempotencyKey).toBe("same-key");
    await expect(stripe.customers.create({ email: "other@example.com" }, { idempotencyKey: "same-key" })).rejects.toMatchObject({ type: "StripeIdempotencyError" });
  });

  it("reads legacy subscription fields when pinned to an old API version", async () => {
    const w = await createWorld();
    const stripe = client(w.key, { apiVersion: "2024-06-20" });
    const sub = (await stripe.subscriptions.retrieve("sub_Alice")) as unknown as { current_period_end: number; items: { data: Array<{ current_period_end: number }> } };
    expect(sub.current_period_end).toBe(sub.items.data[0].current_period_end);
  });
});
