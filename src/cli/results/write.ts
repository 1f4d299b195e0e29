// Writes --json-file, --report and --junit. Each file is written to a temporary sibling and renamed into place,
// so a reader (a CI step, a browser refreshing the report) never sees half a file, and a crash mid-write leaves
// the previous file intact. Paths are checked before the run starts, so a typo costs nothing.
import { randomBytes } from "node:crypto";
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { renderHtml } from "../../core/report/html";
import { renderJunit } from "../../core/report/junit";
import { serializeResults } from "../../core/results/serialize";
import type { Results } from "../../core/results/types";

export interface OutputFlags {
  "json-file"?: string;
  report?: string;
  junit?: string;
}

export class OutputPathError extends Error {}

const FLAGS = ["json-file", "report", "junit"] as const;

/** Refuses, before any world exists, two outputs on one path and a path that is a directory. */
export function checkOutputPaths(flags: OutputFlags): void {
  const seen = new Map<string, string>();
  for (const flag of FLAGS) {
    const p = flags[flag];
    if (p === undefined) continue;
    if (p === "") throw new OutputPathError(`--${flag} needs a file path`);
    const abs = resolve(p);
    const other = seen.get(abs);
    if (other) throw new OutputPathError(`--${other} and --${flag} both name ${p}; give each its own file`);
    seen.set(abs, flag);
    if (isDirectory(abs)) throw new OutputPathError(`--${flag} ${p} is a directory; name a file inside it`);
  }
}

/** Renders and writes every requested output; returns the paths written, in flag order. */
export function writeOutputs(results: Results, flags: OutputFlags): string[] {
  checkOutputPaths(flags);
  const written: string[] = [];
  const render: Record<(typeof FLAGS)[number], () => string> = {
    "json-file": () => serializeResults(results),
    report: () => renderHtml(results),
    junit: () => renderJunit(results),
  };
  for (const flag of FLAGS) {
    const p = flags[flag];
    if (p === undefined) continue;
    try {
      writeFileAtomic(p, render[flag]());
    } catch (e) {
      throw new OutputPathError(`could not write --${flag} ${p}: ${(e as Error).message}`);
    }
    written.push(p);
  }
  return written;
}

export function writeFileAtomic(path: string, text: string): void {
  const dir = dirname(resolve(path));
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  let fd: number | null = null;
  try {
    fd = openSync(tmp, "wx", 0o644);
    writeSync(fd, text);
    fsyncSync(fd);
    closeSync(fd);
    fd = null;
    renameSync(tmp, path);
  } catch (e) {
    if (fd !== null) closeSync(fd);
    rmSync(tmp, { force: true });
    throw e;
  }
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
