// The billing twin's HTTP mechanics: parameter decoding, routing errors, the error envelope, headers,
// pagination, expansion, search, idempotency and API-version shapes.
import { describe, expect, it } from "vitest";
import { billingSeed, call, createWorld, diff, stripe } from "./stripe-helpers";

describe("billing twin: decoding and errors", () => {
  it("serves JSON with Request-Id and the current Stripe-Version by default", async () => {
    const w = await createWorld();
    const r = await stripe(w, "GET", "/v1/customers/cus_Alice");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toContain("application/json");
    expect(r.headers.get("request-id")).toMatch(/^req_/);
    expect(r.headers.get("stripe-version")).toBe("2026-10-28.endive");
    expect(r.body).toMatchObject({ id: "cus_Alice", object: "customer", livemode: false, metadata: { tier: "gold" }, balance: 0 });
  });

  it("answers an unknown route with 404 and the real message", async () => {
    const w = await createWorld();
    const r = await stripe(w, "GET", "/v1/widgets");
    expect(r.status).toBe(404);
    expect(r.body.error.type).toBe("invalid_request_error");
    expect(r.body.error.message).toMatch(/^Unrecognized request URL \(GET: \/v1\/widgets\)/);
    const wrongMethod = await stripe(w, "DELETE", "/v1/prices/price_GrowthMonthly");
    expect(wrongMethod.status).toBe(404);
  });

  it("refuses unknown parameters naming them, and records the note in the trace", async () => {
    const w = await createWorld();
    const r = await stripe(w, "POST", "/v1/customers/cus_Alice", { params: { nmae: "typo" } });
    expect(r.status).toBe(400);
    expect(r.body.error).toEqual({
      code: "parameter_unknown",
      doc_url: "https://stripe.com/docs/error-codes/parameter-unknown",
      message: "Received unknown parameter: nmae",
      param: "nmae",
      type: "invalid_request_error",
    });
    const nested = await stripe(w, "POST", "/v1/subscriptions/sub_Alice", { raw: "items[0][id]=si_Alice&items[0][prise]=price_GrowthMonthly" });
    expect(nested.body.error.message).toBe("Received unknown parameter: items[0][prise]");
    const trace = await (await call(`/admin/worlds/${w.id}/trace`, { headers: { authorization: "Bearer test-token" } })).text();
    const notes = trace.trim().split("\n").map((l: string) => JSON.parse(l).note);
    expect(notes).toContain("unknown_parameter");
  });

  it("names missing and non-integer parameters", async () => {
    const w = await createWorld();
    const missing = await stripe(w, "POST", "/v1/customers/cus_Alice/balance_transactions", { params: { currency: "usd" } });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: "parameter_missing", param: "amount", message: "Missing required param: amount." });
    const notInt = await stripe(w, "POST", "/v1/customers/cus_Alice/balance_transactions", { params: { amount: "12.5", currency: "usd" } });
    expect(notInt.body.error).toMatchObject({ code: "parameter_invalid_integer", param: "amount", message: "Invalid integer: 12.5" });
    const badEnum = await stripe(w, "GET", "/v1/subscriptions", { params: { status: "cancelled" } });
    expect(badEnum.body.error.message).toMatch(/^Invalid status: must be one of active, all, canceled/);
    expect(badEnum.body.error.param).toBe("status");
  });

  it("returns 400 in the error envelope for malformed percent-encoding and bad JSON", async () => {
    const w = await createWorld();
    const r = await stripe(w, "POST", "/v1/customers", { raw: "name=%E0%A4%A" });
    expect(r.status).toBe(400);
    expect(r.body.error.type).toBe("invalid_request_error");
    expect(r.body.error.message).toMatch(/percent-encoding/);
    const json = await stripe(w, "POST", "/v1/customers", { raw: "{nope", contentType: "application/json" });
    expect(json.status).toBe(400);
    expect(json.body.error.message).toMatch(/JSON/);
  });

  it("decodes bracket nesting, merges query and body, and accepts JSON bodies", async () => {
    const w = await createWorld();
    const r = await stripe(w, "POST", "/v1/customers?metadata[source]=query", { raw: "name=Dana+D%C3%BCrr&metadata[team]=core&preferred_locales[]=en&preferred_locales[]=fr" });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ name: "Dana Dürr", metadata: { source: "query", team: "core" }, preferred_locales: ["en", "fr"] });
    const j = await stripe(w, "POST", "/v1/customers", { raw: JSON.stringify({ email: "j@example.com", metadata: { n: 1 } }), contentType: "application/json" });
    expect(j.status).toBe(200);
    expect(j.body).toMatchObject({ email: "j@example.com", metadata: { n: "1" } });
  });

  it("404s unknown ids with resource_missing", async () => {
    const w = await createWorld();
    const r = await stripe(w, "GET", "/v1/customers/cus_Nope");
    expect(r.status).toBe(404);
    expect(r.body.error).toMatchObject({ type: "invalid_request_error", code: "resource_missing", param: "id", message: "No such customer: 'cus_Nope'" });
  });

  it("rejects a malformed Stripe-Version header", async () => {
    const w = await createWorld();
    const r = await stripe(w, "GET", "/v1/customers", { headers: { "stripe-version": "latest" } });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toMatch(/Invalid Stripe API version: latest/);
  });

  it("rejects a well-formed Stripe-Version that was never a release, and serves real ones", async () => {
    const w = await createWorld();
    for (const v of ["2019-13-45", "2023-02-30", "2010-06-01", "2099-01-01", "2025-05-28", "2023-10-16.basil", "2025-05-28.acacia", "2025-05-28.zebra"]) {
      const r = await stripe(w, "GET", "/v1/customers", { headers: { "stripe-version": v } });
      expect(r.status, v).toBe(400);
      expect(r.body.error).toMatchObject({ type: "invalid_request_error", message: expect.stringContaining(`Invalid Stripe API version: ${v}.`) });
    }
    for (const v of ["2020-08-27", "2024-06-20", "2024-12-18.acacia", "2025-03-31.basil", "2026-10-28.endive"]) {
      const r = await stripe(w, "GET", "/v1/customers", { headers: { "stripe-version": v } });
      expect(r.status, v).toBe(200);
      expect(r.headers.get("stripe-version")).toBe(v);
    }
  });

  it("answers HEAD like GET without a body, as the help desk does", async () => {
    const w = await createWorld();
    const head = await call("/v1/customers/cus_Alice", { method: "HEAD", headers: { authorization: `Bearer ${w.key}` } });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    expect(head.headers.get("request-id")).toMatch(/^req_/);
    const missing = await call("/v1/customers/cus_Nope", { method: "HEAD", headers: { authorization: `Bearer ${w.key}` } });
    expect(missing.status).toBe(404);
    const desk = await call("/api/v2/tickets.json", { method: "HEAD", headers: { authorization: `Bearer ${w.key}` } });
    expect(desk.status).toBe(200);
  });

  it("takes True/False booleans as stripe-python before 12 sent them", async () => {
    const w = await createWorld();
    const r = await stripe(w, "POST", "/v1/subscriptions/sub_Alice", { raw: "cancel_at_period_end=True" });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.cancel_at_period_end).toBe(true);
    const back = await stripe(w, "POST", "/v1/subscriptions/sub_Alice", { raw: "cancel_at_period_end=False" });
    expect(back.body.cancel_at_period_end).toBe(false);
    const bad = await stripe(w, "POST", "/v1/subscriptions/sub_Alice", { raw: "cancel_at_period_end=TRUE" });
    expect(bad.status).toBe(400);
  });
});

describe("billing twin: lists", () => {
  it("lists newest first with limit, starting_after and ending_before", async () => {
    const w = await createWorld();
    const all = await stripe(w, "GET", "/v1/customers");
    expect(all.body).toMatchObject({ object: "list", url: "/v1/customers", has_more: false });
    expect(all.body.data.map((c: { id: string }) => c.id)).toEqual(["cus_Carol", "cus_Bob", "cus_Alice"]);
    const p1 = await stripe(w, "GET", "/v1/customers", { params: { limit: 2 } });
    expect(p1.body.data.map((c: { id: string }) => c.id)).toEqual(["cus_Carol", "cus_Bob"]);
    expect(p1.body.has_more).toBe(true);
    const p2 = await stripe(w, "GET", "/v1/customers", { params: { limit: 2, starting_after: "cus_Bob" } });
    expect(p2.body.data.map((c: { id: string }) => c.id)).toEqual(["cus_Alice"]);
    expect(p2.body.has_more).toBe(false);
    const back = await stripe(w, "GET", "/v1/customers", { params: { limit: 1, ending_before: "cus_Alice" } });
    expect(back.body.data.map((c: { id: string }) => c.id)).toEqual(["cus_Bob"]);
    expect(back.body.has_more).toBe(true);
  });

  it("refuses bad limits and unknown cursors", async () => {
    const w = await createWorld();
    expect((await stripe(w, "GET", "/v1/customers", { params: { limit: 0 } })).body.error.param).toBe("limit");
    const big = await stripe(w, "GET", "/v1/customers", { params: { limit: 101 } });
    expect(big.status).toBe(400);
    expect(big.body.error.message).toBe("This value must be less than or equal to 100.");
    const cursor = await stripe(w, "GET", "/v1/customers", { params: { starting_after: "cus_Ghost" } });
    expect(cursor.status).toBe(400);
    expect(cursor.body.error).toMatchObject({ code: "resource_missing", param: "starting_after", message: "No such customer: 'cus_Ghost'" });
  });

  it("filters customers by exact email", async () => {
    const w = await createWorld();
    const r = await stripe(w, "GET", "/v1/customers", { params: { email: "shared@example.com" } });
    expect(r.body.data.map((c: { id: string }) => c.id)).toEqual(["cus_Carol", "cus_Bob"]);
    const none = await stripe(w, "GET", "/v1/customers", { params: { email: "SHARED@example.com" } });
    expect(none.body.data).toEqual([]);
  });
});

describe("billing twin: expand", () => {
  it("replaces ids by objects, follows dotted paths, and takes data. on lists", async () => {
    const w = await createWorld();
    const one = await stripe(w, "GET", "/v1/subscriptions/sub_Alice", { raw: "expand[]=customer&expand[]=items.data.price.product" });
    expect(one.body.customer).toMatchObject({ id: "cus_Alice", object: "customer" });
    expect(one.body.items.data[0].price.product).toMatchObject({ id: "prod_Starter", object: "product" });
    const list = await stripe(w, "GET", "/v1/subscriptions", { raw: "expand[0]=data.customer" });
    expect(list.body.data.every((s: { customer: { object: string } }) => s.customer.object === "customer")).toBe(true);
  });

  it("refuses undeclared fields, missing data. prefixes and more than four levels", async () => {
    const w = await createWorld();
    const bad = await stripe(w, "GET", "/v1/customers/cus_Alice", { raw: "expand[]=email" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe("This property cannot be expanded (email).");
    const noData = await stripe(w, "GET", "/v1/subscriptions", { raw: "expand[]=customer" });
    expect(noData.body.error.message).toMatch(/data\.customer/);
    const deep = await stripe(w, "GET", "/v1/subscriptions/sub_Alice", { raw: "expand[]=a.b.c.d.e" });
    expect(deep.body.error.message).toMatch(/more than 4 levels/);
  });

  it("includes computed lists on request (customer.subscriptions)", async () => {
    const w = await createWorld();
    const r = await stripe(w, "GET", "/v1/customers/cus_Carol", { raw: "expand[]=subscriptions" });
    expect(r.body.subscriptions).toMatchObject({ object: "list", data: [], url: "/v1/customers/cus_Carol/subscriptions" });
    const plain = await stripe(w, "GET", "/v1/customers/cus_Carol");
    expect(plain.body.subscriptions).toBeUndefined();
  });
});

describe("billing twin: search", () => {
  it("supports exact, substring, negation, metadata, comparisons and OR", async () => {
    const w = await createWorld();
    const q = async (query: string, extra: Record<string, unknown> = {}) =>
      (await stripe(w, "GET", "/v1/customers/search", { params: { query, ...extra } })).body;
    expect((await q('email:"shared@example.com"')).data.map((c: { id: string }) => c.id)).toEqual(["cus_Carol", "cus_Bob"]);
    expect((await q("name~'ander'")).data.map((c: { id: string }) => c.id)).toEqual(["cus_Alice"]);
    expect((await q('-email:"shared@example.com"')).data.map((c: { id: string }) => c.id)).toEqual(["cus_Alice"]);
    expect((await q('metadata["tier"]:"gold"')).data.map((c: { id: string }) => c.id)).toEqual(["cus_Alice"]);
    const created = (await stripe(w, "GET", "/v1/customers/cus_Bob")).body.created;
    expect((await q(`created>=${created}`)).data.map((c: { id: string }) => c.id)).toEqual(["cus_Carol", "cus_Bob"]);
    expect((await q('name:"Alice Anders" OR name:"Carol Chen"')).data.map((c: { id: string }) => c.id)).toEqual(["cus_Carol", "cus_Alice"]);
    expect((await q('email:"shared@example.com" AND phone:"+15550100"')).data.map((c: { id: string }) => c.id)).toEqual(["cus_Carol"]);
    const env = await q('email:"shared@example.com"');
    expect(env).toMatchObject({ object: "search_result", url: "/v1/customers/search", has_more: false, next_page: null });
    expect(env.total_count).toBeUndefined();
  });

  it("pages with a deterministic next_page token bound to the query", async () => {
    const w = await createWorld();
    const p1 = (await stripe(w, "GET", "/v1/customers/search", { params: { query: "created>0", limit: 2 } })).body;
    expect(p1.has_more).toBe(true);
    expect(p1.next_page).toMatch(/^page_/);
    const again = (await stripe(w, "GET", "/v1/customers/search", { params: { query: "created>0", limit: 2 } })).body;
    expect(again.next_page).toBe(p1.next_page);
    const p2 = (await stripe(w, "GET", "/v1/customers/search", { params: { query: "created>0", limit: 2, page: p1.next_page } })).body;
    expect(p2.data.map((c: { id: string }) => c.id)).toEqual(["cus_Alice"]);
    expect(p2.next_page).toBeNull();
    const other = await stripe(w, "GET", "/v1/customers/search", { params: { query: "created>1", page: p1.next_page } });
    expect(other.status).toBe(400);
    expect(other.body.error.param).toBe("page");
    const total = (await stripe(w, "GET", "/v1/customers/search", { raw: "query=created%3E0&expand[]=total_count" })).body;
    expect(total.total_count).toBe(3);
  });

  it("explains unsupported fields and mixed AND/OR", async () => {
    const w = await createWorld();
    const f = await stripe(w, "GET", "/v1/customers/search", { params: { query: 'colour:"red"' } });
    expect(f.status).toBe(400);
    expect(f.body.error).toMatchObject({ param: "query", type: "invalid_request_error" });
    expect(f.body.error.message).toMatch(/colour/);
    const mixed = await stripe(w, "GET", "/v1/customers/search", { params: { query: 'name:"a" AND name:"b" OR name:"c"' } });
    expect(mixed.body.error.message).toMatch(/AND and OR/);
    const missing = await stripe(w, "GET", "/v1/customers/search");
    expect(missing.body.error).toMatchObject({ code: "parameter_missing", param: "query" });
  });
});

describe("billing twin: idempotency", () => {
  it("replays the stored response with Idempotent-Replayed and writes once", async () => {
    const w = await createWorld();
    const opts = { params: { email: "new@example.com" }, headers: { "idempotency-key": "k-1" } };
    const first = await stripe(w, "POST", "/v1/customers", opts);
    const second = await stripe(w, "POST", "/v1/customers", { params: { email: "new@example.com" }, headers: { "idempotency-key": "k-1" } });
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.headers.get("idempotency-key")).toBe("k-1");
    expect(second.headers.get("original-request")).toBe(first.headers.get("request-id"));
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const d = await diff(w);
    expect(d.entries.filter((e) => e.type === "customers" && e.op === "created")).toHaveLength(1);
  });

  it("refuses the same key with other parameters or another endpoint", async () => {
    const w = await createWorld();
    await stripe(w, "POST", "/v1/customers", { params: { email: "a@example.com", name: "A" }, headers: { "idempotency-key": "k-2" } });
    // Same parameters in another order are the same request.
    const reordered = await stripe(w, "POST", "/v1/customers", { raw: "name=A&email=a%40example.com", headers: { "idempotency-key": "k-2" } });
    expect(reordered.headers.get("idempotent-replayed")).toBe("true");
    const other = await stripe(w, "POST", "/v1/customers", { params: { email: "b@example.com" }, headers: { "idempotency-key": "k-2" } });
    expect(other.status).toBe(400);
    expect(other.body.error).toEqual({
      message: "Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than 'k-2' if you meant to execute a different request.",
      type: "idempotency_error",
    });
    const endpoint = await stripe(w, "POST", "/v1/customers/cus_Alice", { params: { email: "a@example.com", name: "A" }, headers: { "idempotency-key": "k-2" } });
    expect(endpoint.status).toBe(400);
    expect(endpoint.body.error.type).toBe("idempotency_error");
    expect(endpoint.body.error.message).toMatch(/same endpoint/);
  });

  it("does not store validation failures, but stores refusals once execution began", async () => {
    const w = await createWorld();
    const bad = await stripe(w, "POST", "/v1/customers/cus_Alice/balance_transactions", { params: { amount: "x", currency: "usd" }, headers: { "idempotency-key": "k-3" } });
    expect(bad.status).toBe(400);
    const fixed = await stripe(w, "POST", "/v1/customers/cus_Alice/balance_transactions", { params: { amount: -100, currency: "usd" }, headers: { "idempotency-key": "k-3" } });
    expect(fixed.status).toBe(200);
    expect(fixed.headers.get("idempotent-replayed")).toBeNull();
    const cancel1 = await stripe(w, "POST", "/v1/subscriptions/sub_CarolOld", { params: { cancel_at_period_end: true }, headers: { "idempotency-key": "k-4" } });
    expect(cancel1.status).toBe(400);
    const cancel2 = await stripe(w, "POST", "/v1/subscriptions/sub_CarolOld", { params: { cancel_at_period_end: true }, headers: { "idempotency-key": "k-4" } });
    expect(cancel2.headers.get("idempotent-replayed")).toBe("true");
    expect(cancel2.body).toEqual(cancel1.body);
  });

  it("rolls back every write of a request that fails", async () => {
    const w = await createWorld();
    // The update runs, then the expansion is refused: the update must not survive.
    const r = await stripe(w, "POST", "/v1/customers/cus_Alice", { raw: "name=Changed&balance=-300&expand[]=email" });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toBe("This property cannot be expanded (email).");
    expect((await diff(w)).entries).toEqual([]);
    expect((await stripe(w, "GET", "/v1/customers/cus_Alice")).body).toMatchObject({ name: "Alice Anders", balance: 0 });
    // A plan change whose second item names a missing price writes nothing either.
    const plan = await stripe(w, "POST", "/v1/subscriptions/sub_Alice", {
      raw: "items[0][id]=si_Alice&items[0][price]=price_GrowthMonthly&items[1][price]=price_Missing",
    });
    expect(plan.status).toBe(400);
    expect(plan.body.error).toMatchObject({ code: "resource_missing", param: "items[1][price]" });
    expect((await diff(w)).entries).toEqual([]);
  });
});

describe("billing twin: API versions", () => {
  it("serves legacy subscription fields to a pre-basil version and the current shape otherwise", async () => {
    const w = await createWorld();
    const now = await stripe(w, "GET", "/v1/subscriptions/sub_Alice");
    expect(now.body.current_period_end).toBeUndefined();
    expect(now.body.items.data[0].current_period_end).toBeTypeOf("number");
    const old = await stripe(w, "GET", "/v1/subscriptions/sub_Alice", { headers: { "stripe-version": "2024-06-20" } });
    expect(old.headers.get("stripe-version")).toBe("2024-06-20");
    expect(old.body.current_period_end).toBe(now.body.items.data[0].current_period_end);
    expect(old.body.current_period_start).toBe(now.body.items.data[0].current_period_start);
    expect(old.body.plan).toMatchObject({ id: "price_StarterMonthly", object: "plan" });
  });

  it("uses the world's default version from the seed when the request names none", async () => {
    const w = await createWorld(billingSeed({ stripe_version: "2023-10-16" }));
    const r = await stripe(w, "GET", "/v1/subscriptions", { params: { limit: 1 } });
    expect(r.headers.get("stripe-version")).toBe("2023-10-16");
    expect(r.body.data[0].current_period_end).toBeTypeOf("number");
    const pinned = await stripe(w, "GET", "/v1/subscriptions", { params: { limit: 1 }, headers: { "stripe-version": "2026-10-28.endive" } });
    expect(pinned.body.data[0].current_period_end).toBeUndefined();
  });
});
