// Where a server without --persist keeps its worlds' storage. Miniflare's default is a directory under the
// system temp dir, on disk: every write request's durable commit then waited for the disk, which capped
// writes at a quarter of the runtime's floor (bench/twin-throughput.mjs: a POST that writes only its trace row
// ran at 345 req/s there and 589 on a RAM filesystem). The state is discarded when the server stops, so it
// needs no disk: on Linux it goes to /dev/shm. Each directory names its process, so one left behind by a
// killed process is removed by the next server that starts. A deleted world still leaves its empty database
// files (about 80 KB) until the server stops, so the RAM filesystem is used only when it has room to spare
// (containers often mount a 64 MB /dev/shm).
import { existsSync, mkdtempSync, readdirSync, rmSync, statfsSync } from "node:fs";
import { join } from "node:path";

const RAM_DIR = "/dev/shm";
const PREFIX = "worlds-scratch-";
/** Free space the RAM filesystem must have: room for some ten thousand worlds. */
export const MIN_FREE_BYTES = 1024 ** 3;

export interface ScratchStorage {
  dir: string;
  /** Idempotent. */
  remove(): void;
}

/** A fresh directory on a RAM filesystem, or null where there is none (the default temp dir is used then). */
export function scratchStorage(root = RAM_DIR, minFree = MIN_FREE_BYTES): ScratchStorage | null {
  if (process.platform !== "linux" || !existsSync(root)) return null;
  let dir: string;
  try {
    sweepAbandoned(root);
    const fs = statfsSync(root);
    if (fs.bavail * fs.bsize < minFree) return null;
    dir = mkdtempSync(join(root, `${PREFIX}${process.pid}-`));
  } catch {
    return null;
  }
  let removed = false;
  const remove = () => {
    if (removed) return;
    removed = true;
    process.removeListener("exit", remove);
    rmSync(dir, { recursive: true, force: true });
  };
  // A normal exit or an uncaught error still cleans up; only SIGKILL leaves it for the next sweep.
  process.once("exit", remove);
  return { dir, remove };
}

/** Removes scratch directories whose process is gone. */
export function sweepAbandoned(root = RAM_DIR): void {
  for (const name of readdirSync(root)) {
    const pid = name.startsWith(PREFIX) ? Number(name.slice(PREFIX.length).split("-")[0]) : NaN;
    if (!Number.isInteger(pid) || pid === process.pid || alive(pid)) continue;
    rmSync(join(root, name), { recursive: true, force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}
