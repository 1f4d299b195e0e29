// Events read back from the world's change log, and customer tax ids, through the official client.
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { billingSeed, client, createWorld, diff, rejects, stripe as raw } from "./stripe-helpers";

describe("events", () => {
  it("turns every recorded write into an event with the real type, object and previous attributes", async () => {
    const w = await createWorld(billingSeed());
    const s = client(w.key);
    expect((await s.events.list()).data).toEqual([]);
    await s.customers.update("cus_Alice", { name: "Alice A.", metadata: { tier: "platinum" } });
    await s.subscriptions.cancel("sub_Bob");
    const created = await s.customers.create({ email: "dana@example.com" });
    const list = await s.events.list({ limit: 100 });
    expect(list.data.map((e) => e.type)).toEqual(["customer.created", "customer.subscription.deleted", "customer.updated"]);
    const updated = list.data[2];
    expect(updated).toMatchObject({ object: "event", api_version: "2026-10-28.endive", livemode: false, pending_webhooks: 0 });
    expect(updated.data.object).toMatchObject({ id: "cus_Alice", object: "customer", name: "Alice A." });
    expect(updated.data.previous_attributes).toEqual({ name: "Alice Anders", metadata: { tier: "gold" } });
    expect(updated.request?.id).toMatch(/^req_/);
    expect(updated.created).toBe(Date.parse("2026-09-15T12:00:00Z") / 1000);
    expect((list.data[0].data.object as Stripe.Customer).id).toBe(created.id);

    // Filters: one type, a family of types, several types; retrieve by id; the ids are stable across reads.
    expect((await s.events.list({ type: "customer.subscription.*" })).data.map((e) => e.type)).toEqual(["customer.subscription.deleted"]);
    expect((await s.events.list({ types: ["customer.created", "customer.updated"] })).data.length).toBe(2);
    expect((await s.events.list({ delivery_success: false })).data).toEqual([]);
    expect(await s.events.retrieve(updated.id)).toEqual(updated);
    expect((await rejects(s.events.retrieve("evt_nope"))).statusCode).toBe(404);
    const page = await s.events.list({ limit: 1, starting_after: list.data[0].id });
    expect(page.data.map((e) => e.id)).toEqual([list.data[1].id]);
    // Reading events writes nothing.
    expect((await diff(w)).entries.map((e) => e.type).sort()).toEqual(["customers", "customers", "subscriptions"]);
  });

  it("names refunds, invoice payments and coupons as the API does, in the world's version", async () => {
    const w = await createWorld(billingSeed({ stripe_version: "2020-08-27" }));
    const s = client(w.key);
    await s.subscriptions.create({ customer: "cus_Carol", items: [{ price: "price_StarterMonthly" }] });
    await s.coupons.create({ id: "SORRY", percent_off: 20 });
    const types = (await s.events.list({ limit: 100 })).data.map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(["customer.subscription.created", "invoice.created", "invoice.finalized", "invoice.paid", "charge.succeeded", "coupon.created", "invoiceitem.created"]));
    const charge = (await s.events.list({ type: "charge.succeeded" })).data[0].data.object as Stripe.Charge;
    await s.refunds.create({ charge: charge.id });
    const refunded = (await s.events.list({ type: "charge.refunded" })).data[0];
    expect(refunded.data.previous_attributes).toMatchObject({ amount_refunded: 0, refunded: false });
    expect((await s.events.list({ type: "refund.created" })).data.length).toBe(1);
    // The object is shown in the world's version: an invoice of 2020-08-27 still names its subscription.
    const inv = (await s.events.list({ type: "invoice.paid" })).data[0];
    expect(inv.api_version).toBe("2020-08-27");
    expect((inv.data.object as unknown as Record<string, unknown>).subscription).toMatch(/^sub_/);
  });
});

describe("tax ids", () => {
  it("creates, lists, retrieves and deletes a customer's tax ids, checking each value's format", async () => {
    const w = await createWorld(billingSeed());
    const s = client(w.key);
    const vat = await s.customers.createTaxId("cus_Alice", { type: "eu_vat", value: "DE123456789" });
    expect(vat).toMatchObject({ object: "tax_id", type: "eu_vat", value: "DE123456789", country: "DE", customer: "cus_Alice", verification: { status: "pending" }, owner: { type: "customer", customer: "cus_Alice" } });
    expect(vat.id).toMatch(/^txi_/);
    const ein = await s.customers.createTaxId("cus_Alice", { type: "us_ein", value: "12-3456789" });
    expect(ein).toMatchObject({ country: "US", verification: { status: "unavailable" } });
    const bad = await rejects(s.customers.createTaxId("cus_Alice", { type: "eu_vat", value: "DE12" }));
    expect(bad).toMatchObject({ code: "tax_id_invalid", param: "value", message: "Invalid value for eu_vat." });
    expect((await rejects(s.customers.createTaxId("cus_Alice", { type: "xx_nope" as "eu_vat", value: "1" }))).param).toBe("type");
    expect((await rejects(s.customers.createTaxId("cus_nope", { type: "us_ein", value: "12-3456789" }))).statusCode).toBe(404);
    expect((await s.customers.listTaxIds("cus_Alice")).data.map((t) => t.id)).toEqual([ein.id, vat.id]);
    expect((await s.customers.retrieveTaxId("cus_Alice", vat.id)).value).toBe("DE123456789");
    expect((await rejects(s.customers.retrieveTaxId("cus_Bob", vat.id))).statusCode).toBe(404);
    const withIds = (await s.customers.retrieve("cus_Alice", { expand: ["tax_ids"] })) as Stripe.Customer;
    expect(withIds.tax_ids?.data.map((t) => t.id)).toEqual([ein.id, vat.id]);
    expect(await s.customers.deleteTaxId("cus_Alice", ein.id)).toEqual({ id: ein.id, object: "tax_id", deleted: true });
    // The top-level endpoint reaches the same objects by owner.
    const top = await s.taxIds.list({ owner: { type: "customer", customer: "cus_Alice" } });
    expect(top.data.map((t) => t.id)).toEqual([vat.id]);
    const gb = await s.taxIds.create({ type: "gb_vat", value: "GB123456789", owner: { type: "customer", customer: "cus_Bob" } });
    expect(await s.taxIds.retrieve(gb.id)).toMatchObject({ customer: "cus_Bob", country: "GB" });
    const events = (await s.events.list({ type: "customer.tax_id.*" })).data.map((e) => e.type);
    expect(events).toEqual(["customer.tax_id.created", "customer.tax_id.deleted", "customer.tax_id.created", "customer.tax_id.created"]);
    const d = await diff(w);
    expect(d.entries.filter((e) => e.type === "tax_ids").map((e) => [e.op, e.customer])).toEqual([["created", "cus_Alice"], ["created", "cus_Bob"]]);
    expect((await raw(w, "GET", `/v1/customers/cus_Alice/tax_ids/${vat.id}`)).status).toBe(200);
  });
});
