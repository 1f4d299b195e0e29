// One file per trial beside the results JSON (`runs.json` -> `runs.trial-1.json`, ...): every task's episode in that
// repetition, with the reward, each criterion and its reason, the conversation and the tool calls. The results JSON
// keeps the verdicts and statistics; these keep what a person reads to see why.
import { basename, dirname, extname, join } from "node:path";
import { writeFileAtomic } from "../results/write";
import type { TrialDetail } from "./run";

export const TRIAL_FORMAT = "worlds.evals-trial/v1";

export function trialPath(resultsPath: string, run: number): string {
  const ext = extname(resultsPath);
  return join(dirname(resultsPath), `${basename(resultsPath, ext)}.trial-${run}${ext || ".json"}`);
}

/** Writes trial 1..runs (a trial with no finished episode still gets its file, saying so); returns the paths. */
export function writeTrialFiles(resultsPath: string, file: string, slugs: readonly string[], runs: number, details: readonly TrialDetail[]): string[] {
  const order = new Map(slugs.map((s, i) => [s, i]));
  const written: string[] = [];
  for (let run = 1; run <= runs; run++) {
    const episodes = details.filter((d) => d.run === run).sort((a, b) => order.get(a.task)! - order.get(b.task)!);
    const path = trialPath(resultsPath, run);
    writeFileAtomic(path, JSON.stringify({ format: TRIAL_FORMAT, file, trial: run, episodes: episodes.map(({ run: _run, ...rest }) => rest) }, null, 2) + "\n");
    written.push(path);
  }
  return written;
}
