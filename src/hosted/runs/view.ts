// Runs and episodes as the admin API shows them (src/core/pipeline/view.ts types).
import type { Env } from "../../env";
import type { Results } from "../../core/results/index";
import type { EpisodeView, RunProgress, RunStatus, RunSummary, RunView } from "../../core/pipeline/index";
import { resultsKey } from "./keys";
import { runFacts } from "./context";
import { database, progressRows, type EpisodeRow, type RunRow } from "./store";

export function runSummary(r: RunRow): RunSummary {
  return {
    id: r.id,
    status: r.status as RunStatus,
    mode: r.mode === "shift" ? "shift" : "isolated",
    source: r.source,
    runs: r.k,
    tasks: r.taskCount,
    created_at: r.createdAt.toISOString(),
    finished_at: r.status === "done" || r.status === "failed" ? (r.finishedAt?.toISOString() ?? null) : null,
    exit_code: r.exitCode ?? null,
  };
}

export async function runView(env: Env, r: RunRow): Promise<RunView> {
  const progress: RunProgress = { total: r.episodesTotal, pending: 0, running: 0, done: 0, infra_errors: 0, finished: 0, passed: 0, graded: 0 };
  for (const row of await progressRows(database(env.DB), r.id)) {
    if (row.status === "pending") progress.pending += row.n;
    else if (row.status === "running") progress.running += row.n;
    else if (row.status === "done") progress.done += row.n;
    else if (row.status === "infra_error") progress.infra_errors += row.n;
    progress.passed += Number(row.passed);
    progress.graded += Number(row.graded);
  }
  progress.finished = progress.done + progress.infra_errors;
  const base = `/admin/runs/${r.id}`;
  return {
    ...runSummary(r),
    progress,
    agent_url: r.agentUrl,
    concurrency: r.concurrency,
    timeout_s: r.timeoutS,
    error: r.error ?? null,
    results: r.status === "done" ? await runResults(env, r) : null,
    links: { results: `${base}/results`, report: `${base}/report`, episodes: `${base}/episodes` },
  };
}

/** The results document of a finished run: inline in D1 when it fits, else from R2. */
export async function runResults(env: Env, r: RunRow): Promise<Results | null> {
  if (r.status !== "done") return null;
  if (r.resultJson) return JSON.parse(r.resultJson) as Results;
  const obj = await env.ARTIFACTS.get(resultsKey(r.id));
  return obj ? ((await obj.json()) as Results) : null;
}

export async function episodeViews(env: Env, run: RunRow, rows: EpisodeRow[]): Promise<EpisodeView[]> {
  const facts = await runFacts(env, run.id);
  const labels = new Map(facts.rubric.tickets.map((t) => [t.id, t.label]));
  const all = facts.rubric.tickets.map((t) => t.label);
  return rows.map((e) => ({
    n: e.seq,
    id: e.id,
    repetition: e.repetition,
    tasks: e.task === 0 ? all : [labels.get(e.task) ?? String(e.task)],
    status: e.status as EpisodeView["status"],
    attempts: e.attempts,
    world: e.worldId ?? null,
    note: e.note ?? null,
    passed: e.passed,
    graded: e.graded,
    finished_at: e.finishedAt?.toISOString() ?? null,
    trace: e.traceKey ? `/admin/runs/${run.id}/episodes/${e.seq}/trace` : null,
  }));
}
