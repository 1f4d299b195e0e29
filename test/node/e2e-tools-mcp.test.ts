// A tools world through the official MCP client, unchanged, against the real local server: the team's tools are
// listed with their effects as annotations, a read answers the simulated object (the same answer every time),
// the expected write moves its record and a stray write is a side effect, exactly as over the JSON surface.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalServer, type LocalServer } from "../../src/cli/server/local";
import { generateTasks } from "../../src/core/kinds/tools/tasks/generate";
import { importToolSet } from "../../src/core/kinds/tools/toolset";
import { killAllStarted, ROOT } from "./helpers/cli";

let server: LocalServer;
const CLOCK = "2026-09-15T12:00:00Z";

beforeAll(async () => {
  server = await startLocalServer();
});
afterAll(async () => {
  await server?.stop();
  killAllStarted();
});

describe("the official MCP client against a tools world", () => {
  it("lists, reads and writes; the diff shows the record moved and the side effect", async () => {
    const set = await importToolSet(readFileSync(join(ROOT, "test", "fixtures", "tools", "orders.openai.json"), "utf8"), { name: "acme", read: ["get_order", "search_orders", "list_channels"] });
    const [task] = await generateTasks(set, { arm: "call", count: 1, seed: 1, clockUnix: Date.parse(CLOCK) / 1000 });
    const admin = { authorization: `Bearer ${server.token}`, "content-type": "application/json" };
    const created = await fetch(`${server.url}/admin/worlds`, { method: "POST", headers: admin, body: JSON.stringify({ seed: { version: 1, kind: "tools", name: "tools-world", clock: CLOCK, currency: "usd", data: {}, tools: task.world } }) });
    expect(created.status, await created.clone().text()).toBe(201);
    const world = (await created.json()) as { id: string; key: string };
    const expected = task.expected.calls[0];
    const client = new Client({ name: "e2e-tools-mcp", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${world.key}` } } }));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(["get_order", "search_orders", "refund_order", "notify_customer", "list_channels"]);
      expect(tools.find((t) => t.name === "get_order")?.annotations).toMatchObject({ readOnlyHint: true });
      expect(tools.find((t) => t.name === "refund_order")?.annotations).toBeUndefined();

      const a = await client.callTool({ name: "get_order", arguments: { order_id: "A33170" } });
      const b = await client.callTool({ name: "get_order", arguments: { order_id: "A33170" } });
      expect(a.isError).toBeFalsy();
      expect(a.structuredContent).toEqual(b.structuredContent);

      const bad = await client.callTool({ name: "refund_order", arguments: { order_id: "short" } });
      expect(bad.isError).toBe(true);

      expect((await client.callTool({ name: expected.name, arguments: expected.arguments })).isError).toBeFalsy();
      expect((await client.callTool({ name: "notify_customer", arguments: { order_id: "ZZZZZZ", channel: "sms" } })).isError).toBeFalsy();
    } finally {
      await client.close();
    }
    const diff = (await (await fetch(`${server.url}/admin/worlds/${world.id}/diff`, { headers: admin })).json()) as { entries: Array<{ type: string; op: string; after: { status: string; tool: string } | null }> };
    const records = diff.entries.filter((e) => e.type === "records").map((e) => [e.op, e.after?.status, e.after?.tool]);
    expect(records).toEqual(expect.arrayContaining([["updated", "done", expected.name], ["created", "side_effect", "notify_customer"]]));
    expect(records).toHaveLength(2);
  });
});
