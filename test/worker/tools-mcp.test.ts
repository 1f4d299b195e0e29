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
