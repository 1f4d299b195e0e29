// Runs the user's agent command once for one world. The argv after `--` is spawned directly (no shell: what
// the user typed is exactly what runs; `-- sh -c '...'` opts into a shell) in its own process group, so a
// timeout or Ctrl-C kills the agent and everything it started; what left the group (a detached child) is found
// by the marker in its environment (reap.ts). Nothing an agent does is fatal to the run: crashes, hangs, floods
// of output and commands that do not exist all come back as an AgentOutcome.
import { spawn, type ChildProcess } from "node:child_process";
import { killMarked, newRunMarker, reapRuns, RUN_MARKER } from "./reap";

export const REPLY_LIMIT = 256 * 1024;
export const STDERR_LIMIT = 64 * 1024;
/** After SIGTERM, how long the group gets before SIGKILL. */
const KILL_GRACE_MS = 1_000;

export interface AgentSpec {
  argv: readonly string[];
  /** Added to (and overriding) the inherited environment, after the server token is removed from it. */
  env: Record<string, string>;
  stdin: string;
  timeoutMs: number;
  cwd?: string;
  signal?: AbortSignal;
}

export interface AgentOutcome {
  /** False when the command could not be started at all (see spawn_error). */
  started: boolean;
  spawn_error: { code: string; message: string } | null;
  exit_code: number | null;
  /** The signal that ended the agent (ours on timeout/interrupt, or its own crash). */
  signal: NodeJS.Signals | null;
  timed_out: boolean;
  interrupted: boolean;
  duration_ms: number;
  /** Trimmed stdout, at most REPLY_LIMIT bytes of it. */
  reply: string;
  /** Every byte the agent wrote to stdout, kept or not. */
  stdout_bytes: number;
  reply_truncated: boolean;
  stderr: string;
  stderr_bytes: number;
  stderr_truncated: boolean;
}

/** Whether an outcome counts as the agent finishing its job (exit 0 in time). */
export function agentSucceeded(o: AgentOutcome): boolean {
  return o.started && !o.timed_out && !o.interrupted && o.exit_code === 0;
}

/** Agents still running (pid -> run marker), killed with all they started if this process exits under them. */
const live = new Map<number, string>();
let exitHookInstalled = false;
function track(pid: number, marker: string): void {
  live.set(pid, marker);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on("exit", () => {
      for (const [p, m] of live) endAll(p, m);
    });
  }
}

/** The agent's group, then every process that left it but carries the run's marker. */
function endAll(pid: number, marker: string): void {
  killGroup(pid, "SIGKILL");
  killMarked(marker, pid);
}

/**
 * Agents whose exit was seen in this turn of the event loop, reaped together once it ends: the process exits
 * that arrive in one turn (a wave of agents finishing at once) share one walk of /proc (reap.ts). Each agent's
 * outcome waits for its reap, so nothing it left running outlives its episode.
 */
const exited: { pid: number; marker: string; reaped: () => void }[] = [];
function reapSoon(pid: number, marker: string): Promise<void> {
  killGroup(pid, "SIGKILL");
  return new Promise((reaped) => {
    if (exited.push({ pid, marker, reaped }) === 1) setImmediate(reapExited);
  });
}
function reapExited(): void {
  const batch = exited.splice(0);
  reapRuns(batch.map((e) => ({ marker: e.marker, root: e.pid })), new Set(live.keys()));
  for (const e of batch) {
    live.delete(e.pid);
    e.reaped();
  }
}

export function runAgent(spec: AgentSpec): Promise<AgentOutcome> {
  const started = Date.now();
  const stdout = new Capture(REPLY_LIMIT);
  const stderr = new Capture(STDERR_LIMIT);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== "WORLDS_TOKEN") env[k] = v;
  Object.assign(env, spec.env);
  const marker = newRunMarker();
  env[RUN_MARKER] = marker;

  return new Promise<AgentOutcome>((resolve) => {
    let child: ChildProcess;
    let timedOut = false;
    let interrupted = false;
    let settled = false;
    const timers: NodeJS.Timeout[] = [];

    const finish = (partial: Pick<AgentOutcome, "started" | "spawn_error" | "exit_code" | "signal">) => {
      if (settled) return;
      settled = true;
      for (const t of timers) clearTimeout(t);
      spec.signal?.removeEventListener("abort", onAbort);
      const out = stdout.text();
      const err = stderr.text();
      resolve({
        ...partial,
        timed_out: timedOut,
        interrupted,
        duration_ms: Date.now() - started,
        reply: out.trim(),
        stdout_bytes: stdout.total,
        reply_truncated: stdout.truncated,
        stderr: err,
        stderr_bytes: stderr.total,
        stderr_truncated: stderr.truncated,
      });
    };

    const stop = () => {
      const pid = child?.pid;
      if (pid === undefined) return;
      killGroup(pid, "SIGTERM");
      const t = setTimeout(() => killGroup(pid, "SIGKILL"), KILL_GRACE_MS);
      t.unref();
      timers.push(t);
    };
    const onAbort = () => {
      interrupted = true;
      stop();
    };

    if (spec.argv.length === 0) {
      finish({ started: false, spawn_error: { code: "EMPTY", message: "no agent command was given after '--'" }, exit_code: null, signal: null });
      return;
    }
    if (spec.signal?.aborted) {
      interrupted = true;
      finish({ started: false, spawn_error: null, exit_code: null, signal: null });
      return;
    }

    try {
      child = spawn(spec.argv[0], spec.argv.slice(1), { cwd: spec.cwd, env, stdio: ["pipe", "pipe", "pipe"], detached: true });
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      finish({ started: false, spawn_error: { code: err.code ?? "ERROR", message: err.message }, exit_code: null, signal: null });
      return;
    }

    child.once("error", (e: NodeJS.ErrnoException) => {
      // Spawn failures (ENOENT, EACCES) arrive here with no pid; a later error on a started child is a kill failure.
      if (child.pid === undefined) finish({ started: false, spawn_error: { code: e.code ?? "ERROR", message: e.message }, exit_code: null, signal: null });
    });
    if (child.pid === undefined) return;
    const pid = child.pid;
    track(pid, marker);

    child.stdout!.on("data", (b: Buffer) => stdout.push(b));
    child.stderr!.on("data", (b: Buffer) => stderr.push(b));
    // An agent that never reads stdin (or exits first) makes the write fail with EPIPE: not its fault.
    child.stdin!.on("error", () => undefined);
    child.stdin!.end(spec.stdin);

    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, spec.timeoutMs);
    timers.push(timer);
    spec.signal?.addEventListener("abort", onAbort, { once: true });

    child.once("exit", (code, sig) => {
      // Whatever the agent left running goes too, in its group or not, so no episode outlives its world.
      const reaped = reapSoon(pid, marker);
      // Let buffered output land, but a grandchild holding the pipes open must not stall the run.
      const done = () => void reaped.then(() => finish({ started: true, spawn_error: null, exit_code: code, signal: sig }));
      let pending = 2;
      const closed = () => --pending === 0 && done();
      if (child.stdout!.readableEnded) closed();
      else child.stdout!.once("end", closed);
      if (child.stderr!.readableEnded) closed();
      else child.stderr!.once("end", closed);
      const t = setTimeout(() => {
        child.stdout!.destroy();
        child.stderr!.destroy();
        done();
      }, 500);
      t.unref();
      timers.push(t);
    });
  });
}

function killGroup(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(-pid, sig);
  } catch {
    // ESRCH: the group is already gone.
  }
}

/** Keeps the first `limit` bytes and counts the rest; reading never stops, so the agent never blocks on a full pipe. */
class Capture {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  total = 0;
  truncated = false;
  constructor(private readonly limit: number) {}
  push(b: Buffer): void {
    this.total += b.length;
    const room = this.limit - this.kept;
    if (room <= 0) {
      this.truncated = true;
      return;
    }
    const part = b.length > room ? b.subarray(0, room) : b;
    if (b.length > room) this.truncated = true;
    this.chunks.push(Buffer.from(part));
    this.kept += part.length;
  }
  text(): string {
    return Buffer.concat(this.chunks).toString("utf8");
  }
}
