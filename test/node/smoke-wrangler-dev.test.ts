// The Worker under `wrangler dev` (real workerd, production flags, no vitest-pool eval allowance): world
// creation, the billing and desk twins, the tasks compiler and the grader all run where code generation from
// strings is refused, so an Ajv compile or a Node-only import in Worker code fails here.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ROOT } from "./helpers/cli";
import { generateTasks } from "../../src/core/kinds/tools/tasks/generate";
import { importToolSet } from "../../src/core/kinds/tools/toolset";

const WRANGLER = join(ROOT, "node_modules", "wrangler", "bin", "wrangler.js");
const TOKEN = "smoke-token-smoke-token";
let child: ChildProcess | null = null;
let url = "";
const persist = mkdtempSync(join(tmpdir(), "worlds-smoke-"));
const env = { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false", CI: "true" };

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}

beforeAll(async () => {
  const migrate = spawnSync(process.execPath, [WRANGLER, "d1", "migrations", "apply", "DB", "--local", "--persist-to", persist], { cwd: ROOT, env, encoding: "utf8" });
  expect(migrate.status, migrate.stderr + migrate.stdout).toBe(0);
  const port = await freePort();
  child = spawn(process.execPath, [WRANGLER, "dev", "--ip", "127.0.0.1", "--port", String(port), "--inspector-port", "0", "--persist-to", persist, "--var", `WORLDS_TOKEN:${TOKEN}`, "--show-interactive-dev-session=false"], {
    cwd: ROOT,
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    const ok = await fetch(`${url}/health`).then((r) => r.ok, () => false);
    if (ok) break;
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`wrangler dev did not come up:\n${out}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}, 120_000);

afterAll(() => {
  if (child?.pid) {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  rmSync(persist, { recursive: true, force: true });
});

const admin = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };

it("serves worlds, both twins, the tasks compiler and the grader under wrangler dev", async () => {
  const world = (await (await fetch(`${url}/admin/worlds`, { method: "POST", headers: admin, body: JSON.stringify({ seed: "acme-small" }) })).json()) as { id: string; key: string };
  expect(world.id).toMatch(/^w_/);
  const auth = { authorization: `Bearer ${world.key}` };

  const refund = await fetch(`${url}/v1/refunds`, { method: "POST", headers: { ...auth, "content-type": "application/x-www-form-urlencoded", "idempotency-key": "k1" }, body: "charge=ch_AcmeNorthwindDup&reason=duplicate" });
  expect(refund.status).toBe(200);
  const search = await fetch(`${url}/v1/customers/search?query=${encodeURIComponent('email:"billing.northwind@example.com"')}`, { headers: auth });
  expect(((await search.json()) as { data: unknown[] }).data).toHaveLength(1);
  const reply = await fetch(`${url}/api/v2/tickets/4101.json`, { method: "PUT", headers: { ...auth, "content-type": "application/json" }, body: JSON.stringify({ ticket: { comment: { body: "I have refunded the duplicate charge of $99.00.", public: true }, status: "solved" } }) });
  expect(reply.status).toBe(200);

  const tasks = [
    "version: 1",
    "seed: acme-small",
    "tasks:",
    "  - id: T1",
    "    requester: billing.northwind@example.com",
    "    subject: Charged twice",
    "    body: Please refund the duplicate.",
    "    expected: refund $99.00 on ch_AcmeNorthwindDup",
  ].join("\n");
  const built = await fetch(`${url}/admin/tasks/build`, { method: "POST", headers: { ...admin, "content-type": "application/yaml" }, body: tasks });
  expect(built.status, (await built.clone().text()).slice(0, 500)).toBe(201);
  const { rubric } = (await built.json()) as { rubric: unknown };
  const graded = await fetch(`${url}/admin/worlds/${world.id}/grade`, { method: "POST", headers: admin, body: JSON.stringify({ rubric, replies: { T1: "I have refunded the duplicate charge of $99.00." }, mode: "isolated", tickets: [1] }) });
  expect(graded.status, (await graded.clone().text()).slice(0, 500)).toBe(200);
  const body = (await graded.json()) as { grade: { tasks: Array<{ verdict: string }> } };
  expect(body.grade.tasks[0].verdict).toBe("passed");
}, 120_000);

it("serves a world's tools over MCP (the SDK's client, unchanged) and plain JSON under wrangler dev", async () => {
  const world = (await (await fetch(`${url}/admin/worlds`, { method: "POST", headers: admin, body: JSON.stringify({ seed: "acme-small" }) })).json()) as { key: string; mcp_url: string; tools_url: string };
  const client = new Client({ name: "smoke", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(world.mcp_url), { requestInit: { headers: { authorization: `Bearer ${world.key}` } } }));
  try {
    expect((await client.listTools()).tools.find((t) => t.name === "refund_charge")?.annotations?.readOnlyHint).toBe(false);
    const refund = await client.callTool({ name: "refund_charge", arguments: { charge: "ch_AcmeNorthwindDup", reason: "duplicate" } });
    expect(refund.structuredContent).toMatchObject({ object: "refund", amount: 9900 });
    const refused = await client.callTool({ name: "refund_charge", arguments: { charge: 42 } });
    expect(refused.isError).toBe(true);
  } finally {
    await client.close();
  }
  const listed = await fetch(`${world.tools_url}/list?format=anthropic`, { headers: { authorization: `Bearer ${world.key}` } });
  expect(((await listed.json()) as { tools: Array<{ input_schema: unknown }> }).tools[0].input_schema).toBeTruthy();
  const again = await fetch(`${world.tools_url}/call`, { method: "POST", headers: { authorization: `Bearer ${world.key}` }, body: JSON.stringify({ name: "get_charge", arguments: { charge: "ch_AcmeNorthwindDup" } }) });
  expect(((await again.json()) as { amount_refunded: number }).amount_refunded).toBe(9900);
}, 60_000);

it("simulates a team's tools (a tools world: schema checks, patterns, keyed answers) under wrangler dev", async () => {
  const set = await importToolSet(readFileSync(join(ROOT, "test", "fixtures", "tools", "shop.openapi.yaml"), "utf8"), { name: "shop" });
  const [task] = await generateTasks(set, { arm: "call", count: 1, seed: 1, clockUnix: Date.parse("2026-09-15T12:00:00Z") / 1000 });
  const created = await fetch(`${url}/admin/worlds`, { method: "POST", headers: admin, body: JSON.stringify({ seed: { version: 1, kind: "tools", name: "tools-world", clock: "2026-09-15T12:00:00Z", currency: "usd", data: {}, tools: task.world } }) });
  expect(created.status).toBe(201);
  const world = (await created.json()) as { key: string; id: string };
  const call = (name: string, args: unknown) => fetch(`${url}/tools/v1/call`, { method: "POST", headers: { authorization: `Bearer ${world.key}`, "content-type": "application/json" }, body: JSON.stringify({ name, arguments: args }) });
  const list = await call("listOrders", { customer: "cus_Abc123" });
  expect(list.status).toBe(200);
  expect(((await list.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
  expect((await call("listOrders", { customer: "not a customer" })).status).toBe(422);
  const expected = task.expected.calls[0];
  expect((await call(expected.name, expected.arguments)).status).toBe(200);
  const diff = (await (await fetch(`${url}/admin/worlds/${world.id}/diff`, { headers: admin })).json()) as { entries: Array<{ type: string; after: { status: string } | null }> };
  expect(diff.entries.filter((e) => e.type === "records").map((e) => e.after?.status)).toEqual(["done"]);
});
