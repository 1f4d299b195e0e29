// World creation time for seeds of about 100, 1,000 and 10,000 objects, against creating an empty world in the
// same run on the same server (`worlds serve`, i.e. Miniflare from the CLI). Prints p50/p95 ms and the ratios.
// Usage: node bench/world-create.mjs [--reps N]
import { startServer, percentile, fmt } from "./lib/server.mjs";
import { syntheticSeed, countObjects } from "./lib/synthetic-seed.mjs";

const reps = Number(process.argv[process.argv.indexOf("--reps") + 1]) || 20;
const server = await startServer();
const headers = { authorization: `Bearer ${server.token}`, "content-type": "application/json" };

async function measure(seed) {
  const body = JSON.stringify({ seed });
  const times = [];
  for (let i = 0; i < reps + 2; i++) {
    const t0 = performance.now();
    const res = await fetch(`${server.url}/admin/worlds`, { method: "POST", headers, body });
    const world = await res.json();
    const ms = performance.now() - t0;
    if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(world).slice(0, 500)}`);
    if (i >= 2) times.push(ms); // the first two warm the isolate and the JIT
    await fetch(`${server.url}/admin/worlds/${world.id}`, { method: "DELETE", headers });
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

try {
  const empty = { version: 1, name: "bench-empty", clock: "2026-09-15T12:00:00Z", currency: "usd", data: {} };
  const base = await measure(empty);
  console.log(`world creation, ${reps} reps each, through worlds serve (Miniflare)`);
  console.log(`  empty world        p50 ${fmt(base.p50)} ms  p95 ${fmt(base.p95)} ms  (baseline)`);
  for (const size of [100, 1000, 10000]) {
    const seed = syntheticSeed(size);
    const r = await measure(seed);
    console.log(`  ${String(countObjects(seed)).padStart(6)} objects    p50 ${fmt(r.p50)} ms  p95 ${fmt(r.p95)} ms  (${fmt(r.p50 / base.p50, 2)}x empty at p50)`);
  }
} finally {
  await server.stop();
}
