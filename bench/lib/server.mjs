// Starts `worlds serve` exactly as a user would (the built CLI, Miniflare inside), in its own process group so
// the benchmark can always stop it, and returns its URL and token.
import { execFileSync, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/**
 * `env` adds to the server's environment (e.g. OPENAI_BASE_URL for the models it runs itself: person, judge);
 * `opts.root` serves another checkout's build (an A/B against a base commit), this one's by default.
 */
export async function startServer(env = {}, opts = {}) {
  const from = opts.root ?? root;
  const child = spawn(process.execPath, [join(from, "bin", "worlds.mjs"), "serve"], { cwd: from, detached: true, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
  const stop = () => {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {}
  };
  process.on("exit", stop);
  let out = "";
  const ready = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worlds serve did not start in 180 s:\n${out}`)), 180_000);
    child.stdout.on("data", (d) => {
      out += d;
      const url = /WORLDS_URL=(\S+)/.exec(out)?.[1];
      const token = /WORLDS_TOKEN=(\S+)/.exec(out)?.[1];
      if (url && token) clearTimeout(timer), resolve({ url, token });
    });
    child.stderr.on("data", (d) => (out += d));
    child.on("exit", (code) => reject(new Error(`worlds serve exited ${code}:\n${out}`)));
  });
  return {
    ...ready,
    /** CPU time (ms) used so far by the server: its Node process and the workerd it runs (Linux; null elsewhere). */
    cpuMs: () => treeCpuMs(child.pid),
    async stop() {
      stop();
      await new Promise((r) => (child.exitCode !== null ? r() : child.on("exit", r)));
    },
  };
}

export function percentile(sorted, p) {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export const fmt = (n, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : "n/a");

let ticksPerSecond = null;

/** User + system CPU of a process and all its descendants, in ms, from /proc (null where there is no /proc). */
export function treeCpuMs(rootPid) {
  try {
    ticksPerSecond ??= Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
    const stats = new Map();
    for (const name of readdirSync("/proc")) {
      if (!/^\d+$/.test(name)) continue;
      try {
        // Fields after the command name (which may hold spaces): state ppid ... utime(12) stime(13).
        const f = readFileSync(`/proc/${name}/stat`, "utf8").split(") ")[1].split(" ");
        stats.set(Number(name), { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) });
      } catch {}
    }
    let ticks = 0;
    const tree = new Set([rootPid]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const [pid, s] of stats) if (!tree.has(pid) && tree.has(s.ppid)) tree.add(pid), (grew = true);
    }
    for (const pid of tree) ticks += stats.get(pid)?.ticks ?? 0;
    return (ticks * 1000) / ticksPerSecond;
  } catch {
    return null;
  }
}

/** `worlds model serve --script FILE` as a user runs it: its OPENAI_BASE_URL, and how to stop it. */
export function startScriptedModel(script) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, "bin", "worlds.mjs"), "model", "serve", "--script", script, "--quiet"], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const url = /OPENAI_BASE_URL=(\S+)/.exec(out)?.[1];
      if (url) resolve({ url, stop: () => child.kill("SIGTERM") });
    });
    child.on("exit", (code) => reject(new Error(`model serve exited ${code}: ${out}`)));
  });
}
