// MCP against the real local server (workerd via Miniflare), with the official SDK client unchanged: initialize,
// tools/list, a read, a write. The write must leave exactly the diff the same REST request leaves, and an agent
// that works over MCP only must earn the verdicts the REST agent earns under passk.
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalServer, type LocalServer } from "../../src/cli/server/local";
import { killAllStarted, ROOT, runCli } from "./helpers/cli";
import { assertValidResults } from "./helpers/validate-results";

let server: LocalServer;

interface World {
  id: string;
  key: string;
  mcp_url: string;
  tools_url: string;
}

const admin = () => ({ authorization: `Bearer ${server.token}`, "content-type": "application/json" });

async function createWorld(): Promise<World> {
  const res = await fetch(`${server.url}/admin/worlds`, { method: "POST", headers: admin(), body: JSON.stringify({ seed: "acme-small" }) });
  expect(res.status).toBe(201);
  return (await res.json()) as World;
}

async function connect(world: World, key = world.key): Promise<Client> {
  const client = new Client({ name: "e2e-mcp", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(world.mcp_url), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  return client;
}

async function diffEntries(world: World): Promise<Array<Record<string, unknown>>> {
  const res = await fetch(`${server.url}/admin/worlds/${world.id}/diff`, { headers: admin() });
  expect(res.status).toBe(200);
  const d = (await res.json()) as { entries: Array<Record<string, unknown>> };
  return d.entries.map(({ request_ids: _ids, ...e }) => e);
}

beforeAll(async () => {
  server = await startLocalServer();
});

afterAll(async () => {
  await server?.stop();
  killAllStarted();
});

describe("the official MCP client against a world", () => {
  it("initializes, lists the twin's operations with annotations, reads and refunds; the diff is the REST refund's", async () => {
    const world = await createWorld();
    expect(world.mcp_url).toBe(`${server.url}/mcp`);
    const client = await connect(world);
    try {
      expect(client.getServerVersion()).toMatchObject({ name: "worlds" });
      expect(client.getServerCapabilities()?.tools).toBeDefined();

      const { tools } = await client.listTools();
      const byName = new Map(tools.map((t) => [t.name, t]));
      expect(byName.get("find_customers")?.annotations).toMatchObject({ readOnlyHint: true });
      expect(byName.get("refund_charge")?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
      expect(byName.get("refund_charge")?.inputSchema).toMatchObject({ type: "object", required: ["charge"] });

      const read = await client.callTool({ name: "find_customers", arguments: { email: "billing.northwind@example.com" } });
      expect(read.isError).toBeFalsy();
      const page = read.structuredContent as { object: string; data: Array<{ id: string }> };
      expect(page.data.map((c) => c.id)).toEqual(["cus_AcmeNorthwind"]);
      expect(JSON.parse((read.content as Array<{ text: string }>)[0].text)).toEqual(page);

      const write = await client.callTool({ name: "refund_charge", arguments: { charge: "ch_AcmeNorthwindDup", reason: "duplicate" } });
      expect(write.isError).toBeFalsy();
      expect(write.structuredContent).toMatchObject({ object: "refund", amount: 9900, charge: "ch_AcmeNorthwindDup", reason: "duplicate" });
    } finally {
      await client.close();
    }

    const viaRest = await createWorld();
    const res = await fetch(`${server.url}/v1/refunds`, {
      method: "POST",
      headers: { authorization: `Bearer ${viaRest.key}`, "content-type": "application/x-www-form-urlencoded" },
      body: "charge=ch_AcmeNorthwindDup&reason=duplicate",
    });
    expect(res.status).toBe(200);
    const restDiff = await diffEntries(viaRest);
    expect(restDiff.some((e) => e.type === "refunds" && e.op === "created")).toBe(true);
    expect(await diffEntries(world)).toEqual(restDiff);

    const trace = (await (await fetch(`${server.url}/admin/worlds/${world.id}/trace`, { headers: admin() })).text()).trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(trace.filter((r) => r.service === "tools").map((r) => [r.path, r.query, r.status])).toEqual([
      ["find_customers", "via=mcp", 200],
      ["refund_charge", "via=mcp", 200],
    ]);
  });

  it("a tool's failure is a result with isError and the code first; an unknown tool too", async () => {
    const world = await createWorld();
    const client = await connect(world);
    try {
      const unknown = await client.callTool({ name: "drop_tables", arguments: {} });
      expect(unknown.isError).toBe(true);
      expect((unknown.content as Array<{ text: string }>)[0].text).toMatch(/^not_found: /);
      const invalid = await client.callTool({ name: "refund_charge", arguments: { charge: "ch_AcmeNorthwindDup", amount: -5 } });
      expect(invalid.isError).toBe(true);
      expect((invalid.content as Array<{ text: string }>)[0].text).toMatch(/^invalid_arguments: refund_charge: amount/);
      const missing = await client.callTool({ name: "get_charge", arguments: { charge: "ch_Missing" } });
      expect((missing.content as Array<{ text: string }>)[0].text).toMatch(/^not_found: .*ch_Missing/);
    } finally {
      await client.close();
    }
    expect(await diffEntries(world)).toEqual([]);
  });

  it("refuses a key that does not open the world (401), and GET (405)", async () => {
    const world = await createWorld();
    const forged = world.key.slice(0, -4) + (world.key.endsWith("AAAA") ? "BBBB" : "AAAA");
    await expect(connect(world, forged)).rejects.toThrow(/401|authenticat|key/i);
    const noKey = await fetch(world.mcp_url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(noKey.status).toBe(401);
    const get = await fetch(world.mcp_url, { headers: { authorization: `Bearer ${world.key}`, accept: "text/event-stream" } });
    expect(get.status).toBe(405);
  });
});

describe("an agent on MCP only, graded by passk", () => {
  const passk = (agent: string) =>
    runCli(["passk", "--tasks", "examples/quickstart.tasks.yaml", "--server", "auto", "--runs", "1", "--concurrency", "2", "--json", "--", "node", join(ROOT, "examples", "agents", agent)], { timeoutMs: 240_000 });
  const verdicts = (stdout: string) => {
    const doc = JSON.parse(stdout) as { status: string; runs: Array<{ worlds: Array<{ task: string; verdict: string | null }> }> };
    assertValidResults(doc);
    return { status: doc.status, byTask: Object.fromEntries(doc.runs.flatMap((r) => r.worlds).map((w) => [w.task, w.verdict])) };
  };

  it("careful-mcp.mjs passes the quickstart with the verdicts careful.mjs earns over REST", async () => {
    const mcp = await passk("careful-mcp.mjs");
    expect(mcp.code, mcp.stderr).toBe(0);
    const overMcp = verdicts(mcp.stdout);
    expect(overMcp.status).toBe("passed");
    const rest = await passk("careful.mjs");
    expect(rest.code, rest.stderr).toBe(0);
    expect(overMcp.byTask).toEqual(verdicts(rest.stdout).byTask);
    expect(Object.keys(overMcp.byTask)).toHaveLength(5);
  }, 300_000);
});

// The frameworks' own MCP clients against a world, at both protocol eras: 2026-07-28 (server/discover, then each
// request with its version in `_meta` and the MCP-Protocol-Version header) and the 2025 handshake. The traffic
// each sends is recorded through its fetch hook, to prove which era it spoke.
describe("the frameworks' MCP clients at protocol 2026-07-28 and 2025-11-25", () => {
  interface Sent {
    method: string;
    version: string | null;
  }
  /** A fetch that notes each JSON-RPC method sent and the MCP-Protocol-Version header beside it. */
  function recorder(): { sent: Sent[]; fetch: typeof fetch } {
    const sent: Sent[] = [];
    const recording: typeof fetch = async (input, init) => {
      const body = typeof init?.body === "string" ? (JSON.parse(init.body) as { method?: string }) : null;
      if (body?.method) sent.push({ method: body.method, version: new Headers(init?.headers).get("mcp-protocol-version") });
      return fetch(input, init);
    };
    return { sent, fetch: recording };
  }
  const bearer = (world: World) => ({ authorization: `Bearer ${world.key}` });
  const customerId = (structured: unknown) => (structured as { data: Array<{ id: string }> }).data.map((c) => c.id);
  const MODERN = "2026-07-28";
  /** The era the recorded traffic spoke: modern opens with server/discover and names 2026-07-28 on every tools call. */
  function expectEra(sent: Sent[], modern: boolean): void {
    const tools = sent.filter((s) => s.method.startsWith("tools/"));
    expect(tools.length).toBeGreaterThan(0);
    if (modern) {
      expect(sent[0]).toEqual({ method: "server/discover", version: MODERN });
      expect(sent.map((s) => s.method)).not.toContain("initialize");
      expect(tools.every((s) => s.version === MODERN)).toBe(true);
    } else {
      expect(sent[0].method).toBe("initialize");
      expect(tools.some((s) => s.version === MODERN)).toBe(false);
    }
  }

  it("@modelcontextprotocol/client 2.4: discovers and speaks 2026-07-28 when it negotiates, the 2025 handshake by default", async () => {
    const world = await createWorld();
    const { Client: ClientV2, StreamableHTTPClientTransport: TransportV2 } = await import("@modelcontextprotocol/client");
    for (const negotiate of [true, false]) {
      const rec = recorder();
      const client = new ClientV2({ name: "e2e-v2", version: "1.0.0" }, negotiate ? { versionNegotiation: { mode: "auto" } } : {});
      await client.connect(new TransportV2(new URL(world.mcp_url), { requestInit: { headers: bearer(world) }, fetch: rec.fetch }));
      try {
        expect(client.getNegotiatedProtocolVersion()).toBe(negotiate ? MODERN : "2025-11-25");
        expect((await client.listTools()).tools.map((t) => t.name)).toContain("refund_charge");
        const read = await client.callTool({ name: "find_customers", arguments: { email: "billing.northwind@example.com" } });
        expect(customerId(read.structuredContent)).toEqual(["cus_AcmeNorthwind"]);
      } finally {
        await client.close();
      }
      expectEra(rec.sent, negotiate);
    }
  });

  it("@ai-sdk/mcp: server/discover at 2026-07-28 by default, initialize with discovery off; its tools run against the world", async () => {
    const world = await createWorld();
    const { createMCPClient } = await import("@ai-sdk/mcp");
    for (const discovery of [true, false]) {
      const rec = recorder();
      const client = await createMCPClient({ transport: { type: "http", url: world.mcp_url, headers: bearer(world), fetch: rec.fetch }, protocolVersionDiscovery: discovery });
      try {
        const tools = await client.tools();
        expect(Object.keys(tools)).toContain("refund_charge");
        const out = (await tools.find_customers.execute!({ email: "billing.northwind@example.com" }, { toolCallId: "t1", messages: [], context: {} })) as { structuredContent: unknown };
        expect(customerId(out.structuredContent)).toEqual(["cus_AcmeNorthwind"]);
      } finally {
        await client.close();
      }
      expectEra(rec.sent, discovery);
    }
  });

  it("@openai/agents' MCPServerStreamableHttp (2026-07-28) and @langchain/mcp-adapters (the SDK v1's 2025 handshake) list and call the world's tools", async () => {
    const world = await createWorld();
    const { MCPServerStreamableHttp } = await import("@openai/agents");
    const rec = recorder();
    const agents = new MCPServerStreamableHttp({ name: "world", url: world.mcp_url, requestInit: { headers: bearer(world) }, fetch: rec.fetch });
    await agents.connect();
    try {
      expect((await agents.listTools()).map((t) => t.name)).toContain("refund_charge");
      const content = await agents.callTool("find_customers", { email: "billing.northwind@example.com" });
      expect(JSON.stringify(content)).toContain("cus_AcmeNorthwind");
    } finally {
      await agents.close();
    }
    // Its MCP client is the SDK v2's, negotiating: the whole exchange is at 2026-07-28.
    expect(rec.sent).toEqual([{ method: "server/discover", version: MODERN }, { method: "tools/list", version: MODERN }, { method: "tools/call", version: MODERN }]);

    const { MultiServerMCPClient } = await import("@langchain/mcp-adapters");
    const langchain = new MultiServerMCPClient({ mcpServers: { world: { transport: "http", url: world.mcp_url, headers: bearer(world) } }, throwOnLoadError: true });
    try {
      const tools = await langchain.getTools();
      const find = tools.find((t) => t.name === "find_customers")!;
      expect(JSON.stringify(await find.invoke({ email: "billing.northwind@example.com" }))).toContain("cus_AcmeNorthwind");
    } finally {
      await langchain.close();
    }
  });
});
