// What GET /admin/runs and GET /admin/runs/:id answer. The CLI follows a hosted run with these.
import type { Results } from "../results/index";

export const RUN_STATUSES = ["running", "finishing", "done", "failed"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export interface RunProgress {
  total: number;
  pending: number;
  running: number;
  /** Graded (or recorded with the agent's error). */
  done: number;
  infra_errors: number;
  /** done + infra_errors. */
  finished: number;
  /** Keyed trials passed / graded so far (the agent's exit and checks are judged when the run finishes). */
  passed: number;
  graded: number;
}

export interface RunSummary {
  id: string;
  status: RunStatus;
  mode: "isolated" | "shift";
  /** "api", or "webhook:<hook id>". */
  source: string;
  runs: number;
  tasks: number;
  created_at: string;
  finished_at: string | null;
  exit_code: number | null;
}

export interface RunView extends RunSummary {
  progress: RunProgress;
  agent_url: string;
  concurrency: number;
  timeout_s: number;
  /** Why the run failed (status failed). */
  error: string | null;
  /** When done: the results document, the same contract `worlds passk --json` prints. */
  results: Results | null;
  links: { results: string; report: string; episodes: string };
}

export interface EpisodeView {
  n: number;
  id: string;
  repetition: number;
  /** The task labels the world held. */
  tasks: string[];
  status: "pending" | "running" | "done" | "infra_error";
  attempts: number;
  world: string | null;
  note: string | null;
  passed: number;
  graded: number;
  finished_at: string | null;
  trace: string | null;
}
