// The results document for a run that stopped before its tasks compiled (a bad flag, no server, a tasks file
// with errors, Ctrl-C while starting): the contract alone, still valid against the published schema.
import { EXIT_CODES } from "./decide";
import { signalExitCode } from "./signals";
import { RESULTS_SCHEMA, type EarlyResults } from "./types";

export type EarlyFailure =
  | { status: "configuration_incomplete" | "setup_failed" | "inconclusive"; reason: string; next_action: string }
  | { status: "interrupted"; signal: string; reason?: string; next_action?: string };

export function earlyResults(f: EarlyFailure, generated_at: string | null = null): EarlyResults {
  if (f.status === "interrupted") {
    return {
      schema: RESULTS_SCHEMA,
      status: "interrupted",
      reason: f.reason ?? `stopped by ${f.signal} before any episode ran`,
      next_action: f.next_action ?? "run the same command again and let it finish",
      exit_code: signalExitCode(f.signal),
      generated_at,
    };
  }
  return { schema: RESULTS_SCHEMA, status: f.status, reason: f.reason, next_action: f.next_action, exit_code: EXIT_CODES[f.status], generated_at };
}
