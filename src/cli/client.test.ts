// The admin client over its node:http transport: errors a user can act on, and ending a world on a server that
// predates POST /admin/worlds/:id/end.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { AdminClient, ServerError } from "./client";

type Handler = (req: http.IncomingMessage, body: string, res: http.ServerResponse) => void;
const servers: http.Server[] = [];

async function serve(handler: Handler): Promise<string> {
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => handler(req, body, res));
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r).closeAllConnections());
});

const json = (res: http.ServerResponse, status: number, value: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
const diff = { world: "w_AAAAAAAAAAAAAAAA", seed: { name: "s", hash: "h" }, clock: "2026-01-01T00:00:00Z", entries: [], counts: {} };
const record = { seq: 1, request_id: "req_1", service: "stripe", method: "GET", path: "/v1/customers", query: "", request_body: "", status: 200, response_body: "{}", replayed: false, note: null };

describe("AdminClient", () => {
  it("ends a world in one call, sending the token", async () => {
    const seen: string[] = [];
    const url = await serve((req, _body, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers.authorization}`);
      json(res, 200, { id: "w_AAAAAAAAAAAAAAAA", deleted: true, trace: "traces/w_AAAAAAAAAAAAAAAA.jsonl", diff, trace_records: [record] });
    });
    const ended = await new AdminClient(url, "tok").endWorld("w_AAAAAAAAAAAAAAAA");
    expect(ended).toEqual({ diff, trace: [record], person: null });
    expect(seen).toEqual(["POST /admin/worlds/w_AAAAAAAAAAAAAAAA/end Bearer tok"]);
  });

  it("falls back to diff, trace and delete on a server without the end route", async () => {
    const seen: string[] = [];
    const url = await serve((req, _body, res) => {
      seen.push(`${req.method} ${req.url}`);
      if (req.url!.endsWith("/end")) return json(res, 404, { error: { code: "not_found", message: `No route ${req.method} ${req.url}.` } });
      if (req.url!.endsWith("/diff")) return json(res, 200, diff);
      if (req.url!.endsWith("/trace")) return res.writeHead(200, { "content-type": "application/x-ndjson" }).end(JSON.stringify(record) + "\n");
      json(res, 200, { id: "w_AAAAAAAAAAAAAAAA", deleted: true, trace: "traces/w_AAAAAAAAAAAAAAAA.jsonl" });
    });
    const ended = await new AdminClient(url, "tok").endWorld("w_AAAAAAAAAAAAAAAA");
    expect(ended).toEqual({ diff, trace: [record] });
    expect(seen.slice(1).sort()).toEqual(["DELETE /admin/worlds/w_AAAAAAAAAAAAAAAA", "GET /admin/worlds/w_AAAAAAAAAAAAAAAA/diff", "GET /admin/worlds/w_AAAAAAAAAAAAAAAA/trace"]);
    expect(seen.at(-1)).toBe("DELETE /admin/worlds/w_AAAAAAAAAAAAAAAA"); // read before deleting
  });

  it("does not fall back when the world itself is gone", async () => {
    const url = await serve((_req, _body, res) => json(res, 404, { error: { code: "world_not_found", message: "No world 'w_AAAAAAAAAAAAAAAA' on this server." } }));
    const err = await new AdminClient(url, "tok").endWorld("w_AAAAAAAAAAAAAAAA").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServerError);
    expect((err as ServerError).code).toBe("world_not_found");
  });

  it("rejects a trace record of the wrong shape, naming the world and record", async () => {
    const url = await serve((_req, _body, res) => json(res, 200, { id: "w_AAAAAAAAAAAAAAAA", deleted: true, trace: "t", diff, trace_records: [{ seq: "one" }] }));
    await expect(new AdminClient(url, "tok").endWorld("w_AAAAAAAAAAAAAAAA")).rejects.toThrow(/trace of w_AAAAAAAAAAAAAAAA: record 1 is not a trace record/);
  });

  it("sends JSON bodies with their length and reads JSON answers", async () => {
    let received = "";
    const url = await serve((req, body, res) => {
      received = `${req.headers["content-type"]} ${req.headers["content-length"]} ${body}`;
      json(res, 201, { id: "w_AAAAAAAAAAAAAAAA", key: "sk_test_x", seed: { name: "s", hash: "h" }, objects: 1, stripe_api_base: "u", zendesk_url: "u" });
    });
    const world = await new AdminClient(url, "tok").createWorld("acme-small ✓");
    expect(world.id).toBe("w_AAAAAAAAAAAAAAAA");
    const sent = JSON.stringify({ seed: "acme-small ✓" });
    expect(received).toBe(`application/json ${Buffer.byteLength(sent)} ${sent}`);
  });

  it("reports a refused connection as an unreachable server with what to do", async () => {
    const url = await serve(() => undefined);
    await new Promise((r) => servers.pop()!.close(r));
    const err = (await new AdminClient(url, "tok").seeds().catch((e: unknown) => e)) as ServerError;
    expect(err.kind).toBe("unreachable");
    expect(err.message).toMatch(/no worlds server answers at .* \(ECONNREFUSED\)\. Start one with `worlds serve`/);
    expect(err.exitCode).toBe(3);
  });

  it("never advises what the user already did: a command's own local server is not one to start or pass", async () => {
    const url = await serve((req) => req.socket.resetAndDestroy());
    const local = (await new AdminClient(url, "tok", { localServer: true }).seeds().catch((e: unknown) => e)) as ServerError;
    expect(local.kind).toBe("unreachable");
    expect(local.message).toContain("the local server this command started");
    expect(local.message).toContain("ECONNRESET");
    expect(local.message).not.toContain("--server auto");
    expect(local.message).not.toContain("Start one");
    // A server named by URL that drops a call was there: it is not reported as absent either.
    const named = (await new AdminClient(url, "tok").seeds().catch((e: unknown) => e)) as ServerError;
    expect(named.message).toMatch(/the worlds server at .* did not answer GET \/admin\/seeds \(ECONNRESET\)/);
  });

  it("creates a world with an idempotency key, and a retry after a reset connection sends the same key", async () => {
    const keys: string[] = [];
    const used = new WeakMap<object, number>();
    const url = await serve((req, _body, res) => {
      const uses = (used.get(req.socket) ?? 0) + 1;
      used.set(req.socket, uses);
      if (req.url === "/admin/seeds") return json(res, 200, { data: [] });
      keys.push(String(req.headers["idempotency-key"]));
      // The first creation arrives on the connection the seeds call left: the connection goes, no answer.
      if (keys.length === 1 && uses > 1) return req.socket.resetAndDestroy();
      json(res, 201, { id: "w_AAAAAAAAAAAAAAAA", key: "sk_test_x", seed: { name: "s", hash: "h" }, objects: 1, stripe_api_base: "u", zendesk_url: "u" });
    });
    const client = new AdminClient(url, "tok");
    await client.seeds();
    expect((await client.createWorld("acme-small")).id).toBe("w_AAAAAAAAAAAAAAAA");
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^wc_[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    await client.createWorld("acme-small");
    expect(keys[2]).not.toBe(keys[0]); // a new world, a new key
  });

  it("gives up on a server that does not answer within the timeout", async () => {
    const url = await serve(() => undefined); // never answers
    const t0 = performance.now();
    const err = (await new AdminClient(url, "tok", { timeoutMs: 200 }).seeds().catch((e: unknown) => e)) as ServerError;
    expect(err.kind).toBe("unreachable");
    expect(err.message).toMatch(/\(TimeoutError\)/);
    expect(performance.now() - t0).toBeLessThan(5_000);
  });

  it("stops at once when its signal aborts, passing the abort through", async () => {
    const url = await serve(() => undefined);
    const ctl = new AbortController();
    const pending = new AdminClient(url, "tok", { signal: ctl.signal }).seeds();
    setTimeout(() => ctl.abort(), 50);
    await expect(pending).rejects.not.toBeInstanceOf(ServerError);
  });

  it("maps a refused token and a bad request to their exit codes", async () => {
    const url = await serve((req, _body, res) =>
      req.url === "/admin/seeds" ? json(res, 401, { error: { code: "unauthorized", message: "nope" } }) : json(res, 400, { error: { code: "invalid_seed", message: "bad seed", issues: [{ path: "data.customers[0]", message: "unknown field" }] } }),
    );
    const client = new AdminClient(url, "tok");
    const denied = (await client.seeds().catch((e: unknown) => e)) as ServerError;
    expect([denied.kind, denied.exitCode]).toEqual(["unauthorized", 3]);
    const bad = (await client.createWorld({}).catch((e: unknown) => e)) as ServerError;
    expect([bad.kind, bad.exitCode]).toEqual(["bad_request", 2]);
    expect(bad.message).toContain("data.customers[0]: unknown field");
  });
});
