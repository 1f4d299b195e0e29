// Where `worlds view` reads runs: a folder on disk (rescanned on every index, so a run that just finished shows
// up on reload), or a server's history (its finished runs' results, each fetched once: a finished run never
// changes). Both give the pages the same list.
import { resolve } from "node:path";
import type { AdminClient } from "../client";
import type { Results } from "../../core/results/types";
import { kindOf, scanDir, type Scan, type ViewRun } from "./scan";
import type { RunSource } from "./app";

export function folderSource(dir: string): RunSource {
  const root = resolve(dir);
  return { label: `runs under ${dir}`, scan: async () => scanDir(root) };
}

/** The newest runs a server holds, at most this many: the index is a page, not an archive. */
export const SERVER_RUNS = 100;

export function serverSource(client: AdminClient, url: string): RunSource {
  const kept = new Map<string, ViewRun>();
  return {
    label: `runs on ${url}`,
    async scan(): Promise<Scan> {
      const skipped: string[] = [];
      const list = await client.runs({ limit: SERVER_RUNS });
      const runs: ViewRun[] = [];
      for (const s of list) {
        let run = kept.get(s.id);
        if (!run) {
          if (s.finished_at === null) {
            skipped.push(`${s.id}: still running (${s.status})`);
            continue;
          }
          const view = await client.run(s.id);
          if (!view.results || !Array.isArray((view.results as Results).runs)) {
            skipped.push(`${s.id}: no results to show (${s.status})`);
            continue;
          }
          const results = view.results as Results;
          run = { id: s.id, source: s.id, at: Date.parse(s.finished_at ?? s.created_at), results, kind: kindOf(results), cardFolder: null };
          kept.set(s.id, run);
        }
        runs.push(run);
      }
      return { runs, skipped, truncated: list.length >= SERVER_RUNS };
    },
  };
}
