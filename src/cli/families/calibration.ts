// Pass rates that come only from gate runs. `family gate` writes each run's results document into the family's
// runs/ folder and records, per tier, the run's id, its day, the agent, k, the rate and the file's sha256; validate
// finds that file for every entry, checks its bytes and that it measured what the entry says. A tier with no
// entry is uncalibrated, and says so.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { RUN_ID_PATTERN, RUNS_DIR, type PassRate } from "../../core/families/schema";
import type { FamilyProblem } from "../../core/families/rules";
import type { Results } from "../../core/results/types";
import { pct } from "../../core/families/vocabulary";
import type { LoadedFamily, LoadedTier } from "./load";

const MAX_RESULTS_FILE = 64 * 1024 * 1024;

export function resultsPath(familyDir: string, e: { run: string; results?: string }): string {
  return join(familyDir, RUNS_DIR, e.results ?? `${e.run}.json`);
}

const sha256 = (bytes: Buffer | string) => createHash("sha256").update(bytes).digest("hex");

/** Writes a gate run's results into runs/ and answers its id and digest (the id carries the day and the digest's start). */
export function writeRun(familyDir: string, results: Results, day: string): { run: string; results_sha256: string; path: string } {
  const bytes = JSON.stringify(results, null, 2) + "\n";
  const digest = sha256(bytes);
  const run = `gate-${day}-${digest.slice(0, 12)}`;
  mkdirSync(join(familyDir, RUNS_DIR), { recursive: true });
  const path = resultsPath(familyDir, { run });
  writeFileSync(path, bytes);
  return { run, results_sha256: digest, path };
}

/** Why an entry is not backed by its run; null when the run's file is there, unchanged, and measured this. */
export function entryProblem(familyDir: string, tier: LoadedTier, e: PassRate): string | null {
  const who = `the pass rate of ${e.model} (k ${e.k}, ${pct(e.value)})`;
  if (!e.run || !e.results_sha256) return `${who} names no gate run (run and results_sha256): a pass rate comes only from a gate run, which family gate records; a hand-written rate is refused`;
  const id = RUN_ID_PATTERN.exec(e.run);
  if (id && id[1] !== e.date) return `${who} is dated ${e.date}, but its run ${e.run} was on ${id[1]}`;
  const path = resultsPath(familyDir, { run: e.run, results: e.results });
  if (!existsSync(path)) return `${who} names the run ${e.run}, but ${join(RUNS_DIR, e.results ?? `${e.run}.json`)} is not in the family: a rate comes only from a gate run (worlds family gate ${tier.folder} ...)`;
  if (statSync(path).size > MAX_RESULTS_FILE) return `${path} is larger than ${MAX_RESULTS_FILE} bytes`;
  const bytes = readFileSync(path);
  const digest = sha256(bytes);
  if (digest !== e.results_sha256) return `${who}: ${path} is not the file its run wrote (sha256 ${digest.slice(0, 12)}…, recorded ${e.results_sha256.slice(0, 12)}…)`;
  if (id && id[2] !== digest.slice(0, 12)) return `${who}: the run id ${e.run} does not match its results file (sha256 ${digest.slice(0, 12)}…)`;
  let doc: Partial<Results>;
  try {
    doc = JSON.parse(bytes.toString("utf8")) as Partial<Results>;
  } catch {
    return `${path} is not a results document (not JSON)`;
  }
  const stats = doc.crash_test?.tasks?.find((t) => t.id === tier.folder);
  if (!stats) return `${who}: the run ${e.run} did not measure ${tier.folder}`;
  const value = stats.trials ? Math.round((stats.passed / stats.trials) * 1e6) / 1e6 : 0;
  if (stats.trials !== e.k || value !== e.value) return `${who} is not what the run ${e.run} measured: ${stats.passed} of ${stats.trials} (${pct(value)})`;
  return null;
}

export function calibrationProblems(fam: LoadedFamily): FamilyProblem[] {
  const out: FamilyProblem[] = [];
  for (const t of fam.tiers)
    for (const e of t.doc.pass_rates) {
      const why = entryProblem(fam.dir, t, e);
      if (why) out.push({ tier: t.folder, rule: "pass_rates", message: why });
    }
  return out;
}

/** The newest recorded rate of a tier, or null: uncalibrated. */
export function latestRate(t: LoadedTier): PassRate | null {
  return [...t.doc.pass_rates].sort((a, b) => a.date.localeCompare(b.date)).at(-1) ?? null;
}

export function calibrationNote(t: LoadedTier): string {
  const e = latestRate(t);
  return e ? `calibrated ${pct(e.value)} (${e.solver} ${e.model}, k ${e.k}, run ${e.run}${e.forced ? ", forced" : ""})` : "uncalibrated";
}
