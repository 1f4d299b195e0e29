// Runs a command to its end, collecting its output and wall time: how the benchmarks run the CLI as a user does.
import { spawn } from "node:child_process";

export function timed(cmd, args, { cwd, env = {} } = {}) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ ms: performance.now() - t0, code, out, err }));
  });
}
