// Harness overhead of `worlds passk`: 30 tasks x 3 runs with a no-op agent (`node -e ""`), total wall time,
// against 90 bare spawns of the same command at the same concurrency in the same run (the floor: what running
// the agent costs with no worlds at all). Then the CLI's peak RSS over 100 and 1,000 episodes (memory should
// stay flat). Everything goes through the built CLI against one `worlds serve`, as a user would run it.
// Usage: node bench/harness-overhead.mjs [--concurrency N] [--skip-rss | --rss-only]
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { fmt, startServer } from "./lib/server.mjs";
import { noopTasksFile } from "./lib/noop-tasks.mjs";
import { timed as runTimed } from "./lib/run.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const arg = (name) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const concurrency = Number(arg("--concurrency")) || availableParallelism();
const NOOP = [process.execPath, "-e", ""];
// An agent that mostly waits, as one calling a model does: what overlapping world set-up with agents buys.
const WAITS = ["sleep", "0.2"];

const tasksFile = (n) => noopTasksFile(n);

const timed = (cmd, args, env = {}) => runTimed(cmd, args, { cwd: root, env });

async function bareSpawns(n, c, agent = NOOP) {
  const t0 = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: c }, async () => {
    while (next < n) {
      next++;
      await timed(agent[0], agent.slice(1));
    }
  }));
  return performance.now() - t0;
}

/**
 * One passk through the built CLI. With memory: the CLI runs under --trace-gc (results go to a file) so the heap
 * V8 kept after its last full collection, what the run really holds, is reported beside the peak RSS (which also
 * counts garbage not yet collected).
 */
async function passk(server, file, runs, extra = [], agent = NOOP, memory = false) {
  const jsonFile = join(dirname(file), `results-${runs}.json`);
  const output = memory ? ["--json-file", jsonFile] : ["--json"];
  const node = memory ? [process.execPath, "--trace-gc"] : [process.execPath];
  const server0 = server.cpuMs();
  const r = await timed("/usr/bin/time", ["-f", "maxrss_kb=%M cpu_s=%U+%S", ...node, join(root, "bin", "worlds.mjs"), "passk", "--tasks", file, "--runs", String(runs), "--concurrency", String(concurrency), ...output, ...extra, "--", ...agent], { WORLDS_URL: server.url, WORLDS_TOKEN: server.token });
  const doc = JSON.parse(memory ? readFileSync(jsonFile, "utf8") : r.out);
  const rss = Number(/maxrss_kb=(\d+)/.exec(r.err)?.[1] ?? NaN);
  const cpu = /cpu_s=([\d.]+)\+([\d.]+)/.exec(r.err);
  const cliCpuMs = cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : NaN;
  const serverCpuMs = server0 === null ? NaN : server.cpuMs() - server0;
  const fullGcs = [...r.out.matchAll(/Mark-Compact [\d.]+ \([\d.]+\) -> ([\d.]+) \(/g)].map((m) => Number(m[1]));
  const episodes = doc.runs?.reduce((s, run) => s + run.worlds.length, 0) ?? 0;
  return { ms: r.ms, rssMb: rss / 1024, liveMb: fullGcs.at(-1) ?? NaN, fullGcs, status: doc.status, episodes, cliCpuMs, serverCpuMs };
}

const server = await startServer();
try {
  const file30 = tasksFile(30);
  if (!process.argv.includes("--rss-only")) {
  await passk(server, file30, 1); // warm the server (isolate, JIT) before measuring
  const floor = await bareSpawns(90, concurrency);
  const run = await passk(server, file30, 3);
  const floor2 = await bareSpawns(90, concurrency);
  const bare = (floor + floor2) / 2;
  console.log(`harness overhead, concurrency ${concurrency}, agent \`node -e ""\``);
  console.log(`  90 bare spawns (mean of before/after)      ${fmt(bare)} ms`);
  console.log(`  passk 30 tasks x 3 runs (${run.episodes} episodes)      ${fmt(run.ms)} ms  (status ${run.status}, CLI start, compile and server calls included)`);
  console.log(`  ratio                                      ${fmt(run.ms / bare, 2)}x  (target <= 1.1)`);
  // What the harness itself costs: an agent that exits at once (`true`, no Node start), with where the CPU went.
  // On two cores a CPU-bound agent competes for every millisecond of it.
  const alone = await passk(server, file30, 3, [], ["true"]);
  console.log(`the harness alone (agent \`true\`, which exits at once)`);
  console.log(`  passk 30 tasks x 3 runs                    ${fmt(alone.ms)} ms wall, ${fmt(alone.ms / alone.episodes)} ms an episode`);
  console.log(`  CPU per episode                            CLI ${fmt(alone.cliCpuMs / alone.episodes)} ms (start-up and compile included), server ${fmt(alone.serverCpuMs / alone.episodes)} ms`);
  const waitBare = ((await bareSpawns(90, concurrency, WAITS)) + (await bareSpawns(90, concurrency, WAITS))) / 2;
  const waitRun = await passk(server, file30, 3, [], WAITS);
  console.log(`the same with an agent that waits (\`${WAITS.join(" ")}\`)`);
  console.log(`  90 bare spawns                             ${fmt(waitBare)} ms`);
  console.log(`  passk 30 tasks x 3 runs                    ${fmt(waitRun.ms)} ms`);
  console.log(`  ratio                                      ${fmt(waitRun.ms / waitBare, 2)}x`);
  }
  if (!process.argv.includes("--skip-rss")) {
    const small = await passk(server, tasksFile(100), 1, [], NOOP, true);
    const large = await passk(server, tasksFile(100), 10, [], NOOP, true);
    console.log(`memory of the CLI: peak RSS, and the heap still live after the last full collection`);
    for (const m of [small, large])
      console.log(`  ${String(m.episodes).padStart(5)} episodes   peak RSS ${fmt(m.rssMb)} MB   live heap after each full GC: ${m.fullGcs.map((x) => fmt(x)).join(", ")} MB  (${fmt(m.ms / 1000)} s)`);
    console.log(`  for ${fmt(large.episodes / small.episodes, 0)}x the episodes: peak RSS ${fmt(large.rssMb / small.rssMb, 2)}x; live heap at the last full GC ${fmt(large.liveMb / small.liveMb, 2)}x (flat is 1.0x)`);
  }
} finally {
  await server.stop();
}
