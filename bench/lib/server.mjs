// Starts `worlds serve` exactly as a user would (the built CLI, Miniflare inside), in its own process group so
// the benchmark can always stop it, and returns its URL and token.
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

export async function startServer() {
  const child = spawn(process.execPath, [join(root, "bin", "worlds.mjs"), "serve"], { cwd: root, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  const stop = () => {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {}
  };
  process.on("exit", stop);
  let out = "";
  const ready = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worlds serve did not start in 60 s:\n${out}`)), 60_000);
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
