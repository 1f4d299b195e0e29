// A simulated tool call (POST /tools/v1/call on a tools world) against a billing read (GET /v1/customers/:id on
// an account world), side by side on the same server, alternating rounds: requests per second and p50/p99 latency
// with C concurrent clients, and the ratio. Target: the simulated call at least as fast as the account read.
// Usage: node bench/tools-call.mjs [--seconds S] [--clients C] [--rounds R]
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startServer, percentile, fmt } from "./lib/server.mjs";
import { importCore } from "./lib/bundle-core.mjs";

const arg = (name, d) => Number(process.argv[process.argv.indexOf(`--${name}`) + 1]) || d;
const seconds = arg("seconds", 3);
const clients = arg("clients", 4);
const rounds = arg("rounds", 3);
const [toolset, generate] = await importCore(["src/core/kinds/tools/toolset.ts", "src/core/kinds/tools/tasks/generate.ts"]);
const CLOCK = "2026-09-15T12:00:00Z";
const set = await toolset.importToolSet(readFileSync(join(import.meta.dirname, "..", "test", "fixtures", "tools", "orders.openai.json"), "utf8"), { name: "acme", read: ["get_order", "search_orders", "list_channels"] });
const [task] = await generate.generateTasks(set, { arm: "call", count: 1, seed: 1, clockUnix: Date.parse(CLOCK) / 1000 });

const server = await startServer();
const admin = { authorization: `Bearer ${server.token}`, "content-type": "application/json" };
const create = async (seed) => {
  const res = await fetch(`${server.url}/admin/worlds`, { method: "POST", headers: admin, body: JSON.stringify({ seed }) });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${await res.text()}`);
  return res.json();
};

async function load(request) {
  const latencies = [];
  const cpu0 = server.cpuMs();
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        const res = await request();
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`status ${res.status}`);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  // The server's CPU per request: what the rate is on an idle machine, and steady when other work shares the cores.
  const cpu = cpu0 === null ? NaN : (server.cpuMs() - cpu0) / latencies.length;
  return { rps: latencies.length / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), cpu };
}

try {
  const account = await create("acme-small");
  const tools = await create({ version: 1, kind: "tools", name: "tools-world", clock: CLOCK, currency: "usd", data: {}, tools: { ...task.world, max_calls: 100_000_000 } }); // past the episode limit: a load test, not an episode
  const read = () => fetch(`${server.url}/v1/customers/cus_AcmeNorthwind`, { headers: { authorization: `Bearer ${account.key}` } });
  const call = () => fetch(`${server.url}/tools/v1/call`, { method: "POST", headers: { authorization: `Bearer ${tools.key}`, "content-type": "application/json" }, body: '{"name":"get_order","arguments":{"order_id":"A33170"}}' });
  await load(read), await load(call); // warm both paths
  const rows = { read: [], call: [] };
  for (let r = 0; r < rounds; r++) {
    rows.read.push(await load(read));
    rows.call.push(await load(call));
  }
  const med = (xs, k) => xs.map((x) => x[k]).sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(`simulated tool call vs account read, ${clients} clients, ${rounds} rounds of ${seconds} s, medians`);
  console.log(`  GET /v1/customers/:id (account)     ${fmt(med(rows.read, "rps"), 0)} req/s  p50 ${fmt(med(rows.read, "p50"), 2)} ms  p99 ${fmt(med(rows.read, "p99"), 2)} ms  cpu ${fmt(med(rows.read, "cpu") * 1000, 0)} us/req  (baseline)`);
  console.log(`  POST /tools/v1/call get_order       ${fmt(med(rows.call, "rps"), 0)} req/s  p50 ${fmt(med(rows.call, "p50"), 2)} ms  p99 ${fmt(med(rows.call, "p99"), 2)} ms  cpu ${fmt(med(rows.call, "cpu") * 1000, 0)} us/req  (${fmt(med(rows.call, "rps") / med(rows.read, "rps"), 2)}x the read's rate, ${fmt(med(rows.read, "cpu") / med(rows.call, "cpu"), 2)}x its CPU efficiency)`);
} finally {
  await server.stop();
}
