// POST /admin/worlds with an Idempotency-Key (issue 11 item 3): the CLI retries a creation whose connection was
// reset before the answer, and a retry must give the world the first attempt made, never a second one.
import { exports, env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

const admin = { authorization: "Bearer test-token", "content-type": "application/json" };
const call = (path: string, init: RequestInit = {}) => exports.default.fetch(new Request(`http://twin.test${path}`, init));
const create = (key: string | null, body: unknown = { seed: "acme-small" }) =>
  call("/admin/worlds", { method: "POST", headers: { ...admin, ...(key === null ? {} : { "idempotency-key": key }) }, body: JSON.stringify(body) });

async function worldRows(id: string): Promise<number> {
  return (await env.DB.prepare("SELECT count(*) AS n FROM worlds WHERE id = ?").bind(id).first<{ n: number }>())!.n;
}

describe("POST /admin/worlds with an Idempotency-Key", () => {
  it("answers the same world, key and count for a repeated request, and the world works with that key", async () => {
    const key = `wc_${crypto.randomUUID()}`;
    const first = await create(key);
    expect(first.status).toBe(201);
    const a = (await first.json()) as { id: string; key: string; objects: number };
    const second = await create(key);
    expect(second.status).toBe(201);
    expect(await second.json()).toEqual(a);
    expect(await worldRows(a.id)).toBe(1);
    const customer = await call("/v1/customers/cus_AcmeNorthwind", { headers: { authorization: `Bearer ${a.key}` } });
    expect(customer.status).toBe(200);
    // Without a key, or with another, every request is a new world.
    const other = (await (await create(`wc_${crypto.randomUUID()}`)).json()) as { id: string };
    const plain = (await (await create(null)).json()) as { id: string };
    expect(new Set([a.id, other.id, plain.id]).size).toBe(3);
  });

  it("gives concurrent repeats of one request one world", async () => {
    const key = `wc_${crypto.randomUUID()}`;
    const answers = await Promise.all([create(key), create(key), create(key)]);
    const bodies = (await Promise.all(answers.map((r) => r.json()))) as { id: string }[];
    expect(answers.map((r) => r.status)).toEqual([201, 201, 201]);
    expect(new Set(bodies.map((b) => b.id)).size).toBe(1);
  });

  it("refuses the key for a different world, and after its world was deleted", async () => {
    const key = `wc_${crypto.randomUUID()}`;
    const made = (await (await create(key)).json()) as { id: string };
    const different = await create(key, { seed: "acme-small", scenario: "slow-api" });
    expect(different.status).toBe(409);
    expect(((await different.json()) as { error: { code: string } }).error.code).toBe("idempotency_key_reused");
    expect((await call(`/admin/worlds/${made.id}`, { method: "DELETE", headers: admin })).status).toBe(200);
    const after = await create(key);
    expect(after.status).toBe(409);
    expect(((await after.json()) as { error: { message: string } }).error.message).toContain("since been deleted");
    expect((await call(`/admin/worlds/${made.id}`, { headers: admin })).status).toBe(404);
  });

  it("refuses a malformed key", async () => {
    const res = await create("has spaces");
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("invalid_idempotency_key");
  });
});
