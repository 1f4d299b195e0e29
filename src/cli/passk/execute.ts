// Running the plan with a local agent process: the episodes are the shared plan's (core/runs episodeJobs:
// isolated k x n worlds, shift one world per run), run by the shared episode loop (src/cli/episode/loop.ts) in
// run then file order. Each world is graded while it exists and destroyed right after (unless kept).
import type { WorldGrade } from "../../core/kinds/account/grader/index";
import type { WorldDiff } from "../../core/world/diff/types";
import type { EpisodeRecordInput } from "../../core/results/index";
import { budgetCheck, episodeJobs, episodeNote, episodeSeed, gradeEpisode, taskJsonText, trialCounts, type RunMode, type RunPlan } from "../../core/pipeline/index";
import { runEpisodes, type AgentRunOptions } from "../episode/loop";
import type { ImportedEpisode } from "../../hosted/runs/import-request";
import { episodeRecord } from "./record";

export interface ExecuteOptions extends AgentRunOptions {
  plan: RunPlan;
  mode: RunMode;
  keepWorlds: boolean;
  scenario: unknown;
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
  // Held until the run ends, so held small: each record as its JSON text (a fifth of the object graph's size)
  // and of each grade only the credits the budget check needs (bench/harness-overhead.mjs, memory). A judged
  // record's text is set once its judgement is in.
  const credits: { run: number; credits: WorldGrade["credits"] }[] = [];
  const kept: string[] = [];
  const finished: ImportedEpisode[] = [];
  let done = 0;
  let passed = 0;
  let graded = 0;
  // Judgements wait on a model, not on the server: they run beside the next episodes instead of holding a world slot.
  const judging: Promise<void>[] = [];

  const records = await runEpisodes<(typeof jobs)[number], WorldGrade, { text: string | null }>({
    jobs,
    server: o.server,
    argv: o.argv,
    inProcess: o.inProcess,
    concurrency: o.concurrency,
    timeoutMs: o.timeoutMs,
    signal: o.signal,
    episode: (job) => {
      const task = o.mode === "isolated" ? byTicket.get(job.tickets[0]!)!.task : null;
      return {
        seed: o.mode === "isolated" ? (episodeSeed(o.plan, job, o.mode) as unknown as Record<string, unknown>) : shiftSeed,
        scenario: o.scenario,
        taskJson: task ? taskJsonText(task) : null,
        mode: o.mode,
        keepWorld: o.keepWorlds,
        grade: (view, agent) => gradeEpisode(o.plan.rubric, o.plan.objects, o.mode, job.tickets, view.diff, agent.reply),
      };
    },
    ran: (_job, ep) => void (ep.world && o.keepWorlds && kept.push(ep.world.id)),
    settle: (job, ep) => {
      const record = episodeRecord(job.repetition, job.tickets, o.mode, ep);
      const slot: { text: string | null } = { text: null };
      if (o.judge && ep.inspected && ep.diff && !record.infra_error) {
        const judge = o.judge;
        // The hook records its own failures on the tasks; the episode's record is kept whatever it does.
        judging.push(judge(record, ep.inspected, ep.diff, ep.agent?.reply ?? "").catch(() => undefined).finally(() => void (slot.text = JSON.stringify(record))));
      } else slot.text = JSON.stringify(record);
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
      return slot;
    },
  });

  await Promise.all(judging);

  const runChecks = [];
  for (let run = 1; run <= o.runs; run++) {
    const check = budgetCheck(o.plan.rubric, credits.filter((g) => g.run === run).map((g) => g.credits));
    if (check) runChecks.push({ run, checks: [check] });
  }
  const episodes = records.map((r) => JSON.parse(r.text!) as EpisodeRecordInput);
  return { episodes, runChecks, expected: jobs.length, keptWorlds: kept.sort(), finished: finished.sort((a, b) => a.n - b.n) };
}
