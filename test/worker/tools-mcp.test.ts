// POST /mcp at the HTTP level: what a raw JSON-RPC client meets (stateless, no initialize needed), and the bodies
// refused before the MCP server sees them, each answering a JSON-RPC error and changing nothing.
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

const admin = { authorization: "Bearer test-token", "content-type": "application/json" };
const call = (path: string, init: RequestInit = {}) => exports.default.fetch(new Request(`http://twin.test${path}`, init));

async function newWorld(): Promise<{ id: string; key: string }> {
  const res = await call("/admin/worlds", { method: "POST", headers: admin, body: JSON.stringify({ seed: "acme-small" }) });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; key: string };
}

const mcp = (key: string | null, body: string, headers: Record<string, string> = {}) =>
  call("/mcp", {
    method: "POST",
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body,
  });
const rpc = (method: string, params: unknown = {}, id = 1) => JSON.stringify({ jsonrpc: "2.0", id, method, params });

async function entries(id: string): Promise<unknown[]> {
  return ((await (await call(`/admin/worlds/${id}/diff`, { headers: admin })).json()) as { entries: unknown[] }).entries;
}

describe("POST /mcp", () => {
  it("answers tools/list without a session or an initialize, and tools/call with structured content", async () => {
    const w = await newWorld();
    const list = await mcp(w.key, rpc("tools/list"));
    expect(list.status).toBe(200);
    expect(list.headers.get("mcp-session-id")).toBeNull();
    const tools = ((await list.json()) as { result: { tools: Array<{ name: string; annotations?: Record<string, boolean> }> } }).result.tools;
    expect(tools.find((t) => t.name === "void_invoice")?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    const called = (await (await mcp(w.key, rpc("tools/call", { name: "void_invoice", arguments: { invoice: "in_AcmeDelta0903" } }))).json()) as { result: { structuredContent: { status: string }; isError?: boolean } };
    expect(called.result.isError).toBeUndefined();
    expect(called.result.structuredContent.status).toBe("void");
  });

  it("401 without a key that opens the world; 405 for GET and DELETE", async () => {
    const w = await newWorld();
    const forged = w.key.slice(0, -4) + (w.key.endsWith("AAAA") ? "BBBB" : "AAAA");
    for (const key of [null, "nope", forged]) {
      const res = await mcp(key, rpc("tools/call", { name: "refund_charge", arguments: { charge: "ch_AcmeNorthwindDup" } }));
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32001);
    }
    expect(await entries(w.id)).toEqual([]);
    for (const method of ["GET", "DELETE"]) expect((await call("/mcp", { method, headers: { authorization: `Bearer ${w.key}`, accept: "text/event-stream" } })).status).toBe(405);
  });

  const hostile: Array<[string, string, number, number]> = [
    ["__proto__ in the arguments", '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"refund_charge","arguments":{"charge":"ch_AcmeNorthwindDup","__proto__":{"amount":1}}}}', 400, -32600],
    ["arguments nested 10,000 levels", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"refund_charge","arguments":{"charge":"ch_AcmeNorthwindDup","x":${"[".repeat(10_000)}${"]".repeat(10_000)}}}}`, 400, -32600],
    ["a body that is not JSON", "method=tools/call", 400, -32700],
    ["a body over 1 MB", rpc("tools/call", { name: "reply_to_ticket", arguments: { ticket: 4101, body: "x".repeat(1024 * 1024 + 1) } }), 413, -32600],
  ];
  for (const [what, body, status, code] of hostile) {
    it(`${what}: ${status} with JSON-RPC error ${code}, nothing changed`, async () => {
      const w = await newWorld();
      const res = await mcp(w.key, body);
      expect(res.status).toBe(status);
      expect(((await res.json()) as { error: { code: number } }).error.code).toBe(code);
      expect(({} as Record<string, unknown>).amount).toBeUndefined();
      expect(await entries(w.id)).toEqual([]);
    });
  }

  it("arguments that break a tool's schema are a tool failure (isError), not a protocol error", async () => {
    const w = await newWorld();
    const res = (await (await mcp(w.key, rpc("tools/call", { name: "cancel_subscription", arguments: { subscription: "sub_AcmeLumen" } }))).json()) as { result: { isError: boolean; content: Array<{ text: string }> } };
    expect(res.result.isError).toBe(true);
    expect(res.result.content[0].text).toMatch(/^invalid_arguments: cancel_subscription: at_period_end/);
    expect(await entries(w.id)).toEqual([]);
  });
});

// Protocol 2026-07-28: no handshake; each request names its version in `_meta` and, over HTTP, in headers that
// must agree with the body. The 2025 revisions above keep working on the same endpoint.
const MODERN = "2026-07-28";
const meta = { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} };
const modern = (key: string, method: string, params: Record<string, unknown> = {}, version = MODERN) =>
  mcp(key, JSON.stringify({ jsonrpc: "2.0", id: 7, method, params: { ...params, _meta: { ...meta, "io.modelcontextprotocol/protocolVersion": version } } }), {
    "mcp-protocol-version": version,
    "mcp-method": method,
    ...(typeof params.name === "string" ? { "mcp-name": params.name } : {}),
  });

describe("POST /mcp at protocol 2026-07-28", () => {
  it("server/discover names the revision, the tools capability and the server; tools/list and tools/call answer complete results", async () => {
    const w = await newWorld();
    const discover = await modern(w.key, "server/discover");
    expect(discover.status).toBe(200);
    const found = ((await discover.json()) as { result: Record<string, unknown> }).result;
    expect(found).toMatchObject({ resultType: "complete", supportedVersions: [MODERN], capabilities: { tools: {} }, _meta: { "io.modelcontextprotocol/serverInfo": { name: "worlds" } } });
    expect(found.instructions).toMatch(/this one world/);

    const list = ((await (await modern(w.key, "tools/list")).json()) as { result: { resultType: string; ttlMs: number; cacheScope: string; tools: Array<{ name: string }> } }).result;
    expect(list).toMatchObject({ resultType: "complete", cacheScope: "private" });
    expect(typeof list.ttlMs).toBe("number");
    expect(list.tools.map((t) => t.name)).toContain("void_invoice");

    const called = ((await (await modern(w.key, "tools/call", { name: "void_invoice", arguments: { invoice: "in_AcmeDelta0903" } })).json()) as { result: { resultType: string; structuredContent: { status: string } } }).result;
    expect(called.resultType).toBe("complete");
    expect(called.structuredContent.status).toBe("void");
    expect((await entries(w.id)).length).toBeGreaterThan(0);
  });

  it("subscriptions/listen is acknowledged with nothing to deliver and ends at once: a world's tool list never changes", async () => {
    const w = await newWorld();
    const res = await modern(w.key, "subscriptions/listen", { notifications: { toolsListChanged: true } });
    expect(res.status).toBe(200);
    const events = (await res.text()).split("\n").filter((l) => l.startsWith("data: ")).map((l) => JSON.parse(l.slice(6)) as Record<string, unknown>);
    expect(events).toMatchObject([{ method: "notifications/subscriptions/acknowledged", params: { notifications: {} } }, { id: 7, result: { resultType: "complete" } }]);
  });

  it("an unknown revision is UnsupportedProtocolVersionError listing the one served; headers that disagree with the body are HeaderMismatch", async () => {
    const w = await newWorld();
    const res = await modern(w.key, "tools/list", {}, "2099-01-01");
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: number; data: { supported: string[] } } }).error).toMatchObject({ code: -32022, data: { supported: [MODERN] } });
    const mismatch = await mcp(w.key, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: meta } }), { "mcp-protocol-version": MODERN, "mcp-method": "tools/call" });
    expect(mismatch.status).toBe(400);
    expect(((await mismatch.json()) as { error: { code: number } }).error.code).toBe(-32020);
  });
});

// JSON-RPC 2.0's codes: valid JSON that is no request is -32600 (never -32700, kept for bodies that do not parse);
// a tools/call with a name or arguments of the wrong type is -32602, in one line a client can show.
describe("POST /mcp refuses malformed JSON-RPC with the code JSON-RPC assigns", () => {
  const invalidRequests: Array<[string, string]> = [
    ['"jsonrpc": "1.0"', '{"jsonrpc":"1.0","id":1,"method":"tools/list","params":{}}'],
    ['no "jsonrpc"', '{"id":1,"method":"tools/list"}'],
    ['"params": "x"', '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":"x"}'],
    ['"method": 5', '{"jsonrpc":"2.0","id":1,"method":5}'],
    ["a batch", '[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]'],
    ["a bare number", "42"],
  ];
  for (const [what, body] of invalidRequests) {
    it(`${what}: 400, -32600`, async () => {
      const w = await newWorld();
      const res = await mcp(w.key, body);
      expect(res.status).toBe(400);
      const error = ((await res.json()) as { error: { code: number; message: string } }).error;
      expect(error.code).toBe(-32600);
      expect(error.message).toMatch(/^Invalid Request: /);
    });
  }

  const invalidParams: Array<[string, Record<string, unknown>, RegExp]> = [
    ['"name": 123', { name: 123, arguments: {} }, /"name", the tool's name as a string/],
    ["no name", { arguments: {} }, /"name", the tool's name as a string/],
    ["a list as arguments", { name: "void_invoice", arguments: ["in_AcmeDelta0903"] }, /"arguments" must be an object of the tool's parameters \(got a list\)/],
    ["a string as arguments", { name: "void_invoice", arguments: "x" }, /\(got string\)/],
  ];
  for (const [what, params, message] of invalidParams) {
    it(`tools/call with ${what}: -32602 in one line, the request's id, nothing changed`, async () => {
      const w = await newWorld();
      for (const res of [await mcp(w.key, rpc("tools/call", params, 9)), await modern(w.key, "tools/call", params)]) {
        const answer = (await res.json()) as { id: number; error: { code: number; message: string } };
        expect(answer.error.code).toBe(-32602);
        expect(answer.error.message).toMatch(message);
        expect(answer.error.message).not.toMatch(/\n|expected|invalid_type/);
        expect([9, 7]).toContain(answer.id);
      }
      expect(await entries(w.id)).toEqual([]);
    });
  }

  it("PATCH, PUT and GET /mcp: 405 in JSON-RPC shape with Allow: POST", async () => {
    const w = await newWorld();
    for (const method of ["PATCH", "PUT", "GET"]) {
      const res = await call("/mcp", { method, headers: { authorization: `Bearer ${w.key}`, "content-type": "application/json" }, ...(method === "GET" ? {} : { body: rpc("tools/list") }) });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("POST");
      expect(await res.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32000 } });
    }
  });
});
