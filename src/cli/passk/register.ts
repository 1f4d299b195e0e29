// After a run with a process agent: register it on the server it ran against (POST /admin/runs/import), so a
// hosted or persistent server keeps the history that `worlds runs list|show` reads. The id is minted here and
// sent with the run, so a retry never registers it twice. Registering is bookkeeping: when it fails the run's
// result and exit code stand, and the command says why it was not kept.
import { randomBytes } from "node:crypto";
import type { Results } from "../../core/results/index";
import type { AdminClient } from "../client";
import type { ImportedEpisode, RunImport } from "../../hosted/runs/import-request";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** run_ + 16 letters or digits, the shape hosted run ids have. */
export function mintRunId(): string {
  const bytes = randomBytes(16);
  return "run_" + [...bytes].map((b) => ALPHABET[b % ALPHABET.length]).join("");
}

export interface RegisterInput {
  client: AdminClient;
  results: Results;
  /** The compiled rubric of the whole file (the server checks its hash against the results). */
  rubric: unknown;
  only: readonly string[];
  runs: number;
  concurrency: number;
  timeoutS: number;
  episodes: ImportedEpisode[];
}

export type Registered = { ok: true; runId: string } | { ok: false; message: string };

export async function registerRun(i: RegisterInput, runId = mintRunId()): Promise<Registered> {
  try {
    await i.client.importRun({
      run_id: runId,
      runs: i.runs,
      rubric: i.rubric as Record<string, unknown>,
      only: [...i.only],
      concurrency: i.concurrency,
      timeout_s: Math.max(1, Math.ceil(i.timeoutS)),
      results: i.results as unknown as RunImport["results"],
      episodes: i.episodes,
    });
    return { ok: true, runId };
  } catch (e) {
    return { ok: false, message: (e as Error).message };
  }
}
