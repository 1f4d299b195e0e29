// Running the plan with a local agent process: the episodes are the shared plan's (core/runs episodeJobs:
// isolated k x n worlds, shift one world per run), up to `concurrency` at once, in run then file order. Each
// world is graded while it exists and destroyed right after (unless kept). After Ctrl-C nothing new starts and
// unfinished episodes are left out.
import type { WorldGrade } from "../../core/grader/index";
import type { WorldDiff } from "../../core/diff/types";
import type { EpisodeRecordInput } from "../../core/results/index";
import { budgetCheck, episodeJobs, episodeNote, episodeSeed, gradeEpisode, taskJsonText, trialCounts, type RunMode, type RunPlan } from "../../core/runs/index";
import { createLimiter } from "../agent/limiter";
import { runEpisode } from "../episode/episode";
import type { ConnectedServer } from "../server/connect";
import type { ImportedEpisode } from "../../runs/import-request";
import { episodeRecord } from "./record";
import { annotateRecord, type InProcessAgent } from "../episode/in-process";

export interface ExecuteOptions {
  plan: RunPlan;
  mode: RunMode;
  runs: number;
  argv: readonly string[];
  /** The built-in model agent (`--model`), run in-process instead of `argv`. */
  inProcess?: InProcessAgent;
  server: ConnectedServer;
  concurrency: number;
  timeoutMs: number;
  keepWorlds: boolean;
  scenario: unknown;
  signal: AbortSignal;
  onEpisode?: (p: Progress) => void;
  /** Adds the policy judge's records to a graded episode's record (passk --judge); runs after the world is gone. */
  judge?: EpisodeJudge;
}

export type EpisodeJudge = (record: EpisodeRecordInput, grade: WorldGrade, diff: WorldDiff, reply: string) => Promise<void>;

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
  /** One line per finished episode, by episode number: what registering the run on the server sends. */
  finished: ImportedEpisode[];
}

export async function execute(o: ExecuteOptions): Promise<Execution> {
  const jobs = episodeJobs(o.mode, o.runs, o.plan.tasks);
  const byTicket = new Map(o.plan.tasks.map((t) => [t.ticket.id, t]));
  // The whole-desk seed is the same for every shift world; build it once.
  const shiftSeed = o.plan.seed as unknown as Record<string, unknown>;
  // --concurrency bounds agents running at once. Worlds are created ahead and graded behind them, so up to twice
  // as many worlds exist at once and the server's work overlaps the agents' (bench/harness-overhead.mjs).
  const agentSlot = createLimiter(o.concurrency);
  const limit = createLimiter(o.concurrency * 2);
  // Held until the run ends, so held small: each record as its JSON text (a fifth of the object graph's size)
  // and of each grade only the credits the budget check needs (bench/harness-overhead.mjs, memory).
  const records: (string | null)[] = new Array(jobs.length).fill(null);
  const credits: { run: number; credits: WorldGrade["credits"] }[] = [];
  const kept: string[] = [];
  const finished: ImportedEpisode[] = [];
  let done = 0;
  let passed = 0;
  let graded = 0;
  // Judgements wait on a model, not on the server: they run beside the next episodes instead of holding a world slot.
  const judging: Promise<void>[] = [];

  await Promise.all(
    jobs.map((job, i) =>
      limit(async () => {
        if (o.signal.aborted) return;
        const seed = o.mode === "isolated" ? (episodeSeed(o.plan, job, o.mode) as unknown as Record<string, unknown>) : shiftSeed;
        const task = o.mode === "isolated" ? byTicket.get(job.tickets[0]!)!.task : null;
        const ep = await runEpisode(
          {
            client: o.server.client,
            serverUrl: o.server.url,
            seed,
            scenario: o.scenario,
            argv: o.argv,
            inProcess: o.inProcess,
            taskJson: task ? taskJsonText(task) : null,
            mode: o.mode,
            timeoutMs: o.timeoutMs,
            keepWorld: o.keepWorlds,
            signal: o.signal,
            agentSlot,
          },
          (view, agent) => gradeEpisode(o.plan.rubric, o.plan.objects, o.mode, job.tickets, view.diff, agent.reply),
        );
        if (ep.world && o.keepWorlds) kept.push(ep.world.id);
        // An episode cut short by Ctrl-C says nothing about the agent: leave it out (the results say so).
        if (ep.agent?.interrupted || (o.signal.aborted && !ep.inspected)) return;
        const record = episodeRecord(job.repetition, job.tickets, o.mode, ep);
        annotateRecord(record, ep.agent);
        if (o.judge && ep.inspected && ep.diff && !record.infra_error) {
          const judge = o.judge;
          // The hook records its own failures on the tasks; the episode's record is kept whatever it does.
          judging.push(judge(record, ep.inspected, ep.diff, ep.agent?.reply ?? "").catch(() => undefined).finally(() => void (records[i] = JSON.stringify(record))));
        } else records[i] = JSON.stringify(record);
        if (ep.inspected) credits.push({ run: job.repetition, credits: ep.inspected.credits });
        const counts = trialCounts(ep.inspected);
        passed += counts.passed;
        graded += counts.graded;
        done++;
        const labels = job.tickets.map((t) => byTicket.get(t)!.ticket.label);
        const note = episodeNote(ep.inspected, record);
        const world = ep.world?.id ?? null;
        finished.push({ n: job.seq, repetition: job.repetition, position: job.position, world, status: record.infra_error ? "infra_error" : "done", note, ...counts, finished_at: new Date().toISOString() });
        o.onEpisode?.({ done, total: jobs.length, passed, graded, last: { run: job.repetition, tasks: labels, world, note } });
      }),
    ),
  );

  await Promise.all(judging);

  const runChecks = [];
  for (let run = 1; run <= o.runs; run++) {
    const check = budgetCheck(o.plan.rubric, credits.filter((g) => g.run === run).map((g) => g.credits));
    if (check) runChecks.push({ run, checks: [check] });
  }
  const episodes = records.filter((r): r is string => r !== null).map((r) => JSON.parse(r) as EpisodeRecordInput);
  return { episodes, runChecks, expected: jobs.length, keptWorlds: kept.sort(), finished: finished.sort((a, b) => a.n - b.n) };
}
