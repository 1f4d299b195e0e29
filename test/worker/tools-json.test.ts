// The JSON tool surface (/tools/v1) of an account world: the catalogue in three formats, the key rules of the twin
// entry, errors in OpenAI's idiom with the four codes, and hostile bodies refused before they reach a world. Every
// write tool must leave the same diff as the REST request it stands for.
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

const admin = { authorization: "Bearer test-token", "content-type": "application/json" };
const call = (path: string, init: RequestInit = {}) => exports.default.fetch(new Request(`http://twin.test${path}`, init));

interface World {
  id: string;
  key: string;
}

async function newWorld(): Promise<World> {
  const res = await call("/admin/worlds", { method: "POST", headers: admin, body: JSON.stringify({ seed: "acme-small" }) });
  expect(res.status).toBe(201);
  return (await res.json()) as World;
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}`, "content-type": "application/json" });
const list = (key: string, format = "") => call(`/tools/v1/list${format ? `?format=${format}` : ""}`, { headers: bearer(key) });
const rawCall = (key: string, body: string) => call("/tools/v1/call", { method: "POST", headers: bearer(key), body });
const tool = (key: string, name: string, args: unknown = {}) => rawCall(key, JSON.stringify({ name, arguments: args }));

async function json(res: Response): Promise<Record<string, any>> {
  return (await res.json()) as Record<string, any>;
}

/** A diff without what differs between any two worlds (their ids, the random request ids). */
async function diffOf(w: World): Promise<unknown[]> {
  const d = await json(await call(`/admin/worlds/${w.id}/diff`, { headers: admin }));
  return (d.entries as Array<Record<string, unknown>>).map(({ request_ids: _r, ...e }) => e);
}

async function traceOf(w: World): Promise<Array<Record<string, any>>> {
  const text = await (await call(`/admin/worlds/${w.id}/trace`, { headers: admin })).text();
  return text.trim() ? text.trim().split("\n").map((l) => JSON.parse(l)) : [];
}

const form = (w: World, method: string, path: string, body = "") =>
  call(path, { method, headers: { authorization: `Bearer ${w.key}`, "content-type": "application/x-www-form-urlencoded" }, body: method === "GET" ? undefined : body });
const desk = (w: World, method: string, path: string, body: unknown) => call(path, { method, headers: bearer(w.key), body: JSON.stringify(body) });

describe("the catalogue", () => {
  it("lists every support operation in OpenAI's format by default, with JSON Schema arguments", async () => {
    const w = await newWorld();
    const res = await list(w.key);
    expect(res.status).toBe(200);
    const { tools } = await json(res);
    const names = tools.map((t: any) => t.function.name);
    for (const n of ["get_customer", "find_customers", "list_charges", "get_charge", "list_invoices", "get_invoice", "list_subscriptions", "get_subscription", "refund_charge", "credit_customer_balance", "void_invoice", "cancel_subscription", "change_subscription_price", "list_tickets", "get_ticket", "reply_to_ticket", "add_internal_note", "set_ticket_status"])
      expect(names).toContain(n);
    expect(new Set(names).size).toBe(names.length);
    for (const t of tools) {
      expect(t.type).toBe("function");
      expect(t.function.name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
      expect(t.function.description.length).toBeGreaterThan(20);
      expect(t.function.parameters.type).toBe("object");
      expect(t.function.parameters.$schema).toBeUndefined();
    }
    const refund = tools.find((t: any) => t.function.name === "refund_charge").function.parameters;
    expect(refund).toMatchObject({ required: ["charge"], additionalProperties: false, properties: { amount: { type: "integer", minimum: 1 } } });
    expect(JSON.stringify(refund)).not.toContain("9007199254740991");
  });

  it("answers Anthropic's and MCP's formats; MCP carries the effect as annotations", async () => {
    const w = await newWorld();
    const anthropic = await json(await list(w.key, "anthropic"));
    expect(anthropic.tools[0]).toEqual({ name: expect.any(String), description: expect.any(String), input_schema: expect.objectContaining({ type: "object" }) });
    const mcp = await json(await list(w.key, "mcp"));
    const byName = new Map(mcp.tools.map((t: any) => [t.name, t]));
    expect((byName.get("get_charge") as any).annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
    expect((byName.get("refund_charge") as any).annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: false });
    expect((byName.get("reply_to_ticket") as any).annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect((byName.get("refund_charge") as any).inputSchema.type).toBe("object");
  });

  it("refuses an unknown format with the formats it knows", async () => {
    const w = await newWorld();
    const res = await list(w.key, "gemini");
    expect(res.status).toBe(400);
    expect((await json(res)).error).toMatchObject({ code: "invalid_request", message: expect.stringMatching(/openai, anthropic, mcp/) });
  });
});

describe("keys", () => {
  it("no key, a malformed key, a forged key: 401 in the JSON idiom, nothing traced", async () => {
    const w = await newWorld();
    const forged = w.key.slice(0, -4) + (w.key.endsWith("AAAA") ? "BBBB" : "AAAA");
    const attempts: Array<Record<string, string>> = [{}, { authorization: "Bearer nope" }, { authorization: `Bearer ${forged}` }, { authorization: `Basic ${btoa(`x:${forged}`)}` }];
    for (const headers of attempts) {
      for (const res of [
        await call("/tools/v1/list", { headers }),
        await call("/tools/v1/call", { method: "POST", headers, body: JSON.stringify({ name: "refund_charge", arguments: { charge: "ch_AcmeNorthwindDup" } }) }),
      ]) {
        expect(res.status).toBe(401);
        expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
        expect((await json(res)).error.code).toBe("unauthorized");
      }
    }
    expect(await traceOf(w)).toEqual([]);
    expect(await diffOf(w)).toEqual([]);
  });

  it("another world's key works on its own world only: a refund in one is invisible in the other", async () => {
    const [a, b] = [await newWorld(), await newWorld()];
    expect((await tool(a.key, "refund_charge", { charge: "ch_AcmeNorthwindDup" })).status).toBe(200);
    const seenFromB = await json(await tool(b.key, "get_charge", { charge: "ch_AcmeNorthwindDup" }));
    expect(seenFromB.amount_refunded).toBe(0);
    expect(await diffOf(b)).toEqual([]);
    expect((await traceOf(b)).filter((r) => r.method !== "GET" && r.service !== "tools")).toEqual([]);
    expect((await diffOf(a)).length).toBeGreaterThan(0);
  });

  it("a destroyed world's key opens nothing", async () => {
    const w = await newWorld();
    expect((await call(`/admin/worlds/${w.id}`, { method: "DELETE", headers: admin })).status).toBe(200);
    expect((await list(w.key)).status).toBe(401);
    expect((await tool(w.key, "get_customer", { customer: "cus_AcmeNorthwind" })).status).toBe(401);
  });
});

describe("calls and their errors", () => {
  it("a read answers the API's own object and changes nothing", async () => {
    const w = await newWorld();
    const res = await tool(w.key, "find_customers", { email: "accounts.harbor@example.com" });
    expect(res.status).toBe(200);
    const page = await json(res);
    expect(page.object).toBe("list");
    expect(page.data.map((c: any) => c.id).sort()).toEqual(["cus_AcmeHarborDowntown", "cus_AcmeHarborMain"]);
    expect(await diffOf(w)).toEqual([]);
  });

  it("arguments as the JSON text a model's tool call carries are accepted", async () => {
    const w = await newWorld();
    const res = await rawCall(w.key, JSON.stringify({ name: "get_customer", arguments: '{"customer":"cus_AcmeNorthwind"}' }));
    expect(res.status).toBe(200);
    expect((await json(res)).email).toBe("billing.northwind@example.com");
  });

  it("an unknown tool is not_found (404), also for names that are built-in properties", async () => {
    const w = await newWorld();
    for (const name of ["delete_everything", "__proto__", "constructor", "toString"]) {
      const res = await tool(w.key, name);
      expect(res.status).toBe(404);
      const { error } = await json(res);
      expect(error.code).toBe("not_found");
      expect(error.message).toMatch(/refund_charge/);
    }
    expect(await diffOf(w)).toEqual([]);
  });

  it("invalid arguments are invalid_arguments (422), naming the argument, and change nothing", async () => {
    const w = await newWorld();
    const cases: Array<[unknown, RegExp]> = [
      [{}, /charge/],
      [{ charge: "ch_AcmeNorthwindDup", amount: "lots" }, /amount/],
      [{ charge: "ch_AcmeNorthwindDup", amount: 0 }, /amount/],
      [{ charge: "ch_AcmeNorthwindDup", refund_everything: true }, /unknown argument refund_everything/],
      [{ charge: "ch_AcmeNorthwindDup/../../customers" }, /charge/],
      ["not an object", /JSON/],
      [[1, 2], /object/],
    ];
    for (const [args, message] of cases) {
      const res = await rawCall(w.key, JSON.stringify({ name: "refund_charge", arguments: args }));
      const body = await json(res);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(body.error.code).toBe("invalid_arguments");
      expect(body.error.message).toMatch(message);
    }
    expect(await diffOf(w)).toEqual([]);
  });

  it("the twin's own refusals keep their words: a missing charge is not_found, a second full refund invalid_arguments", async () => {
    const w = await newWorld();
    const missing = await tool(w.key, "refund_charge", { charge: "ch_Nope" });
    expect(missing.status).toBe(404);
    expect((await json(missing)).error).toMatchObject({ code: "not_found", message: expect.stringMatching(/ch_Nope/) });
    expect((await tool(w.key, "refund_charge", { charge: "ch_AcmeNorthwindDup" })).status).toBe(200);
    const again = await tool(w.key, "refund_charge", { charge: "ch_AcmeNorthwindDup" });
    expect(again.status).toBe(422);
    expect((await json(again)).error.message).toMatch(/charge_already_refunded/);
  });

  it("every call is traced as service tools, after the twin request it made under the call's id", async () => {
    const w = await newWorld();
    await tool(w.key, "refund_charge", { charge: "ch_AcmeNorthwindDup", reason: "duplicate" });
    await tool(w.key, "no_such_tool");
    const trace = await traceOf(w);
    expect(trace.map((r) => [r.service, r.method, r.path, r.status])).toEqual([
      ["stripe", "POST", "/v1/refunds", 200],
      ["tools", "CALL", "refund_charge", 200],
      ["tools", "CALL", "no_such_tool", 404],
    ]);
    expect(trace[0].request_id).toBe(`${trace[1].request_id}.1`);
    expect(trace[0].request_body).toBe("charge=ch_AcmeNorthwindDup&reason=duplicate");
    expect(trace[1].query).toBe("via=json");
    expect(JSON.parse(trace[1].request_body)).toEqual({ charge: "ch_AcmeNorthwindDup", reason: "duplicate" });
    expect(JSON.parse(trace[1].response_body).object).toBe("refund");
    const d = await json(await call(`/admin/worlds/${w.id}/diff`, { headers: admin }));
    expect(d.entries.find((e: any) => e.type === "refunds").request_ids).toEqual([trace[0].request_id]);
  });

  it("an idempotency key makes a retried refund answer the first refund", async () => {
    const w = await newWorld();
    const args = { charge: "ch_AcmeNorthwindDup", amount: 1000, idempotency_key: "retry-1" };
    const first = await json(await tool(w.key, "refund_charge", args));
    const second = await json(await tool(w.key, "refund_charge", args));
    expect(second.id).toBe(first.id);
    expect((await diffOf(w)).filter((e: any) => e.type === "refunds")).toHaveLength(1);
  });

  it("a plan change on a subscription with several items asks which one, and changes nothing", async () => {
    const w = await newWorld();
    // Give the subscription a second item through REST first.
    const added = await form(w, "POST", "/v1/subscriptions/sub_AcmeNorthwind", "items[0][id]=si_AcmeNorthwind&items[1][price]=price_AcmeScaleMonthly&proration_behavior=none");
    expect(added.status, await added.clone().text()).toBe(200);
    const before = await diffOf(w);
    const res = await tool(w.key, "change_subscription_price", { subscription: "sub_AcmeNorthwind", price: "price_AcmeScaleMonthly" });
    expect(res.status).toBe(422);
    expect((await json(res)).error.message).toMatch(/2 items \(si_AcmeNorthwind, si_/);
    expect(await diffOf(w)).toEqual(before);
  });
});

describe("a world's scenario applies to the requests its tools make", () => {
  it("flaky-writes: the first refund fails as unavailable (503, before anything changed), the retry refunds once", async () => {
    const res = await call("/admin/worlds", { method: "POST", headers: admin, body: JSON.stringify({ seed: "acme-small", scenario: "flaky-writes" }) });
    const w = (await res.json()) as World;
    const args = { charge: "ch_AcmeNorthwindDup", idempotency_key: "dup-1" };
    const first = await tool(w.key, "refund_charge", args);
    expect(first.status).toBe(503);
    expect((await json(first)).error.code).toBe("unavailable");
    expect(await diffOf(w)).toEqual([]);
    const retried = await tool(w.key, "refund_charge", args);
    expect(retried.status).toBe(200);
    expect((await diffOf(w)).filter((e: any) => e.type === "refunds")).toHaveLength(1);
  });

  it("rate-limit-storm: a refused read says when to retry", async () => {
    const res = await call("/admin/worlds", { method: "POST", headers: admin, body: JSON.stringify({ seed: "acme-small", scenario: "rate-limit-storm" }) });
    const w = (await res.json()) as World;
    const seen: number[] = [];
    for (let i = 0; i < 3; i++) seen.push((await tool(w.key, "get_customer", { customer: "cus_AcmeNorthwind" })).status);
    // The storm refuses the 2nd and 3rd of every five billing requests; a tool's request is one of them.
    expect(seen).toEqual([200, 503, 503]);
    const calls = (await traceOf(w)).filter((r) => r.service === "tools");
    expect(JSON.parse(calls[1].response_body).error.message).toMatch(/rate_limit: .*Retry after 1 s\./);
  });
});

describe("hostile bodies are refused before any world sees them", () => {
  const PROBES = ["amount", "polluted", "status", "charge"];
  const clean = () => {
    const probe = {} as Record<string, unknown>;
    for (const k of PROBES) expect(probe[k], `Object.prototype.${k}`).toBeUndefined();
  };

  const cases: Array<[string, string, number, string, RegExp]> = [
    ["__proto__ at the top", '{"name":"refund_charge","arguments":{"charge":"ch_AcmeNorthwindDup"},"__proto__":{"polluted":"yes"}}', 400, "invalid_request", /__proto__/],
    ["__proto__ in the arguments", '{"name":"refund_charge","arguments":{"charge":"ch_AcmeNorthwindDup","__proto__":{"amount":1}}}', 400, "invalid_request", /__proto__/],
    ["constructor.prototype in the arguments", '{"name":"refund_charge","arguments":{"charge":"ch_AcmeNorthwindDup","constructor":{"prototype":{"amount":1}}}}', 400, "invalid_request", /constructor/],
    ["__proto__ inside arguments sent as text", JSON.stringify({ name: "refund_charge", arguments: '{"charge":"ch_AcmeNorthwindDup","__proto__":{"amount":1}}' }), 422, "invalid_arguments", /__proto__/],
    ["arguments nested 10,000 levels", `{"name":"refund_charge","arguments":{"charge":"ch_AcmeNorthwindDup","metadata":${'{"a":'.repeat(10_000)}1${"}".repeat(10_000)}}}`, 400, "invalid_request", /nested deeper than 32/],
    ["a body that is not JSON", "name=refund_charge&charge=ch_AcmeNorthwindDup", 400, "invalid_request", /not valid JSON/],
    ["a body that is a list", '[{"name":"refund_charge"}]', 400, "invalid_request", /body/],
    ["a body with an unknown field", '{"name":"refund_charge","arguments":{"charge":"ch_AcmeNorthwindDup"},"confirm":true}', 400, "invalid_request", /confirm/],
    ["a tool name longer than any tool's", JSON.stringify({ name: "x".repeat(10_000), arguments: {} }), 400, "invalid_request", /name/],
  ];
  for (const [what, body, status, code, message] of cases) {
    it(`${what}: ${status} ${code}, nothing changed`, async () => {
      const w = await newWorld();
      const res = await rawCall(w.key, body);
      const answer = await json(res);
      expect(res.status, JSON.stringify(answer)).toBe(status);
      expect(answer.error.code).toBe(code);
      expect(answer.error.message).toMatch(message);
      clean();
      expect(await diffOf(w)).toEqual([]);
    });
  }

  it("a body over 1 MB is 413 request_too_large, nothing changed", async () => {
    const w = await newWorld();
    const res = await rawCall(w.key, JSON.stringify({ name: "reply_to_ticket", arguments: { ticket: 4101, body: "x".repeat(1024 * 1024 + 1) } }));
    expect(res.status).toBe(413);
    expect((await json(res)).error.code).toBe("request_too_large");
    expect(await diffOf(w)).toEqual([]);
    expect(await traceOf(w)).toEqual([]);
  });

  it("wrong methods are 405 with the one that works", async () => {
    const w = await newWorld();
    const res = await call("/tools/v1/call", { headers: bearer(w.key) });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
  });
});

// Each write tool, and the REST request it stands for, in two fresh worlds: the diffs must be identical.
const PARITY: Array<{ name: string; args: Record<string, unknown>; rest: (w: World) => Promise<Response> }> = [
  { name: "refund_charge", args: { charge: "ch_AcmeNorthwind0903", amount: 2500, reason: "requested_by_customer" }, rest: (w) => form(w, "POST", "/v1/refunds", "charge=ch_AcmeNorthwind0903&amount=2500&reason=requested_by_customer") },
  { name: "credit_customer_balance", args: { customer: "cus_AcmeNorthwind", amount: 1000, description: "Outage credit" }, rest: (w) => form(w, "POST", "/v1/customers/cus_AcmeNorthwind/balance_transactions", "amount=-1000&currency=usd&description=Outage+credit") },
  { name: "void_invoice", args: { invoice: "in_AcmeDelta0903" }, rest: (w) => form(w, "POST", "/v1/invoices/in_AcmeDelta0903/void") },
  { name: "cancel_subscription", args: { subscription: "sub_AcmeLumen", at_period_end: true }, rest: (w) => form(w, "POST", "/v1/subscriptions/sub_AcmeLumen", "cancel_at_period_end=true") },
  { name: "cancel_subscription", args: { subscription: "sub_AcmeLumen", at_period_end: false }, rest: (w) => form(w, "DELETE", "/v1/subscriptions/sub_AcmeLumen") },
  {
    name: "change_subscription_price",
    args: { subscription: "sub_AcmeHarborDowntown", price: "price_AcmeStarterMonthly" },
    rest: (w) => form(w, "POST", "/v1/subscriptions/sub_AcmeHarborDowntown", "items[0][id]=si_AcmeHarborDowntown&items[0][price]=price_AcmeStarterMonthly"),
  },
  { name: "reply_to_ticket", args: { ticket: 4101, body: "Refunded the duplicate.", status: "solved" }, rest: (w) => desk(w, "PUT", "/api/v2/tickets/4101.json", { ticket: { comment: { body: "Refunded the duplicate.", public: true }, status: "solved" } }) },
  { name: "add_internal_note", args: { ticket: 4102, body: "Card updated; retry tomorrow." }, rest: (w) => desk(w, "PUT", "/api/v2/tickets/4102.json", { ticket: { comment: { body: "Card updated; retry tomorrow.", public: false } } }) },
  { name: "set_ticket_status", args: { ticket: 4103, status: "pending" }, rest: (w) => desk(w, "PUT", "/api/v2/tickets/4103.json", { ticket: { status: "pending" } }) },
];

describe("a write tool leaves exactly the diff of its REST request", () => {
  for (const p of PARITY) {
    it(`${p.name} ${JSON.stringify(p.args)}`, async () => {
      const [viaRest, viaTool] = [await newWorld(), await newWorld()];
      const rest = await p.rest(viaRest);
      expect(rest.status, await rest.clone().text()).toBeLessThan(300);
      const res = await tool(viaTool.key, p.name, p.args);
      const result = await json(res);
      expect(res.status, JSON.stringify(result)).toBe(200);
      const restDiff = await diffOf(viaRest);
      expect(restDiff.length).toBeGreaterThan(0);
      expect(await diffOf(viaTool)).toEqual(restDiff);
      // The answer is the API's own object, as the REST request answered it.
      expect(result).toEqual(await json(rest));
    });
  }
});

describe("the help desk's reads", () => {
  it("lists tickets by status and requester, oldest first, and reads a requester", async () => {
    const w = await newWorld();
    const open = await json(await tool(w.key, "list_tickets", { status: "new" }));
    expect(open.tickets.map((t: any) => t.id)).toEqual(expect.arrayContaining([4101, 4103, 4104]));
    const created = open.tickets.map((t: any) => t.created_at);
    expect(created).toEqual([...created].sort());
    expect(open.tickets.every((t: any) => t.status === "new" && t.result_type === undefined)).toBe(true);
    expect(open).toMatchObject({ page: 1, has_more: false });
    const mine = await json(await tool(w.key, "list_tickets", { requester_email: "billing.northwind@example.com" }));
    expect(mine.tickets.map((t: any) => t.id)).toEqual([4101]);
    const user = await json(await tool(w.key, "get_user", { user: mine.tickets[0].requester_id }));
    expect(user.user.email).toBe("billing.northwind@example.com");
    const comments = await json(await tool(w.key, "list_ticket_comments", { ticket: 4105 }));
    expect(comments.comments.length).toBeGreaterThanOrEqual(2);
    expect((await tool(w.key, "get_ticket", { ticket: 999999 })).status).toBe(404);
  });
});
