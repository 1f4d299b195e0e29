// Ending every process an agent started, including the ones that left its process group. An agent is spawned in
// a group of its own and the group is killed when it exits, but a child spawned with `detached: true` (setsid)
// is in a new session and group, and survives that. So every agent is started with a marker in its environment,
// which every descendant inherits, and on Linux the processes carrying it are found in /proc and killed, with
// any process still below the agent in the tree (one that replaced its environment). Elsewhere (no /proc) the
// group kill is all there is.
import { closeSync, openSync, readdirSync, readFileSync, readSync } from "node:fs";
import { randomBytes } from "node:crypto";

/** The environment variable every process of one agent run carries (docs/agent-contract.md). */
export const RUN_MARKER = "WORLDS_AGENT_RUN";

export function newRunMarker(): string {
  return `${process.pid}-${randomBytes(8).toString("hex")}`;
}

const hasProc = (() => {
  try {
    readFileSync("/proc/self/stat");
    return true;
  } catch {
    return false;
  }
})();

/** One agent run to end: its marker and the agent's own pid. */
export interface MarkedRun {
  marker: string;
  root: number;
}

/**
 * Kills (SIGKILL) every process that carries `RUN_MARKER=<marker>` or descends from `root`, until a pass finds
 * none (a process may fork while the last pass ran). Synchronous, so it also runs in an exit handler. Answers
 * how many it killed.
 */
export function killMarked(marker: string, root: number): number {
  return reapRuns([{ marker, root }]);
}

/**
 * killMarked for several runs, one walk of /proc per pass for all of them: agents that end together (a wave of
 * them at high concurrency) cost one scan of the process table instead of one each, which grew with the square
 * of the concurrency (at 100 agents the per-agent scans were over a quarter of the CLI's CPU;
 * bench/passk-sleep.mjs). Answers how many it killed.
 */
export function reapRuns(runs: readonly MarkedRun[], running: ReadonlySet<number> = new Set()): number {
  if (!hasProc || runs.length === 0) return 0;
  const needles = runs.map((r) => Buffer.from(`${RUN_MARKER}=${r.marker}\0`));
  const roots = new Set(runs.map((r) => r.root));
  let killed = 0;
  for (let pass = 0; pass < 5; pass++) {
    const found = markedProcesses(needles, roots, running);
    if (found.length === 0) break;
    for (const pid of found) {
      try {
        process.kill(pid, "SIGKILL");
        killed++;
      } catch {
        // gone already
      }
    }
  }
  return killed;
}

/**
 * `running`: the pids of agents still running, each the leader of its own session (spawned detached). A process
 * in one of their sessions was forked inside that session, so it descends from that agent and is reaped with
 * it, never with these runs: its environment need not be read (at 100 agents, nearly every process scanned).
 */
function markedProcesses(needles: readonly Buffer[], roots: ReadonlySet<number>, running: ReadonlySet<number>): number[] {
  // Every descendant of an agent was created after it, so it has a higher pid unless the kernel's pid counter
  // wrapped in between: then every process is a candidate. This keeps the scan to a few dozen processes.
  const last = lastPid();
  const lowest = Math.min(...roots);
  const wrapped = last !== null && last < lowest;
  const parents = new Map<number, number>();
  const marked = new Set<number>();
  for (const name of readdirSync("/proc")) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid === process.pid || (!wrapped && pid < lowest)) continue;
    const stat = statOf(pid);
    if (stat === null) continue; // gone, or a zombie: nothing left to kill
    parents.set(pid, stat.ppid);
    if (running.has(stat.sid) && !roots.has(stat.sid)) continue;
    try {
      const environ = readFileSync(`/proc/${pid}/environ`);
      if (needles.some((n) => environ.includes(n))) marked.add(pid);
    } catch {
      // another user's process, or gone: not ours
    }
  }
  // Below an agent or below a marked process, whatever its environment says now.
  const out = new Set(marked);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, ppid] of parents)
      if (!out.has(pid) && (roots.has(ppid) || out.has(ppid))) {
        out.add(pid);
        grew = true;
      }
  }
  return [...out];
}

/** The parent pid and session from /proc/<pid>/stat, or null for a process that is gone or a zombie. */
function statOf(pid: number): { ppid: number; sid: number } | null {
  let stat: string;
  try {
    stat = readProcStat(`/proc/${pid}/stat`);
  } catch {
    return null;
  }
  // "pid (comm) state ppid pgrp session ...": comm may hold spaces and parentheses, so read after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ", 5);
  return fields[0] === "Z" || fields[0] === "X" ? null : { ppid: Number(fields[1]), sid: Number(fields[3]) };
}

/**
 * A reap reads one stat line per process it walks (at 100 agents, hundreds a reap): one open, one read into a
 * buffer kept for it and one close, not readFileSync's fstat, fresh buffer and read to EOF (two reads on /proc).
 * The kernel writes the whole line in one read when the buffer holds it; a line that fills it is read again whole.
 */
const statBuf = Buffer.alloc(4096);
function readProcStat(path: string): string {
  const fd = openSync(path, "r");
  let n: number;
  try {
    n = readSync(fd, statBuf, 0, statBuf.length, 0);
  } finally {
    closeSync(fd);
  }
  return n < statBuf.length ? statBuf.toString("latin1", 0, n) : readFileSync(path, "latin1");
}

function lastPid(): number | null {
  try {
    return Number(readFileSync("/proc/sys/kernel/ns_last_pid", "utf8").trim());
  } catch {
    return null;
  }
}
