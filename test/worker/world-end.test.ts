// The end of a world in one call (POST /admin/worlds/:id/end): the final diff and trace in the answer, the same
// trace archived to R2 before the storage goes, nothing from an agent slipping in while it ends.
import { exports, env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { World } from "../../durable-objects/world";
import type { TwinRequest } from "../../durable-objects/protocol";
import { sha256Hex } from "../../src/core/util/canonical";

const admin = { authorization: "Bearer test-token", "content-type": "application/json" };
const call = (path: string, init: RequestInit = {}) => exports.default.fetch(new Request(`http://twin.test${path}`, init));

async function world(): Promise<{ id: string; key: string; auth: Record<string, string> }> {
  const w = (await (await call("/admin/worlds", { method: "POST", headers: admin, body: JSON.stringify({ seed: "acme-small" }) })).json()) as { id: string; key: string };
  return { ...w, auth: { authorization: `Bearer ${w.key}` } };
}

interface Ended {
  id: string;
  deleted: true;
  trace: string;
  diff: { world: string; entries: Array<{ type: string; id: string; op: string }> };
  trace_records: Array<{ request_id: string; method: string; path: string; status: number; response_body: string }>;
}

describe("ending a world", () => {
  it("answers the final diff and every traced request, archives that trace, and deletes the world", async () => {
    const w = await world();
    const refund = await call("/v1/refunds", { method: "POST", headers: { ...w.auth, "content-type": "application/x-www-form-urlencoded" }, body: "charge=ch_AcmeNorthwindDup" });
    expect(refund.status).toBe(200);
    const read = await call("/v1/customers/cus_AcmeNorthwind", { headers: w.auth });
    const readBody = await read.text();
    const res = await call(`/admin/worlds/${w.id}/end`, { method: "POST", headers: admin });
    expect(res.status).toBe(200);
    const ended = (await res.json()) as Ended;
    expect(ended).toMatchObject({ id: w.id, deleted: true, trace: `traces/${w.id}.jsonl` });
    expect(ended.diff.world).toBe(w.id);
    expect(ended.diff.entries).toContainEqual(expect.objectContaining({ type: "refunds", op: "created" }));
    // The buffered read is in the trace too, with its body.
    expect(ended.trace_records.map((t) => [t.method, t.path, t.status])).toEqual([
      ["POST", "/v1/refunds", 200],
      ["GET", "/v1/customers/cus_AcmeNorthwind", 200],
    ]);
    expect(ended.trace_records[1]!.response_body).toBe(readBody);
    const archived = await env.ARTIFACTS.get(ended.trace);
    expect(await archived!.text()).toBe(ended.trace_records.map((t) => JSON.stringify(t) + "\n").join(""));
    expect((await call(`/admin/worlds/${w.id}`, { headers: admin })).status).toBe(404);
    expect((await call("/v1/customers/cus_AcmeNorthwind", { headers: w.auth })).status).toBe(401);
    const row = await env.DB.prepare("SELECT deleted_at FROM worlds WHERE id = ?").bind(w.id).first<{ deleted_at: number | null }>();
    expect(row?.deleted_at).not.toBeNull();
  });

  it("answers 404 world_not_found for a world already ended, and the app's not_found for an unknown route", async () => {
    const w = await world();
    expect((await call(`/admin/worlds/${w.id}/end`, { method: "POST", headers: admin })).status).toBe(200);
    const again = await call(`/admin/worlds/${w.id}/end`, { method: "POST", headers: admin });
    expect(again.status).toBe(404);
    expect(((await again.json()) as { error: { code: string } }).error.code).toBe("world_not_found");
    // What an older server answers for this route: the CLI falls back on this code, never on world_not_found.
    const unknown = await call(`/admin/worlds/${w.id}/finish`, { method: "POST", headers: admin });
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe("not_found");
  });

  it("needs the server token", async () => {
    const w = await world();
    expect((await call(`/admin/worlds/${w.id}/end`, { method: "POST", headers: w.auth })).status).toBe(401);
    expect((await call(`/admin/worlds/${w.id}`, { headers: admin })).status).toBe(200);
  });

  it("refuses agent requests that arrive while the world is ending, so none is left out of the archive", async () => {
    const w = await world();
    const req: TwinRequest = {
      service: "stripe",
      method: "POST",
      path: "/v1/refunds",
      query: "",
      body: "charge=ch_AcmeNorthwindDup",
      contentType: "application/x-www-form-urlencoded",
      headers: { idempotencyKey: null, stripeVersion: null },
      keyHash: await sha256Hex(w.key),
      requestId: "req_LateArrival0001",
      origin: "http://twin.test",
    };
    await runInDurableObject(env.WORLD.getByName(w.id), async (instance: World) => {
      const ending = instance.end({ archiveKey: `traces/${w.id}.jsonl`, diff: true });
      // Starts while the archive is being written.
      const late = await instance.twin(req);
      expect(late.status).toBe(401);
      const ended = await ending;
      expect(ended!.diff!.entries).toEqual([]);
      expect(ended!.trace).toEqual([]);
      expect(await instance.end({ archiveKey: "x", diff: false })).toBeNull();
    });
  });

  it("destroys without archiving, answering whether there was a world", async () => {
    const w = await world();
    await runInDurableObject(env.WORLD.getByName(w.id), async (instance: World) => {
      expect(await instance.destroy()).toBe(true);
      expect(instance.exists()).toBe(false);
      expect(await instance.destroy()).toBe(false);
    });
    expect(await env.ARTIFACTS.head(`traces/${w.id}.jsonl`)).toBeNull();
  });
});
