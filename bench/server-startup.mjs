// Start-up of `--server auto` beside `worlds serve` on the same built bundle, alternating rounds (the machine is
// shared, so each round runs every case once, in turn, and the table gives medians and ranges):
//   - `worlds --version`: the CLI's own start, the floor under every command;
//   - `worlds serve --verbose` until it prints WORLDS_URL (started means migrated: its first health check is
//     where the Worker applies them), with the time of each step it reports;
//   - `worlds passk --server auto` on one task with the agent `true`: the whole command a user waits for, start,
//     one world, its grade and the stop included.
// CPU figures are the command's process tree (the CLI and its workerd). Usage: node bench/server-startup.mjs [--rounds N]
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { fmt, treeCpuMs } from "./lib/server.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const arg = (name, dflt) => (process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : dflt);
const rounds = arg("--rounds", 5);
const cli = join(root, "bin", "worlds.mjs");
const dir = mkdtempSync(join(tmpdir(), "worlds-startup-"));
const tasks = join(dir, "one.yaml");
writeFileSync(tasks, "version: 1\nseed: acme-small\nmode: isolated\ntasks:\n  - id: T-1\n    requester: billing.northwind@example.com\n    subject: Question\n    body: When is my next invoice?\n    expected: none\n");

/** Runs a command to its end under /usr/bin/time: wall ms and the CPU of its whole tree. */
function run(args) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn("/usr/bin/time", ["-f", "cpu_s=%U+%S", process.execPath, cli, ...args], { cwd: root, stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    child.stderr.on("data", (d) => (err += d));
    child.on("error", reject);
    child.on("close", (code) => {
      const cpu = /cpu_s=([\d.]+)\+([\d.]+)/.exec(err);
      resolve({ ms: performance.now() - t0, cpuMs: cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : NaN, code });
    });
  });
}

/** `worlds serve --verbose` until its URL: wall ms, CPU of its tree then, and its reported steps. */
function serve() {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [cli, "serve", "--verbose"], { cwd: root, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    const phases = {};
    child.stderr.on("data", (d) => {
      err += d;
      for (const m of err.matchAll(/\[start\] (.+?) at (\d+) ms/g)) phases[m[1]] = Number(m[2]);
    });
    child.stdout.on("data", (d) => {
      out += d;
      if (!/WORLDS_URL=/.test(out)) return;
      const ms = performance.now() - t0;
      const cpuMs = treeCpuMs(child.pid) ?? NaN;
      process.kill(-child.pid, "SIGTERM");
      child.on("exit", () => resolve({ ms, cpuMs, phases }));
    });
    child.on("error", reject);
    child.on("exit", (code) => (/WORLDS_URL=/.test(out) ? undefined : reject(new Error(`worlds serve exited ${code}:\n${err}`))));
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const span = (xs) => `${fmt(median(xs), 0)} ms [${fmt(Math.min(...xs), 0)}-${fmt(Math.max(...xs), 0)}]`;
const load0 = loadavg();
await run(["passk", "--server", "auto", "--tasks", tasks, "--runs", "1", "--json", "--", "true"]); // warm the page cache
const rows = { version: [], serve: [], auto: [] };
for (let r = 0; r < rounds; r++) {
  rows.version.push(await run(["--version"]));
  rows.serve.push(await serve());
  rows.auto.push(await run(["passk", "--server", "auto", "--tasks", tasks, "--runs", "1", "--json", "--", "true"]));
}
const load1 = loadavg();
console.log(`server start-up, ${rounds} alternating rounds; load average ${load0.map((x) => fmt(x, 1)).join(" ")} at the start, ${load1.map((x) => fmt(x, 1)).join(" ")} at the end`);
console.log(`  worlds --version (the CLI's own start)     wall ${span(rows.version.map((x) => x.ms))}   CPU ${fmt(median(rows.version.map((x) => x.cpuMs)), 0)} ms`);
console.log(`  worlds serve, until it prints its URL      wall ${span(rows.serve.map((x) => x.ms))}   CPU ${fmt(median(rows.serve.map((x) => x.cpuMs)), 0)} ms (CLI + workerd)`);
for (const p of ["miniflare loaded", "runtime started", "database migrated"]) {
  const at = rows.serve.map((x) => x.phases[p]).filter(Number.isFinite);
  if (at.length) console.log(`    ${p.padEnd(20)} at ${span(at)} after the process started`);
}
const auto = rows.auto.map((x) => x.ms);
console.log(`  passk --server auto, 1 task, agent \`true\`  wall ${span(auto)}   CPU ${fmt(median(rows.auto.map((x) => x.cpuMs)), 0)} ms (start, one world, grade, stop)`);
console.log(`  ratio: passk --server auto / worlds serve  ${fmt(median(rows.auto.map((x, i) => x.ms / rows.serve[i].ms)), 2)}x (median of the rounds' ratios)`);
console.log(`  target: --server auto start-up under 1 s wall: ${median(rows.serve.map((x) => x.ms)) < 1000 ? "met" : "not met"} (serve's start is auto's: the same startLocalServer)`);
