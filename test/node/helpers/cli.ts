// Runs the real built CLI (node bin/worlds.mjs) as its own process group, so a test can check that nothing it
// started (workerd, agents) outlives it, and can always clean up with one group kill.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
export const BIN = join(ROOT, "bin", "worlds.mjs");

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliProcess {
  child: ChildProcess;
  pgid: number;
  stdout(): string;
  stderr(): string;
  /** Resolves when stdout contains `text` (or rejects after `ms`). */
  waitFor(text: string | RegExp, ms?: number): Promise<string>;
  exited: Promise<CliResult>;
  signal(sig: NodeJS.Signals): void;
  /** SIGKILLs the whole group; safe to call twice. */
  cleanup(): void;
}

const started = new Set<number>();

export function startCli(args: string[], opts: { env?: Record<string, string | undefined>; cwd?: string } = {}): CliProcess {
  const env: Record<string, string | undefined> = { ...process.env, WORLDS_URL: undefined, WORLDS_TOKEN: undefined, ...opts.env };
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
  const child = spawn(process.execPath, [BIN, ...args], { cwd: opts.cwd ?? ROOT, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  const pgid = child.pid!;
  started.add(pgid);
  let out = "";
  let err = "";
  child.stdout!.setEncoding("utf8").on("data", (d: string) => (out += d));
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (err += d));
  const exited = new Promise<CliResult>((resolve) => child.once("close", (code, signal) => resolve({ code, signal, stdout: out, stderr: err })));
  return {
    child,
    pgid,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitFor: (text, ms = 30_000) =>
      new Promise((resolve, reject) => {
        const match = () => (typeof text === "string" ? out.includes(text) : text.test(out));
        if (match()) return resolve(out);
        const t = setTimeout(() => {
          child.stdout!.off("data", on);
          reject(new Error(`timed out waiting for ${text}\nstdout:\n${out}\nstderr:\n${err}`));
        }, ms);
        const on = () => {
          if (match()) {
            clearTimeout(t);
            child.stdout!.off("data", on);
            resolve(out);
          }
        };
        child.stdout!.on("data", on);
        void exited.then(() => {
          if (!match()) {
            clearTimeout(t);
            reject(new Error(`the CLI exited before printing ${text}\nstdout:\n${out}\nstderr:\n${err}`));
          }
        });
      }),
    signal: (sig) => child.kill(sig),
    cleanup: () => killGroup(pgid),
  };
}

export async function runCli(args: string[], opts: { env?: Record<string, string | undefined>; cwd?: string; timeoutMs?: number } = {}): Promise<CliResult & { leftovers: number[] }> {
  const p = startCli(args, opts);
  const timer = setTimeout(() => p.cleanup(), opts.timeoutMs ?? 120_000);
  const res = await p.exited;
  clearTimeout(timer);
  const leftovers = groupMembers(p.pgid);
  p.cleanup();
  return { ...res, leftovers };
}

/** Pids still in process group `pgid` (workerd, an agent's children...). */
export function groupMembers(pgid: number): number[] {
  const r = spawnSync("pgrep", ["-g", String(pgid)], { encoding: "utf8" });
  return r.stdout.split("\n").filter(Boolean).map(Number);
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, "SIGKILL");
  } catch {
    // already gone
  }
}

/** For afterAll: no test leaves a group behind even when it failed half-way. */
export function killAllStarted(): void {
  for (const p of started) killGroup(p);
  started.clear();
}

export async function waitUntil(pred: () => boolean, ms = 5_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (pred()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return pred();
}
