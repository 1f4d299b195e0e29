// What `worlds view DIR` shows: every results document under DIR (passk, tools run, evals run and family gate
// all write the same contract) and every tools run folder beside its results (its card). The walk is bounded in
// depth, entries and file size, skips what never holds results (node_modules, .git, the local server's .worlds),
// and reads a file only when its name ends in .json; a JSON file that is not a results document is left out.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { readResultsValue } from "../../core/compare/input";
import type { Results, RunKind } from "../../core/results/types";

export const MAX_DEPTH = 8;
export const MAX_ENTRIES = 20_000;
/** A results file of a thousand-task run is a few MB; anything far past that is not one. */
export const MAX_FILE_BYTES = 64 * 1024 * 1024;
const SKIP = new Set(["node_modules", ".git", ".worlds"]);

export interface ViewRun {
  /** Stable for a path: the page's links survive a rescan. */
  id: string;
  /** Where it came from: the file relative to DIR, or the server's run id. */
  source: string;
  /** The file's modification time (ms), or the server's run time; the index sorts newest first. */
  at: number;
  results: Results;
  kind: RunKind;
  /** A tools run's folder (run.json + episodes.jsonl beside the results): its card can be drawn. */
  cardFolder: string | null;
}

export interface Scan {
  runs: ViewRun[];
  /** Files that looked like results and were not (named with why), and whether the walk hit its bound. */
  skipped: string[];
  truncated: boolean;
}

export function runId(source: string): string {
  return createHash("sha256").update(source).digest("hex").slice(0, 12);
}

export function scanDir(root: string): Scan {
  const out: Scan = { runs: [], skipped: [], truncated: false };
  let entries = 0;
  const walk = (dir: string, depth: number) => {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      return;
    }
    for (const name of names) {
      if (++entries > MAX_ENTRIES) {
        out.truncated = true;
        return;
      }
      if (SKIP.has(name)) continue;
      const path = join(dir, name);
      let st;
      try {
        st = statSync(path);
      } catch {
        continue;
      }
      if (st.isDirectory()) {
        if (depth < MAX_DEPTH) walk(path, depth + 1);
        else out.truncated = true;
      } else if (st.isFile() && name.endsWith(".json") && name !== "run.json") {
        const rel = relative(root, path).split(sep).join("/");
        if (st.size > MAX_FILE_BYTES) {
          out.skipped.push(`${rel}: ${st.size} bytes, past the ${MAX_FILE_BYTES} a results file can be`);
          continue;
        }
        const results = readResults(path);
        if (results === null) continue;
        if (typeof results === "string") {
          out.skipped.push(`${rel}: ${results}`);
          continue;
        }
        const folder = dirname(path);
        const card = existsSync(join(folder, "run.json")) && existsSync(join(folder, "episodes.jsonl")) ? folder : null;
        out.runs.push({ id: runId(rel), source: rel, at: st.mtimeMs, results, kind: kindOf(results), cardFolder: card });
      }
    }
  };
  walk(root, 0);
  out.runs.sort((a, b) => b.at - a.at || a.source.localeCompare(b.source));
  return out;
}

/** A results document, null for JSON that is not one (a seed, a package.json), or why one is unreadable. */
function readResults(path: string): Results | string | null {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null || (value as { schema?: unknown }).schema !== "worlds.results/1") return null;
  // An early stop (a bad flag, no server) is a results document without runs: nothing to browse.
  if (!Array.isArray((value as { runs?: unknown }).runs)) return null;
  try {
    const read = readResultsValue(value, path);
    return read.kind === "full" ? (value as Results) : null;
  } catch (e) {
    return (e as Error).message.replace(`${path}: `, "");
  }
}

/** The run's kind; documents from before `rerun` are account runs unless their tasks are a family's tiers. */
export function kindOf(r: Results): RunKind {
  return r.rerun?.kind ?? "account";
}
