// What an isolated account episode costs the server, and what creating a world of a large account costs against a
// small one, for this build and optionally a base build (another checkout, built) in alternating rounds on the
// same machine in the same session, so a loaded machine moves both alike.
//   - server CPU an episode: `worlds passk --url` of E isolated no-op tasks on acme-small (every world its own seed:
//     the account plus that task's ticket), C at a time, the agent `true`; the server's CPU (its Node process and
//     workerd, from /proc) over the run, divided by E;
//   - world creation: POST /admin/worlds of acme-small and of the tier-4 family world's account (acme-small plus
//     4,000 generated customers, packs/families/acme_refund_desk t4), each creation with a ticket of its own as an
//     isolated task's world has, p50 over --reps after two warm-ups, and the ratio of the two; then the same with
//     one seed for every world (a tier's k runs: the request and seed caches hit).
// Usage: node bench/episode-cpu.mjs [--base DIR] [--episodes 200] [--concurrency 20] [--rounds 3] [--reps 20]
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { fmt, percentile, startServer } from "./lib/server.mjs";
import { noopTasksFile } from "./lib/noop-tasks.mjs";
import { importCore } from "./lib/bundle-core.mjs";
import { timed } from "./lib/run.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const arg = (name, dflt) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : dflt);
const base = arg("--base", null);
const episodes = Number(arg("--episodes", 200));
const concurrency = Number(arg("--concurrency", 20));
const rounds = Number(arg("--rounds", 3));
const reps = Number(arg("--reps", 20));
const tasks = noopTasksFile(episodes);
const builds = [{ name: "this build", root }, ...(base ? [{ name: `base (${base})`, root: base }] : [])];

const [{ generateSeed }] = await importCore(["src/core/families/generate/index.ts"]);
const small = JSON.parse(readFileSync(join(root, "seeds", "acme-small.json"), "utf8"));
// The t4 tier's generator reference (its tier.yaml), over acme-small.
const tier4 = generateSeed({ generator: "acme-crowd", prng_seed: 2026, customers: 4000, shared_emails: 400 }, small, "acme-refund-desk-t4");
let ticketNo = 0;
/** The account with one ticket of its own, as an isolated task's world is seeded. */
const withTicket = (seed) => ({ ...seed, data: { ...seed.data, tickets: [{ id: 1, subject: `Question ${++ticketNo}`, description: "When is my next invoice? No changes please.", requester: { email: "billing.iris@example.com" } }] } });

async function passk(build, server, file, n) {
  const r = await timed(process.execPath, [join(build.root, "bin", "worlds.mjs"), "passk", "--url", server.url, "--tasks", file, "--runs", "1", "--concurrency", String(concurrency), "--json", "--", "sh", "-c", "true"], { cwd: root, env: { WORLDS_TOKEN: server.token } });
  let doc;
  try {
    doc = JSON.parse(r.out);
  } catch {
    throw new Error(`passk gave no results (exit ${r.code}):\n${r.err.slice(-3000)}`);
  }
  const worlds = doc.runs?.flatMap((x) => x.worlds) ?? [];
  if (worlds.length !== n) throw new Error(`passk ran ${worlds.length} of ${n} episodes`);
  return { ms: r.ms, infra: doc.crash_test?.infra_errors?.count ?? NaN };
}

/** p50 ms of POST /admin/worlds: each world with a ticket of its own, or (`same`) every world of one seed, as a tier's k runs. */
async function createTimes(server, seed, same = false) {
  const headers = { authorization: `Bearer ${server.token}`, "content-type": "application/json" };
  const times = [];
  const one = withTicket(seed);
  // The bodies are written before the clock starts: the time is the server's (and the loopback's), not the
  // benchmark's own JSON.stringify of a 2 MB seed.
  const bodies = Array.from({ length: reps + 2 }, () => JSON.stringify({ seed: same ? one : withTicket(seed) }));
  for (const [i, body] of bodies.entries()) {
    const t0 = performance.now();
    const res = await fetch(`${server.url}/admin/worlds`, { method: "POST", headers, body });
    const world = await res.json();
    const ms = performance.now() - t0;
    if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(world).slice(0, 500)}`);
    if (i >= 2) times.push(ms);
    await fetch(`${server.url}/admin/worlds/${world.id}`, { method: "DELETE", headers });
  }
  times.sort((a, b) => a - b);
  return percentile(times, 50);
}

const rows = new Map(builds.map((b) => [b.name, []]));
const warm = noopTasksFile(10);
console.log(`episode CPU and world creation, ${rounds} round(s), load ${loadavg().map((x) => x.toFixed(1)).join(" ")} at start`);
for (let round = 0; round < rounds; round++) {
  // Alternate which build goes first.
  const order = round % 2 ? [...builds].reverse() : builds;
  for (const build of order) {
    const server = await startServer({}, { root: build.root });
    try {
      await passk(build, server, warm, 10); // warm the isolate, the JIT and the seed caches
      const before = server.cpuMs();
      const p = await passk(build, server, tasks, episodes);
      const cpu = server.cpuMs() - before;
      const smallMs = await createTimes(server, small);
      const tierMs = await createTimes(server, tier4);
      const sameSmallMs = await createTimes(server, small, true);
      const sameTierMs = await createTimes(server, tier4, true);
      const row = { serverMsPerEpisode: cpu / episodes, wallMs: p.ms, infra: p.infra, smallMs, tierMs, sameSmallMs, sameTierMs, load: loadavg()[0] };
      rows.get(build.name).push(row);
      console.log(`  round ${round + 1} ${build.name}: server ${fmt(row.serverMsPerEpisode, 2)} ms CPU an episode (${episodes} at c${concurrency}, wall ${fmt(p.ms / 1000, 2)} s, ${p.infra} infrastructure errors); create (a ticket each) acme-small ${fmt(smallMs)} ms, tier 4 ${fmt(tierMs)} ms (${fmt(tierMs / smallMs, 2)}x), (one seed) ${fmt(sameSmallMs)} / ${fmt(sameTierMs)} ms (${fmt(sameTierMs / sameSmallMs, 2)}x); load ${fmt(row.load)}`);
    } finally {
      await server.stop();
    }
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log("medians:");
for (const [name, rs] of rows) console.log(`  ${name}: server ${fmt(median(rs.map((r) => r.serverMsPerEpisode)), 2)} ms CPU an episode; tier-4 creation ${fmt(median(rs.map((r) => r.tierMs / r.smallMs)), 2)}x acme-small's with a ticket each (${fmt(median(rs.map((r) => r.tierMs)))} vs ${fmt(median(rs.map((r) => r.smallMs)))} ms), ${fmt(median(rs.map((r) => r.sameTierMs / r.sameSmallMs)), 2)}x of one seed (${fmt(median(rs.map((r) => r.sameTierMs)))} vs ${fmt(median(rs.map((r) => r.sameSmallMs)))} ms)`);

