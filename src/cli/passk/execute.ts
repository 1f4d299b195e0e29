// Running the plan: isolated mode is k x n worlds (one task each), shift mode one world per run holding every
// task; up to `concurrency` episodes at once, in run then file order. Each world is graded while it exists and
// destroyed right after (unless kept). After Ctrl-C nothing new starts and unfinished episodes are left out.
import type { WorldGrade } from "../../core/grader/index";
import type { EpisodeRecordInput } from "../../core/results/index";
import { createLimiter } from "../agent/limiter";
import { runEpisode } from "../episode/episode";
import type { ConnectedServer } from "../server/connect";
import { seedWith, type Plan } from "./plan";
import { budgetCheck, episodeRecord, gradeView, type Mode } from "./record";

export interface ExecuteOptions {
  plan: Plan;
  mode: Mode;
  runs: number;
  argv: readonly string[];
  server: ConnectedServer;
  concurrency: number;
  timeoutMs: number;
  keepWorlds: boolean;
  scenario: unknown;
  signal: AbortSignal;
  onEpisode?: (p: Progress) => void;
}

export interface Progress {
  done: number;
  total: number;
  /** Keyed task trials that passed / were graded so far. */
  passed: number;
  graded: number;
  /** The episode just finished. */
  last: { run: number; tasks: string[]; world: string | null; note: string };
}

export interface Execution {
  episodes: EpisodeRecordInput[];
  runChecks: { run: number; checks: { name: string; held: boolean; detail: string }[] }[];
  expected: number;
  keptWorlds: string[];
}

interface Job {
  run: number;
  tickets: number[];
  taskJson: string | null;
  labels: string[];
}

export async function execute(o: ExecuteOptions): Promise<Execution> {
  const jobs: Job[] = [];
  for (let run = 1; run <= o.runs; run++) {
    if (o.mode === "isolated") for (const t of o.plan.tasks) jobs.push({ run, tickets: [t.ticket.id], taskJson: t.taskJson, labels: [t.ticket.label] });
    else jobs.push({ run, tickets: o.plan.tasks.map((t) => t.ticket.id), taskJson: null, labels: o.plan.tasks.map((t) => t.ticket.label) });
  }
  // The whole-desk seed is the same for every shift world; build it once.
  const shiftSeed = o.plan.seed as unknown as Record<string, unknown>;
  const limit = createLimiter(o.concurrency);
  const records: (EpisodeRecordInput | null)[] = new Array(jobs.length).fill(null);
  const grades: { run: number; grade: WorldGrade }[] = [];
  const kept: string[] = [];
  let done = 0;
  let passed = 0;
  let graded = 0;

  await Promise.all(
    jobs.map((job, i) =>
      limit(async () => {
        if (o.signal.aborted) return;
        const seed = o.mode === "isolated" ? (seedWith(o.plan.seed, new Set(job.tickets)) as unknown as Record<string, unknown>) : shiftSeed;
        const ep = await runEpisode(
          {
            client: o.server.client,
            serverUrl: o.server.url,
            seed,
            scenario: o.scenario,
            argv: o.argv,
            taskJson: job.taskJson,
            mode: o.mode,
            timeoutMs: o.timeoutMs,
            keepWorld: o.keepWorlds,
            signal: o.signal,
          },
          gradeView(o.plan, o.mode, job.tickets),
        );
        if (ep.world && o.keepWorlds) kept.push(ep.world.id);
        // An episode cut short by Ctrl-C says nothing about the agent: leave it out (the results say so).
        if (ep.agent?.interrupted || (o.signal.aborted && !ep.inspected)) return;
        records[i] = episodeRecord(job.run, job.tickets, o.mode, ep);
        if (ep.inspected) {
          grades.push({ run: job.run, grade: ep.inspected });
          for (const t of ep.inspected.tasks)
            if (t.graded) {
              graded++;
              if (t.verdict === "passed") passed++;
            }
        }
        done++;
        o.onEpisode?.({ done, total: jobs.length, passed, graded, last: { run: job.run, tasks: job.labels, world: ep.world?.id ?? null, note: episodeNote(ep.inspected, records[i]!) } });
      }),
    ),
  );

  const runChecks = [];
  for (let run = 1; run <= o.runs; run++) {
    const check = budgetCheck(o.plan, grades.filter((g) => g.run === run).map((g) => g.grade));
    if (check) runChecks.push({ run, checks: [check] });
  }
  return { episodes: records.filter((r): r is EpisodeRecordInput => r !== null), runChecks, expected: jobs.length, keptWorlds: kept.sort() };
}

function episodeNote(grade: WorldGrade | null, rec: EpisodeRecordInput): string {
  if (rec.infra_error) return `infrastructure error (${rec.infra_error.stage}): ${rec.infra_error.message}`;
  if (!grade) return "not graded";
  return grade.tasks.map((t) => `${t.label} ${t.graded ? t.verdict : "policy"}`).join(", ");
}
