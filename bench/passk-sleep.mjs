// The harness around agents that wait, as agents calling a model do: E episodes of an agent that sleeps 1 s, C at
// a time, against the ideal wall time (ceil(E / C) seconds: the agents alone, nothing else). In each of --rounds
// alternating rounds, every case runs once, in turn:
//   - bare: the same agent command spawned E times, C at a time, with no worlds (what starting processes costs);
//   - passk --url: the built CLI against one `worlds serve` started for the benchmark (server already up);
//   - passk --server auto: the CLI starting and stopping its own server, as a user's first command does;
//   - promptfoo: its exec provider running the same command for E tests at --max-concurrency C, installed in
//     this benchmark's own temporary folder (never a project dependency); the row is skipped, saying why, when
//     it cannot be installed.
// Every passk case reports its infrastructure errors (the results' own count) and the CLI process's peak RSS
// (VmHWM of the CLI alone, not its workerd or agents); every case its CPU (its process tree; for --url plus the
// server's) and the machine's busy cores over the case, to show when the two cores are the bound.
// Usage: node bench/passk-sleep.mjs [--episodes 90] [--concurrency 10] [--rounds 3] [--no-peer] [--promptfoo-version V]
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { fmt, startServer } from "./lib/server.mjs";
import { noopTasksFile } from "./lib/noop-tasks.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const arg = (name, dflt) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : dflt);
const episodes = Number(arg("--episodes", 90));
const concurrency = Number(arg("--concurrency", 10));
const rounds = Number(arg("--rounds", 3));
const promptfooVersion = arg("--promptfoo-version", "0.121.20");
const ideal = Math.ceil(episodes / concurrency) * 1000;
const work = join(tmpdir(), "worlds-bench-sleep");
mkdirSync(work, { recursive: true });
// The agent: a shell script that sleeps a second and answers (promptfoo's exec provider appends the prompt and
// its options as arguments; the script ignores them), the same command for every case.
const script = join(work, "sleep1.sh");
writeFileSync(script, "sleep 1\necho done\n");
const AGENT = ["sh", script];
// Tasks numbered apart so the runs' worlds are distinct: one run of E tasks (episodes = tasks x 1 run).
const tasks = noopTasksFile(episodes, work);

/** Busy and total jiffies of the whole machine, from /proc/stat. */
function cpuTimes() {
  const f = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
  const idle = f[3] + (f[4] ?? 0);
  const total = f.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

/** Runs a command under /usr/bin/time, sampling the peak RSS of the direct child (the CLI) from /proc. */
function timed(cmd, args, opts = {}) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const c0 = cpuTimes();
    const child = spawn("/usr/bin/time", ["-f", "cpu_s=%U+%S", cmd, ...args], { cwd: opts.cwd ?? root, env: { ...process.env, ...(opts.env ?? {}) }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    let hwmKb = 0;
    const sample = setInterval(() => {
      try {
        // /usr/bin/time's child is the command itself.
        const kids = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
        for (const k of kids.slice(0, 1)) {
          const m = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${k}/status`, "utf8"));
          if (m) hwmKb = Math.max(hwmKb, Number(m[1]));
        }
      } catch {}
    }, 50);
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err = (err + d).slice(-200_000)));
    child.on("error", reject);
    child.on("close", (code) => {
      clearInterval(sample);
      const c1 = cpuTimes();
      const cpu = /cpu_s=([\d.]+)\+([\d.]+)/.exec(err);
      resolve({ ms: performance.now() - t0, code, out, err, rssMb: hwmKb / 1024, cpuMs: cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : NaN, busyCores: ((c1.busy - c0.busy) / (c1.total - c0.total)) * 2 });
    });
  });
}

async function bare() {
  const t0 = performance.now();
  const c0 = cpuTimes();
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < episodes) {
      next++;
      await new Promise((resolve) => spawn(AGENT[0], AGENT.slice(1), { stdio: "ignore" }).on("close", resolve));
    }
  }));
  const c1 = cpuTimes();
  return { ms: performance.now() - t0, busyCores: ((c1.busy - c0.busy) / (c1.total - c0.total)) * 2 };
}

async function passk(extra, env = {}) {
  const r = await timed(process.execPath, [join(root, "bin", "worlds.mjs"), "passk", "--tasks", tasks, "--runs", "1", "--concurrency", String(concurrency), "--json", ...extra, "--", ...AGENT], { env });
  let doc;
  try {
    doc = JSON.parse(r.out);
  } catch {
    throw new Error(`passk ${extra.join(" ")} gave no results (exit ${r.code}):\n${r.err.slice(-3000)}`);
  }
  const worlds = doc.runs?.flatMap((run) => run.worlds) ?? [];
  const infra = doc.crash_test?.infra_errors?.count ?? NaN;
  const messages = worlds.filter((w) => w.infra_error).slice(0, 3).map((w) => `${w.infra_error.stage}: ${w.infra_error.message}`);
  return { ...r, episodes: worlds.length, infra, messages };
}

/** promptfoo installed into this benchmark's own folder (pinned), or the reason it could not be. */
function installPromptfoo() {
  const dir = join(work, `promptfoo-${promptfooVersion}`);
  const bin = join(dir, "node_modules", ".bin", "promptfoo");
  if (existsSync(bin)) return { bin, dir };
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "bench-peer", private: true }));
  const r = spawnSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", `promptfoo@${promptfooVersion}`], { cwd: dir, encoding: "utf8", timeout: 900_000 });
  if (r.status !== 0 || !existsSync(bin)) return { error: `npm install promptfoo@${promptfooVersion} failed: ${(r.stderr || r.error?.message || "").trim().split("\n").slice(-3).join(" ")}` };
  return { bin, dir };
}

function promptfooConfig(dir) {
  const path = join(dir, "bench.yaml");
  const lines = ["description: worlds bench peer", "prompts:", "  - 'Ticket {{n}}'", "providers:", `  - id: 'exec: sh ${script}'`, "tests:"];
  for (let i = 0; i < episodes; i++) lines.push(`  - vars: { n: ${i + 1} }`);
  writeFileSync(path, lines.join("\n") + "\n");
  return path;
}

async function promptfoo(pf, config) {
  const env = { PROMPTFOO_DISABLE_TELEMETRY: "1", PROMPTFOO_DISABLE_UPDATE: "1", PROMPTFOO_CONFIG_DIR: join(pf.dir, ".promptfoo"), PROMPTFOO_CACHE_ENABLED: "false", NO_COLOR: "1" };
  const r = await timed(process.execPath, [pf.bin, "eval", "-c", config, "--max-concurrency", String(concurrency), "--no-cache", "--no-write", "--no-table", "--no-progress-bar"], { cwd: pf.dir, env });
  if (r.code !== 0 && r.code !== 100) throw new Error(`promptfoo eval exited ${r.code}:\n${r.err.slice(-2000)}${r.out.slice(-2000)}`);
  return r;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const span = (xs, d = 2) => `${fmt(median(xs), d)} [${fmt(Math.min(...xs), d)}-${fmt(Math.max(...xs), d)}]`;

const pf = process.argv.includes("--no-peer") ? { error: "skipped (--no-peer)" } : installPromptfoo();
const pfConfig = pf.bin ? promptfooConfig(pf.dir) : null;
const server = await startServer();
const load0 = loadavg();
const rows = { bare: [], url: [], auto: [], promptfoo: [] };
try {
  await passk(["--url", server.url], { WORLDS_TOKEN: server.token }); // warm the server's isolate
  for (let r = 0; r < rounds; r++) {
    rows.bare.push(await bare());
    const s0 = server.cpuMs();
    const url = await passk(["--url", server.url], { WORLDS_TOKEN: server.token });
    url.serverCpuMs = server.cpuMs() - s0;
    rows.url.push(url);
    rows.auto.push(await passk(["--server", "auto"]));
    if (pf.bin) rows.promptfoo.push(await promptfoo(pf, pfConfig));
  }
} finally {
  await server.stop();
}
const load1 = loadavg();
console.log(`${episodes} episodes of \`sh sleep1.sh\` (sleep 1), concurrency ${concurrency}, ${rounds} alternating rounds; ideal wall ${fmt(ideal / 1000)} s`);
console.log(`load average ${load0.map((x) => fmt(x)).join(" ")} at the start, ${load1.map((x) => fmt(x)).join(" ")} at the end; medians [ranges]`);
const line = (name, rs, more = () => "") => console.log(`  ${name.padEnd(22)} wall ${span(rs.map((x) => x.ms / 1000))} s = ${span(rs.map((x) => x.ms / ideal))}x ideal   busy cores ${fmt(median(rs.map((x) => x.busyCores)), 2)} of 2${more(rs)}`);
line("bare spawns", rows.bare);
const infra = (rs) => `   infrastructure errors ${rs.map((x) => x.infra).join(", ")} (of ${rs[0].episodes} each)   CLI peak RSS ${span(rs.map((x) => x.rssMb), 0)} MB   CPU ${fmt(median(rs.map((x) => x.cpuMs)) / 1000, 2)} s`;
line("passk --url", rows.url, (rs) => infra(rs) + ` + server ${fmt(median(rs.map((x) => x.serverCpuMs)) / 1000, 2)} s`);
line("passk --server auto", rows.auto, (rs) => infra(rs) + " (CLI + its workerd)");
if (pf.bin) line(`promptfoo ${promptfooVersion} exec`, rows.promptfoo, (rs) => `   peak RSS ${span(rs.map((x) => x.rssMb), 0)} MB   CPU ${fmt(median(rs.map((x) => x.cpuMs)) / 1000, 2)} s`);
else console.log(`  promptfoo: row skipped, ${pf.error}`);
if (pf.bin) console.log(`  passk --server auto / promptfoo wall: ${span(rows.auto.map((x, i) => x.ms / rows.promptfoo[i].ms))}x (per round)`);
for (const [name, rs] of [["--url", rows.url], ["auto", rows.auto]]) for (const x of rs) for (const m of x.messages) console.log(`  ${name} infrastructure error: ${m}`);
