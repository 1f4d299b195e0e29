// Test helpers for the billing twin: a world from an inline seed, and a client that speaks the form encoding.
import { exports } from "cloudflare:workers";
import Stripe from "stripe";

const admin = { authorization: "Bearer test-token", "content-type": "application/json" };
// The pool's typings do not describe the Worker's default export; it is the Hono app's fetch.
const worker = (exports as unknown as { default: { fetch(req: Request): Promise<Response> } }).default;
export const call = (path: string, init: RequestInit = {}) => worker.fetch(new Request(`http://twin.test${path}`, init));

/** The official client, unmodified except for where it sends requests (this Worker, in process). */
export function client(key: string, opts: { apiVersion?: string } = {}): Stripe {
  return new Stripe(key, {
    host: "twin.test",
    protocol: "http",
    port: 80,
    maxNetworkRetries: 0,
    httpClient: Stripe.createFetchHttpClient((url: string | URL | Request, init?: RequestInit) => worker.fetch(new Request(url, init))),
    ...(opts.apiVersion ? { apiVersion: opts.apiVersion as never } : {}),
  });
}

export const CLOCK = "2026-09-15T12:00:00Z";
export const NOW = Date.parse(CLOCK) / 1000;
const DAY = 86400;

/** A small billing world: three customers (two share an email), products with monthly/yearly prices, subscriptions. */
export function billingSeed(overrides: Record<string, unknown> = {}) {
  return {
    version: 1,
    name: "billing-test",
    clock: CLOCK,
    currency: "usd",
    ...overrides,
    data: {
      customers: [
        { id: "cus_Alice", email: "alice@example.com", name: "Alice Anders", created: NOW - 90 * DAY, metadata: { tier: "gold" } },
        { id: "cus_Bob", email: "shared@example.com", name: "Bob Brown", created: NOW - 60 * DAY, balance: -500 },
        { id: "cus_Carol", email: "shared@example.com", name: "Carol Chen", created: NOW - 30 * DAY, phone: "+15550100" },
      ],
      products: [
        { id: "prod_Starter", name: "Starter", created: NOW - 400 * DAY },
        { id: "prod_Growth", name: "Growth", created: NOW - 300 * DAY },
        { id: "prod_Legacy", name: "Legacy", active: false, created: NOW - 500 * DAY },
      ],
      prices: [
        { id: "price_StarterMonthly", product: "prod_Starter", unit_amount: 3000, recurring: { interval: "month" }, created: NOW - 400 * DAY, lookup_key: "starter_monthly" },
        { id: "price_GrowthMonthly", product: "prod_Growth", unit_amount: 9000, recurring: { interval: "month" }, created: NOW - 300 * DAY },
        { id: "price_GrowthYearly", product: "prod_Growth", unit_amount: 90000, recurring: { interval: "year" }, created: NOW - 299 * DAY },
        { id: "price_LegacyMonthly", product: "prod_Legacy", unit_amount: 1000, active: false, recurring: { interval: "month" }, created: NOW - 500 * DAY },
        { id: "price_Setup", product: "prod_Starter", unit_amount: 5000, created: NOW - 398 * DAY },
      ],
      subscriptions: [
        {
          id: "sub_Alice",
          customer: "cus_Alice",
          status: "active",
          created: NOW - 90 * DAY,
          items: [{ id: "si_Alice", price: "price_StarterMonthly", current_period_start: NOW - 15 * DAY, current_period_end: NOW + 15 * DAY }],
          metadata: { plan: "starter" },
        },
        {
          id: "sub_Bob",
          customer: "cus_Bob",
          status: "past_due",
          created: NOW - 60 * DAY,
          items: [{ id: "si_Bob", price: "price_GrowthMonthly", quantity: 2, current_period_start: NOW - 10 * DAY, current_period_end: NOW + 20 * DAY }],
        },
        {
          id: "sub_CarolOld",
          customer: "cus_Carol",
          status: "canceled",
          created: NOW - 30 * DAY,
          canceled_at: NOW - 5 * DAY,
          items: [{ id: "si_CarolOld", price: "price_StarterMonthly", current_period_start: NOW - 30 * DAY, current_period_end: NOW }],
        },
      ],
      balance_transactions: [{ id: "cbtxn_BobInitial", customer: "cus_Bob", amount: -500, type: "initial", created: NOW - 60 * DAY }],
    },
  };
}

export interface TestWorld {
  id: string;
  key: string;
}

export async function createWorld(seed: unknown = billingSeed()): Promise<TestWorld> {
  const res = await call("/admin/worlds", { method: "POST", headers: admin, body: JSON.stringify({ seed }) });
  if (res.status !== 201) throw new Error(`world creation failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as TestWorld;
}

export async function diff(world: TestWorld): Promise<{ entries: Array<{ type: string; id: string; op: string; customer: string | null; fields?: Record<string, { before: unknown; after: unknown }>; after: Record<string, unknown> | null }> }> {
  const res = await call(`/admin/worlds/${world.id}/diff`, { headers: admin });
  return (await res.json()) as never;
}

/** Form-encodes a nested object the way the official clients do (arrays indexed, brackets unescaped). */
export function form(params: Record<string, unknown>, prefix = ""): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(params)) {
    const key = prefix ? `${prefix}[${k}]` : k;
    if (v === undefined) continue;
    if (v !== null && typeof v === "object") parts.push(form(v as Record<string, unknown>, key));
    else parts.push(`${key}=${encodeURIComponent(v === null ? "" : String(v))}`);
  }
  return parts.filter(Boolean).join("&");
}

export interface StripeReply<T = Record<string, any>> {
  status: number;
  body: T;
  headers: Headers;
}

export async function stripe<T = Record<string, any>>(
  world: TestWorld,
  method: string,
  path: string,
  opts: { params?: Record<string, unknown>; raw?: string; headers?: Record<string, string>; contentType?: string } = {},
): Promise<StripeReply<T>> {
  const body = opts.raw ?? (opts.params ? form(opts.params) : "");
  const inQuery = method === "GET" || method === "DELETE";
  const url = inQuery && body ? `${path}${path.includes("?") ? "&" : "?"}${body}` : path;
  const res = await call(url, {
    method,
    headers: { authorization: `Bearer ${world.key}`, "content-type": opts.contentType ?? "application/x-www-form-urlencoded", ...(opts.headers ?? {}) },
    body: inQuery ? undefined : body,
  });
  return { status: res.status, body: (await res.json()) as T, headers: res.headers };
}

/** The error a client call fails with; a call that succeeds fails the test. */
export async function rejects(p: Promise<unknown>): Promise<Stripe.errors.StripeError> {
  try {
    await p;
  } catch (e) {
    return e as Stripe.errors.StripeError;
  }
  throw new Error("expected the call to fail");
}
