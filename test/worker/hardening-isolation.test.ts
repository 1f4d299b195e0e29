// One world's hostile input must never change what another world answers. Every entry point that builds an
// object from user-chosen keys gets a prototype-pollution attempt; after each, a full refund in a fresh world must
// answer exactly what it answers in a world no attempt came near, and Object.prototype must stay clean.
import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";

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

const form = (w: World, method: string, path: string, body: string, headers: Record<string, string> = {}) =>
  call(path, { method, headers: { authorization: `Bearer ${w.key}`, "content-type": "application/x-www-form-urlencoded", ...headers }, body: method === "GET" ? undefined : body });

const jsonTo = (w: World, method: string, path: string, body: string) =>
  call(path, { method, headers: { authorization: `Bearer ${w.key}`, "content-type": "application/json" }, body });

/** The normal request whose answer must not move: a full refund of a 99.00 charge. */
async function fullRefund(): Promise<{ status: number; body: Record<string, unknown> }> {
  const w = await newWorld();
  const res = await form(w, "POST", "/v1/refunds", "charge=ch_AcmeNorthwind0903");
  const body = (await res.json()) as Record<string, unknown>;
  return { status: res.status, body };
}

const PROTO_PROBES = ["amount", "polluted", "status", "x"];
function prototypeIsClean(): void {
  const probe = {} as Record<string, unknown>;
  for (const k of PROTO_PROBES) expect(probe[k], `Object.prototype.${k}`).toBeUndefined();
}

let control: { status: number; body: Record<string, unknown> };
beforeAll(async () => {
  control = await fullRefund();
  expect(control.status).toBe(200);
  expect(control.body.amount).toBe(9900);
});

type Attempt = { name: string; send: (w: World) => Promise<Response>; status: number; shape: (body: Record<string, any>) => void };

const stripeRefusal = (param: string) => (body: Record<string, any>) => {
  expect(body.error.type).toBe("invalid_request_error");
  expect(body.error.param).toBe(param);
};

const ATTEMPTS: Attempt[] = [
  { name: "form body __proto__[amount]", send: (w) => form(w, "POST", "/v1/refunds", "__proto__[amount]=1"), status: 400, shape: stripeRefusal("__proto__[amount]") },
  { name: "form body constructor[prototype][amount]", send: (w) => form(w, "POST", "/v1/refunds", "charge=ch_AcmeNorthwind0903&constructor[prototype][amount]=1"), status: 400, shape: stripeRefusal("constructor[prototype][amount]") },
  { name: "query string __proto__[x]", send: (w) => form(w, "GET", "/v1/customers?__proto__[x]=y", ""), status: 400, shape: stripeRefusal("__proto__[x]") },
  { name: "JSON body __proto__", send: (w) => jsonTo(w, "POST", "/v1/refunds", '{"__proto__":{"amount":1,"polluted":"yes"}}'), status: 400, shape: stripeRefusal("__proto__") },
  { name: "metadata[__proto__]", send: (w) => form(w, "POST", "/v1/customers/cus_AcmeMosaic", "metadata[__proto__]=x&metadata[ok]=1"), status: 400, shape: stripeRefusal("metadata[__proto__]") },
  { name: "JSON metadata.constructor.prototype", send: (w) => jsonTo(w, "POST", "/v1/customers/cus_AcmeMosaic", '{"metadata":{"constructor":{"prototype":{"polluted":"yes"}}}}'), status: 400, shape: stripeRefusal("metadata[constructor]") },
  {
    name: "expand[]=__proto__.x",
    send: (w) => form(w, "GET", "/v1/charges/ch_AcmeNorthwind0903?expand[]=__proto__.x", ""),
    status: 400,
    shape: (b) => expect(b.error.param).toBe("expand"),
  },
  {
    name: "help desk ticket body __proto__",
    send: (w) => jsonTo(w, "PUT", "/api/v2/tickets/4101.json", '{"ticket":{"__proto__":{"status":"solved","polluted":"yes"}}}'),
    status: 400,
    shape: (b) => expect(b.description).toMatch(/__proto__/),
  },
  {
    name: "admin seed document with __proto__",
    send: () => call("/admin/worlds", { method: "POST", headers: admin, body: '{"seed":{"version":1,"name":"x","clock":"2026-09-15T12:00:00Z","currency":"usd","data":{"customers":[{"id":"cus_X","__proto__":{"polluted":"yes"}}]}}}' }),
    status: 400,
    shape: (b) => expect(b.error.issues[0].path).toBe("seed.data.customers[0].__proto__"),
  },
  {
    name: "admin tasks file with a __proto__ key",
    send: () => call("/admin/tasks/validate", { method: "POST", headers: admin, body: JSON.stringify({ tasks: "version: 1\nseed: acme-small\n__proto__:\n  polluted: yes\ntasks: []\n" }) }),
    status: 422,
    shape: (b) => expect(JSON.stringify(b)).toMatch(/__proto__/),
  },
];

describe("one world's input never reaches another world", () => {
  for (const attempt of ATTEMPTS) {
    it(`${attempt.name}: refused in the service's own shape, and the next world's refund is unchanged`, async () => {
      const attacker = await newWorld();
      const res = await attempt.send(attacker);
      const body = (await res.json()) as Record<string, any>;
      expect(res.status, JSON.stringify(body)).toBe(attempt.status);
      attempt.shape(body);
      prototypeIsClean();
      const after = await fullRefund();
      expect(after).toEqual(control);
      const recreated = await call("/admin/worlds", { method: "POST", headers: admin, body: JSON.stringify({ seed: "acme-small", scenario: null }) });
      expect(recreated.status).toBe(201);
    });
  }
});

describe("nesting is bounded where bodies are read", () => {
  const nestedKey = (levels: number) => `metadata${"[a]".repeat(levels - 1)}`;
  const nestedJson = (levels: number) => `${'{"metadata":'}${'{"a":'.repeat(levels - 1)}"v"${"}".repeat(levels)}`;

  it("a JSON body nested 10,000 levels answers the billing API's 400 naming the parameter", async () => {
    const w = await newWorld();
    const res = await jsonTo(w, "POST", "/v1/customers/cus_AcmeMosaic", `{"metadata":${'{"a":'.repeat(10_000)}"v"${"}".repeat(10_001)}`);
    const body = (await res.json()) as Record<string, any>;
    expect(res.status).toBe(400);
    expect(body.error.type).toBe("invalid_request_error");
    expect(body.error.param).toMatch(/^metadata\[a\]\[a\]/);
    expect(body.error.message).toMatch(/nested more than 8 levels/);
  });

  it("a form body nested 20,000 levels with an Idempotency-Key answers 400, not 500", async () => {
    const w = await newWorld();
    const res = await form(w, "POST", "/v1/customers/cus_AcmeMosaic", `${nestedKey(20_000)}=v`, { "idempotency-key": "deep-1" });
    const body = (await res.json()) as Record<string, any>;
    expect(res.status).toBe(400);
    expect(body.error.type).toBe("invalid_request_error");
    expect(body.error.param).toMatch(/^metadata\[a\]/);
  });

  it("ordinary nesting (metadata[a]) still works as form and as JSON", async () => {
    const w = await newWorld();
    const res = await form(w, "POST", "/v1/customers/cus_AcmeMosaic", `${nestedKey(2)}=v`);
    expect(res.status).toBe(200);
    const ok = await jsonTo(w, "POST", "/v1/customers/cus_AcmeMosaic", nestedJson(2));
    expect(ok.status).toBe(200);
  });

  it("the help desk and the admin API refuse deep bodies in their own shapes", async () => {
    const w = await newWorld();
    const deep = `{"ticket":{"comment":${'{"a":'.repeat(10_000)}1${"}".repeat(10_002)}`;
    const desk = await jsonTo(w, "PUT", "/api/v2/tickets/4101.json", deep);
    expect(desk.status).toBe(400);
    expect(((await desk.json()) as { error: string }).error).toBe("InvalidNesting");
    const adminRes = await call("/admin/worlds", { method: "POST", headers: admin, body: `{"seed":${"[".repeat(10_000)}${"]".repeat(10_000)}}` });
    expect(adminRes.status).toBe(400);
    expect(((await adminRes.json()) as { error: { code: string; message: string } }).error.message).toMatch(/nested deeper than 64 levels/);
  });
});
