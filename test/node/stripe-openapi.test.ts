// Every object the billing twin returns, checked against schemas it did not write: Stripe's published OpenAPI
// document of 2022-04-12 (API 2020-08-27, the version most agents' examples pin) and the object declarations of
// the official `stripe` package for the current version it targets. A world on the real local server is driven
// through reads and writes that touch every resource; each object in each answer (list items included, nested
// resources through the schemas' own references) must validate, under each version.
import { Validator, type OutputUnit } from "@cfworker/json-schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalServer, type LocalServer } from "../../src/cli/server/local";
import { declaredSchemas, openApiSchemas, type SchemaSet } from "./helpers/stripe-schemas";

let server: LocalServer;
let openApi: SchemaSet;
let declared: SchemaSet;
const validators = new Map<SchemaSet, Map<string, Validator>>();
beforeAll(async () => {
  // Reading the client's declarations takes the checker several seconds of CPU: done before the server starts.
  openApi = openApiSchemas("2022-04-12.json");
  declared = declaredSchemas();
  // Compiled before the server starts: compiling between requests can outlast the server's keep-alive.
  for (const set of [openApi, declared]) validators.set(set, compile(set));
  server = await startLocalServer();
});
afterAll(async () => {
  await server?.stop();
});

type Step = [method: "GET" | "POST" | "DELETE", path: string, params?: Record<string, string>];

/** Reads of every collection and one of each object, then the writes support agents make. */
const STEPS: Step[] = [
  ["GET", "/v1/customers", { limit: "100" }],
  ["GET", "/v1/customers/cus_AcmeIris", { "expand[0]": "subscriptions", "expand[1]": "tax_ids" }],
  ["GET", "/v1/customers/search", { query: "email~'acme'" }],
  ["GET", "/v1/customers/cus_AcmeKestrel/balance_transactions"],
  ["GET", "/v1/products"],
  ["GET", "/v1/prices", { "expand[0]": "data.product" }],
  ["GET", "/v1/subscriptions", { status: "all", limit: "100" }],
  ["GET", "/v1/subscription_items", { subscription: "sub_AcmeNorthwind" }],
  ["GET", "/v1/invoices", { limit: "100", "expand[0]": "data.payments" }],
  ["GET", "/v1/invoices/in_AcmeNorthwind0903/lines"],
  ["GET", "/v1/invoiceitems"],
  ["POST", "/v1/invoices", { customer: "cus_AcmeNorthwind", collection_method: "send_invoice", days_until_due: "7" }],
  ["POST", "/v1/invoices/create_preview", { customer: "cus_AcmeIris" }],
  ["GET", "/v1/invoices/upcoming", { customer: "cus_AcmeIris" }],
  ["GET", "/v1/invoices/upcoming/lines", { customer: "cus_AcmeIris" }],
  ["GET", "/v1/credit_notes/preview", { invoice: "in_AcmeNorthwind0903", amount: "500", credit_amount: "500" }],
  ["GET", "/v1/credit_notes/preview/lines", { invoice: "in_AcmeNorthwind0903", amount: "500", credit_amount: "500" }],
  ["POST", "/v1/subscriptions", { customer: "cus_AcmeNorthwind", "items[0][price]": "price_AcmeScaleMonthly" }],
  ["POST", "/v1/subscription_items/si_AcmeNimbus", { quantity: "2" }],
  ["POST", "/v1/payment_intents/pi_AcmeNorthwindDup/cancel"],
  ["GET", "/v1/charges", { limit: "100", "expand[0]": "data.refunds" }],
  ["GET", "/v1/payment_intents", { limit: "100" }],
  ["GET", "/v1/refunds"],
  ["GET", "/v1/credit_notes", { "expand[0]": "data.refunds.refund" }],
  ["GET", "/v1/credit_notes/cn_AcmeIris0808/lines"],
  ["GET", "/v1/invoice_payments"],
  ["GET", "/v1/customers/cus_nope"],
  ["GET", "/v1/disputes", { limit: "100", "expand[0]": "data.charge" }],
  ["GET", "/v1/disputes/du_AcmeKestrelWon"],
  ["POST", "/v1/disputes/du_AcmeLumenFraud", { "evidence[customer_name]": "Lumen Analytics", "metadata[ticket]": "1", submit: "true" }],
  ["POST", "/v1/disputes/du_AcmeMosaicInquiry/close"],
  ["GET", "/v1/balance"],
  ["GET", "/v1/payment_methods", { customer: "cus_AcmeNorthwind", type: "card" }],
  ["GET", "/v1/customers/cus_AcmeIris/payment_methods", { "expand[0]": "data.customer" }],
  ["POST", "/v1/payment_methods/pm_nope/detach"],
  ["GET", "/v1/balance_transactions", { limit: "100", "expand[0]": "data.source" }],
  ["POST", "/v1/refunds", { charge: "ch_AcmeNorthwindDup", reason: "duplicate" }],
  ["POST", "/v1/refunds", { charge: "ch_AcmeNorthwindDup" }],
  ["POST", "/v1/customers/cus_AcmeNorthwind/balance_transactions", { amount: "-500", currency: "usd", description: "goodwill" }],
  ["POST", "/v1/credit_notes", { invoice: "in_AcmeNorthwind0903", amount: "1000", credit_amount: "1000", reason: "order_change" }],
  ["POST", "/v1/subscriptions/sub_AcmeNorthwind", { cancel_at_period_end: "true" }],
  ["DELETE", "/v1/subscriptions/sub_AcmeBluebird"],
  ["POST", "/v1/customers", { email: "new@example.com", name: "New Person" }],
  ["POST", "/v1/subscriptions/sub_AcmeHarborMain", { "items[0][id]": "si_AcmeHarborMain", "items[0][price]": "price_AcmeGrowthMonthly" }],
  ["POST", "/v1/subscriptions/sub_AcmeJuniper", { "items[0][id]": "si_AcmeJuniper", "items[0][price]": "price_AcmeScaleMonthly", proration_behavior: "always_invoice" }],
  ["GET", "/v1/invoiceitems"],
  ["GET", "/v1/invoices", { customer: "cus_AcmeJuniper" }],
  ["GET", "/v1/payment_intents/pi_AcmeNorthwindDup"],
  ["DELETE", "/v1/customers/cus_AcmeGarnet"],
  ["GET", "/v1/customers/cus_AcmeGarnet"],
  ["GET", "/v1/balance_transactions", { type: "refund" }],
  ["GET", "/v1/charges/ch_AcmeNorthwindDup", { "expand[0]": "balance_transaction" }],
  // Coupons, promotion codes, discounts, tax ids, events.
  ["GET", "/v1/coupons"],
  ["POST", "/v1/coupons", { percent_off: "12.5", duration: "forever", name: "Twelve and a half" }],
  ["POST", "/v1/coupons/ACME-GOODWILL-20", { "metadata[ticket]": "T-1" }],
  ["GET", "/v1/promotion_codes", { coupon: "ACME-LOYALTY-15" }],
  ["GET", "/v1/promotion_codes/promo_AcmeComeback", { "expand[0]": "customer" }],
  ["GET", "/v1/customers/cus_AcmeFjord"],
  ["POST", "/v1/subscriptions/sub_AcmeLumen", { "discounts[0][promotion_code]": "promo_AcmeComeback", "expand[0]": "discounts" }],
  ["POST", "/v1/invoices/create_preview", { subscription: "sub_AcmeLumen" }],
  ["GET", "/v1/invoices/upcoming", { subscription: "sub_AcmeFjord" }],
  ["POST", "/v1/subscriptions", { customer: "cus_AcmeKestrel", "items[0][price]": "price_AcmeScaleMonthly", "discounts[0][coupon]": "ACME-GOODWILL-20", "expand[0]": "latest_invoice" }],
  ["DELETE", "/v1/subscriptions/sub_AcmeLumen/discount"],
  ["DELETE", "/v1/customers/cus_AcmeFjord/discount"],
  ["GET", "/v1/customers/cus_AcmeMosaic/tax_ids"],
  ["POST", "/v1/customers/cus_AcmeMosaic/tax_ids", { type: "gb_vat", value: "GB123456789" }],
  ["POST", "/v1/customers/cus_AcmeMosaic/tax_ids", { type: "gb_vat", value: "12" }],
  ["DELETE", "/v1/customers/cus_AcmeMosaic/tax_ids/txi_AcmeMosaicVat"],
  ["GET", "/v1/events", { limit: "100" }],
  ["GET", "/v1/events", { type: "customer.discount.deleted" }],
];

/** Every object the twin serves (its `object`, deleted_<object> for deletion stubs, error for the envelope). */
const OBJECTS = [
  "balance", "balance_transaction", "charge", "coupon", "credit_note", "credit_note_line_item", "customer", "customer_balance_transaction",
  "deleted_customer", "deleted_discount", "deleted_invoice", "deleted_product", "deleted_tax_id", "discount", "dispute", "error", "event",
  "invoice", "invoice_payment", "invoiceitem", "line_item", "payment_intent", "payment_method", "price", "product", "promotion_code",
  "refund", "subscription", "subscription_item", "tax_id",
];

const SCHEMA_ID = "https://worlds.invalid/stripe-schemas";

interface Failure {
  where: string;
  object: string;
  errors: string[];
}

/** Top-level fields an object carries that its schema does not declare, as "object.field". */
function undeclared(set: SchemaSet, name: string, o: Record<string, unknown>, into: Set<string>): void {
  const props = (set.$defs[name] as { properties?: Record<string, unknown> }).properties;
  if (props) for (const k of Object.keys(o)) if (!(k in props)) into.add(`${name}.${k}`);
}

function check(compiled: Map<string, Validator>, set: SchemaSet, where: string, body: unknown, failures: Failure[], seen: Set<string>, extra = new Set<string>()): void {
  const visit = (value: unknown, at: string) => {
    if (!value || typeof value !== "object") return;
    const o = value as Record<string, unknown>;
    if (o.object === "list" || o.object === "search_result") {
      (o.data as unknown[]).forEach((x, i) => visit(x, `${at}.data[${i}]`));
      return;
    }
    const name = "error" in o && !("object" in o) ? "error" : o.deleted === true ? `deleted_${String(o.object)}` : String(o.object);
    if (!set.$defs[name]) {
      failures.push({ where: at, object: name, errors: ["no schema for this object in the source"] });
      return;
    }
    seen.add(name);
    undeclared(set, name, o, extra);
    const result = compiled.get(name)!.validate(o);
    if (!result.valid) failures.push({ where: at, object: name, errors: meaningful(result.errors) });
  };
  visit(body, where);
}

function compile(set: SchemaSet): Map<string, Validator> {
  const out = new Map<string, Validator>();
  for (const name of OBJECTS) if (set.$defs[name]) out.set(name, new Validator({ $id: SCHEMA_ID, $defs: set.$defs, $ref: `#/$defs/${name}` }, "2020-12", false));
  return out;
}

const CONTAINERS = new Set(["anyOf", "$ref", "properties", "items", "additionalProperties", "allOf"]);

/**
 * The errors worth reading: a failed `anyOf` reports every alternative, so only the alternative that came
 * closest (fewest problems) is kept, outermost first; what remains are the leaf problems.
 */
function meaningful(errors: OutputUnit[]): string[] {
  let leaves = errors.filter((e) => !CONTAINERS.has(e.keyword));
  const unions = errors.filter((e) => e.keyword === "anyOf").sort((a, b) => a.keywordLocation.length - b.keywordLocation.length);
  for (const u of unions) {
    const prefix = `${u.keywordLocation}/`;
    const byBranch = new Map<string, OutputUnit[]>();
    for (const l of leaves) if (l.keywordLocation.startsWith(prefix)) {
      const branch = l.keywordLocation.slice(prefix.length).split("/")[0];
      byBranch.set(branch, [...(byBranch.get(branch) ?? []), l]);
    }
    if (byBranch.size < 2) continue;
    // An alternative of another kind entirely (null, a string id, another object) fails at the union itself.
    const foreign = (ls: OutputUnit[]) => ls.some((l) => l.instanceLocation === u.instanceLocation && (l.keyword === "type" || l.keyword === "const"));
    const best = [...byBranch.values()].sort((a, b) => Number(foreign(a)) - Number(foreign(b)) || a.length - b.length)[0];
    leaves = leaves.filter((l) => !l.keywordLocation.startsWith(prefix) || best.includes(l));
  }
  return [...new Set(leaves.map((l) => `${l.instanceLocation.replace(/^#/, "") || "/"} ${l.error}`))];
}

async function fetchStep(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (e) {
    throw new Error(`${init.method} ${url}: ${String((e as Error).cause ?? e)}`);
  }
}

async function run(version: string, set: SchemaSet, skip: (name: string) => boolean) {
  const compiled = validators.get(set)!;
  const res = await fetch(`${server.url}/admin/worlds`, {
    method: "POST",
    headers: { authorization: `Bearer ${server.token}`, "content-type": "application/json" },
    body: JSON.stringify({ seed: "acme-small" }),
  });
  expect(res.status).toBe(201);
  const world = (await res.json()) as { key: string };
  const failures: Failure[] = [];
  const seen = new Set<string>();
  const extra = new Set<string>();
  for (const [method, p, params] of STEPS) {
    const q = new URLSearchParams(params ?? {}).toString();
    const inQuery = method !== "POST";
    const r = await fetchStep(`${server.url}${p}${inQuery && q ? `?${q}` : ""}`, {
      method,
      headers: { authorization: `Bearer ${world.key}`, "stripe-version": version, "content-type": "application/x-www-form-urlencoded" },
      body: inQuery ? undefined : q,
    });
    const body = (await r.json()) as unknown;
    if (r.status >= 500) failures.push({ where: `${method} ${p}`, object: "-", errors: [`status ${r.status}: ${JSON.stringify(body)}`] });
    check(compiled, set, `${method} ${p}`, body, failures, seen, extra);
  }
  return { failures: failures.filter((f) => !skip(f.object)), seen, extra: [...extra].sort() };
}

/** One line per distinct problem (an object type's field), with where it was first seen and how often. */
function report(fs: Failure[]): string {
  const lines = new Map<string, { where: string; n: number }>();
  for (const f of fs)
    for (const e of f.errors) {
      const key = `${f.object}: ${e.replace(/\/\d+(?=\/|\s)/g, "/*")}`;
      const seen = lines.get(key);
      if (seen) seen.n++;
      else lines.set(key, { where: f.where, n: 1 });
    }
  return [...lines].map(([k, v]) => `${k}  (${v.n}x, first at ${v.where})`).join("\n");
}

describe("the product's attributes", () => {
  it("are served to versions before 2023-08-16 only, as the API dropped them then", async () => {
    const res = await fetch(`${server.url}/admin/worlds`, { method: "POST", headers: { authorization: `Bearer ${server.token}`, "content-type": "application/json" }, body: JSON.stringify({ seed: "acme-small" }) });
    const world = (await res.json()) as { key: string };
    const product = async (version: string | null) => {
      const r = await fetch(`${server.url}/v1/products/prod_AcmeStarter`, { headers: { authorization: `Bearer ${world.key}`, ...(version ? { "stripe-version": version } : {}) } });
      return (await r.json()) as Record<string, unknown>;
    };
    expect(await product("2023-08-15")).toMatchObject({ id: "prod_AcmeStarter", attributes: [] });
    expect(await product("2023-08-16")).not.toHaveProperty("attributes");
    expect(await product(null)).not.toHaveProperty("attributes");
  });
});

describe("billing twin responses against Stripe's own schemas", () => {
  it("validate against the OpenAPI document of 2022-04-12 under the 2020-08-27 pin", async () => {
    const set = openApi;
    // invoice_payment arrived with 2025-03-31; that version's document is the declarations' check below.
    const { failures, seen } = await run("2020-08-27", set, (n) => n === "invoice_payment");
    expect(report(failures)).toBe("");
    expect([...seen].sort()).toEqual(expect.arrayContaining(["balance", "balance_transaction", "charge", "coupon", "credit_note", "customer", "customer_balance_transaction", "deleted_discount", "deleted_tax_id", "dispute", "error", "event", "invoice", "invoiceitem", "line_item", "payment_intent", "payment_method", "price", "product", "promotion_code", "refund", "subscription", "subscription_item", "tax_id"]));
  });

  it("carry every field the official client declares under its current version", async () => {
    const set = declared;
    // The client declares no schema for the error envelope (errors are version-independent: checked above).
    const { failures, seen, extra } = await run(set.source.match(/API ([^)]+)/)![1], set, (n) => n === "error");
    expect(report(failures)).toBe("");
    // Nor a field the current version dropped (the product's attributes went with 2023-08-16).
    expect(extra).toEqual([]);
    expect([...seen].sort()).toEqual(expect.arrayContaining(["balance", "balance_transaction", "charge", "coupon", "credit_note", "customer", "deleted_discount", "deleted_tax_id", "dispute", "event", "invoice", "invoice_payment", "line_item", "payment_intent", "payment_method", "promotion_code", "subscription", "tax_id"]));
  });
});
