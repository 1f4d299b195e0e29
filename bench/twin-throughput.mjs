// Twin throughput with 8 concurrent clients through `worlds serve` (what users run): GET /v1/customers/:id,
// GET /v1/invoices?limit=100 and POST /v1/refunds, each as a ratio to GET /health on the same server in the same
// run (the runtime's floor); and the cached read against a no-op Durable Object round trip (the floor of anything
// a world answers: the Worker's route, one RPC into a world's object that reads nothing, and back). Usage: node bench/twin-throughput.mjs [--seconds S] [--rounds R] [--clients N] [--client http|fetch]
import { startServer, fmt } from "./lib/server.mjs";
import { httpLoad } from "./lib/http-load.mjs";

const arg = (name, dflt) => (process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : dflt);
const seconds = arg("--seconds", 4);
const rounds = arg("--rounds", 3);
const clients = arg("--clients", 8);
const clientKind = process.argv.includes("--client") ? process.argv[process.argv.indexOf("--client") + 1] : "http";
if (!["http", "fetch"].includes(clientKind)) throw new Error("--client is http or fetch");
const server = await startServer();
const DO_FLOOR = "(floor) no-op DO round trip";
const READ = "GET /v1/customers/:id";
const admin = { authorization: `Bearer ${server.token}`, "content-type": "application/json" };

// The clients are node:http with keep-alive, as the official stripe client sends its requests (fetch costs the
// client several times more per response, which on a 2-core machine is CPU taken from the server).
const { load } = httpLoad({ clients, seconds, client: clientKind });

try {
  const world = await (await fetch(`${server.url}/admin/worlds`, { method: "POST", headers: admin, body: JSON.stringify({ seed: "acme-small" }) })).json();
  const auth = { authorization: `Bearer ${world.key}` };
  // Refund target: a large charge refunded one cent at a time so every request succeeds for the whole run.
  const refundBody = new URLSearchParams({ charge: "ch_AcmeCobalt2604", amount: "1" }).toString();
  await load("warm-up", () => ({ url: `${server.url}/health` }));
  const health = () => ({ url: `${server.url}/health` });
  // GET /admin/worlds/:id/diff of an id no world has: the admin route asks that world's object exists() (one
  // cached meta read) and answers 404. Measured just before the read, so the two see the same machine.
  const noWorld = `w_${"A".repeat(16)}`;
  const endpoints = [
    [DO_FLOOR, () => ({ url: `${server.url}/admin/worlds/${noWorld}/diff`, init: { headers: { authorization: admin.authorization } } })],
    [READ, () => ({ url: `${server.url}/v1/customers/cus_AcmeNorthwind`, init: { headers: auth } })],
    ["GET /v1/invoices?limit=100", () => ({ url: `${server.url}/v1/invoices?limit=100`, init: { headers: auth } })],
    ["POST /v1/refunds", () => ({ url: `${server.url}/v1/refunds`, init: { method: "POST", headers: { ...auth, "content-type": "application/x-www-form-urlencoded" }, body: refundBody } })],
    // Reference rows: what a world costs before its own logic. A wrong key is answered 401 by the world (one hop
    // into it and back); a refund of an unknown charge fails before writing anything but its trace row (one
    // durable commit).
    ["(ref) 401 from the world", () => ({ url: `${server.url}/v1/customers/cus_AcmeNorthwind`, init: { headers: { authorization: `Bearer ${world.key.slice(0, -4)}zzzz` } } })],
    ["(ref) POST, trace row only", () => ({ url: `${server.url}/v1/refunds`, init: { method: "POST", headers: { ...auth, "content-type": "application/x-www-form-urlencoded" }, body: "charge=ch_unknown&amount=1" } })],
  ];
  // The floor drifts on a shared machine (neighbours, frequency): each endpoint is measured between two floor
  // measurements and compared with their mean, and the whole sequence runs --rounds times; the table shows the
  // median round of each row, and the range over rounds.
  const perRound = [];
  for (let round = 0; round < rounds; round++) {
    let floorBefore = await load("GET /health (floor)", health);
    const rows = [];
    for (const [name, make] of endpoints) {
      const r = await load(name, make);
      const floorAfter = await load("GET /health (floor)", health);
      const floor = { rps: (floorBefore.rps + floorAfter.rps) / 2, p99: (floorBefore.p99 + floorAfter.p99) / 2 };
      rows.push({ ...r, share: r.rps / floor.rps, p99x: r.p99 / floor.p99, floor });
      floorBefore = floorAfter;
    }
    perRound.push(rows);
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const range = (xs) => (xs.length > 1 ? ` [${fmt(Math.min(...xs) * 100, 0)}-${fmt(Math.max(...xs) * 100, 0)}%]` : "");
  const rangeX = (xs) => (xs.length > 1 ? ` [${fmt(Math.min(...xs), 2)}-${fmt(Math.max(...xs), 2)}x]` : "");
  const floors = perRound.flatMap((rows) => rows.map((r) => r.floor));
  console.log(`twin throughput: ${clients} clients (${clientKind === "http" ? "node:http keep-alive" : "fetch"}), ${seconds} s per measurement, ${rounds} round(s), through worlds serve (Miniflare)`);
  console.log(`  ${"GET /health (floor)".padEnd(28)} ${fmt(median(floors.map((f) => f.rps)), 0).padStart(6)} req/s (median)             p99 ${fmt(median(floors.map((f) => f.p99)))} ms`);
  const doFloorAt = endpoints.findIndex(([n]) => n === DO_FLOOR);
  const readAt = endpoints.findIndex(([n]) => n === READ);
  endpoints.forEach(([name], i) => {
    const rows = perRound.map((round) => round[i]);
    const shares = rows.map((r) => r.share);
    const p99s = rows.map((r) => r.p99x);
    const errors = rows.reduce((n, r) => n + r.errors, 0);
    const n = rows.reduce((k, r) => k + r.n, 0);
    console.log(
      `  ${name.padEnd(28)} ${fmt(median(rows.map((r) => r.rps)), 0).padStart(6)} req/s ${fmt(median(shares) * 100, 0)}% of floor${range(shares)}  p50 ${fmt(median(rows.map((r) => r.p50)))} ms  p99 ${fmt(median(rows.map((r) => r.p99)))} ms = ${fmt(median(p99s), 2)}x floor's${rangeX(p99s)}  ${name.startsWith("(") ? "(expected)" : "errors"} ${errors}/${n}`,
    );
  });
  // The cached read as a share of the no-op round trip measured just before it, round by round.
  const readShares = perRound.map((round) => round[readAt].rps / round[doFloorAt].rps);
  const p50s = perRound.map((round) => round[readAt].p50 / round[doFloorAt].p50);
  console.log(`  cached read / no-op DO round trip: ${fmt(median(readShares) * 100, 0)}% of its req/s${range(readShares)}, p50 ${fmt(median(p50s), 2)}x its p50${rangeX(p50s)}`);
} finally {
  await server.stop();
}
