// The episode loop every local run shares (passk, tools run, family gate and passk --family): episodes in job
// order, at most `concurrency` agents at once with worlds created ahead and graded behind them (twice as many
// worlds as agents, bench/harness-overhead.mjs), nothing new started after Ctrl-C or a stop, and an episode cut
// short by the interrupt left out (it says nothing about the agent). What a job's world, task and grade are, and
// what the run keeps of a finished episode, are the caller's.
import type { EpisodeRecordInput } from "../../core/results/index";
import { infraRecord } from "../../core/pipeline/index";
import { stderrNote } from "../../core/results/stderr";
import { traceSteps } from "../../core/results/trace";
import { createLimiter } from "../agent/limiter";
import { agentSucceeded, type AgentOutcome } from "../agent/runner";
import { describeOutcome } from "../render/outcome";
import type { ConnectedServer } from "../server/connect";
import { runEpisode, type EpisodeResult, type EpisodeSpec, type WorldView } from "./episode";
import { annotateRecord, type InProcessAgent } from "./in-process";

/** One job's episode: its world, what its agent reads, and how its end is graded. */
/** What every command that runs an agent over worlds has in common: the agent, the server, how many at once. */
export interface AgentRunOptions {
  runs: number;
  argv: readonly string[];
  /** The built-in model agent (`--model`), run in-process instead of `argv`. */
  inProcess?: InProcessAgent;
  server: ConnectedServer;
  concurrency: number;
  timeoutMs: number;
  signal: AbortSignal;
}

export interface JobEpisode<G> {
  seed: EpisodeSpec["seed"];
  scenario?: unknown;
  /** The person the agent talks to (a replay task's). */
  person?: EpisodeSpec["person"];
  /** Where the world is made when not on the server (`evals run --environment`). */
  client?: EpisodeSpec["client"];
  taskJson: EpisodeSpec["taskJson"];
  mode?: EpisodeSpec["mode"];
  keepWorld?: boolean;
  grade(view: WorldView, agent: AgentOutcome): Promise<G> | G;
}

export interface EpisodeLoop<J, G, R> {
  jobs: readonly J[];
  server: ConnectedServer;
  argv: readonly string[];
  /** The built-in model agent (`--model`), run in-process instead of `argv`. */
  inProcess?: InProcessAgent;
  concurrency: number;
  timeoutMs: number;
  signal: AbortSignal;
  episode(job: J): JobEpisode<G>;
  /** Called with every episode that ran, even one the interrupt cut short (its kept world is still listed). */
  ran?(job: J, ep: EpisodeResult<G>): void;
  /** What the run keeps of a finished episode (null: nothing). Never called for one the interrupt cut short. */
  settle(job: J, ep: EpisodeResult<G>): R | null;
  /** True once no more episodes should start (a spending cap reached). */
  stop?(): boolean;
  /** Called after each kept episode. */
  onEpisode?(done: number, total: number, kept: R, job: J): void;
}

/** Runs every job; what `settle` kept, in job order. */
export async function runEpisodes<J, G, R>(o: EpisodeLoop<J, G, R>): Promise<R[]> {
  const agentSlot = createLimiter(o.concurrency);
  const limit = createLimiter(o.concurrency * 2);
  const kept: Array<R | null> = new Array(o.jobs.length).fill(null);
  let done = 0;
  await Promise.all(
    o.jobs.map((job, i) =>
      limit(async () => {
        if (o.signal.aborted || o.stop?.()) return;
        const e = o.episode(job);
        const ep = await runEpisode<G>(
          { client: e.client ?? o.server.client, serverUrl: o.server.url, seed: e.seed, scenario: e.scenario, person: e.person, argv: o.argv, inProcess: o.inProcess, taskJson: e.taskJson, mode: e.mode ?? "isolated", timeoutMs: o.timeoutMs, keepWorld: e.keepWorld ?? false, signal: o.signal, agentSlot },
          (view, agent) => e.grade(view, agent),
        );
        o.ran?.(job, ep);
        if (ep.agent?.interrupted || (o.signal.aborted && !ep.inspected)) return;
        const r = o.settle(job, ep);
        if (r === null) return;
        kept[i] = r;
        o.onEpisode?.(++done, o.jobs.length, r, job);
      }),
    ),
  );
  return kept.filter((r): r is R => r !== null);
}

/** An episode that reached grading: its world, agent, diff and grade are all there. */
export type GradedEpisode<G> = EpisodeResult<G> & { world: NonNullable<EpisodeResult<G>["world"]>; agent: AgentOutcome; inspected: G; diff: NonNullable<EpisodeResult<G>["diff"]> };

/**
 * An episode's record: the infrastructure failure when it never reached a grade (the world not made, the agent
 * not started, the end not read or not graded), else `graded`'s record; an in-process agent's error and notes
 * added either way. `note` is the agent's stderr lines when it did not finish cleanly, for the evidence.
 */
export function episodeRecordOf<G>(run: number, tickets: number[], ep: EpisodeResult<G>, graded: (ep: GradedEpisode<G>, agent: ReturnType<typeof agentRecord>, note: string | null) => EpisodeRecordInput): EpisodeRecordInput {
  const record = recordOf(run, tickets, ep, graded);
  annotateRecord(record, ep.agent);
  // The agent's calls, whatever the episode's end: an infrastructure error after the agent ran is explained by them too.
  record.trace = ep.trace ? traceSteps(ep.trace, ep.diff) : null;
  return record;
}

function recordOf<G>(run: number, tickets: number[], ep: EpisodeResult<G>, graded: Parameters<typeof episodeRecordOf<G>>[3]): EpisodeRecordInput {
  const world = ep.world?.id ?? null;
  if (ep.create_error) return infraRecord(run, tickets, world, { stage: "world_create", message: ep.create_error.message });
  const out = ep.agent!;
  const agent = agentRecord(out);
  // The bare cause ("ENOENT: spawn ..."): every reader wraps it in its own "could not be started (...)".
  if (!out.started) return infraRecord(run, tickets, world, { stage: "agent_start", message: agent.start_error ?? describeOutcome(out) }, agent, ep.traffic);
  if (ep.inspect_error || ep.inspected === null || !ep.diff) return infraRecord(run, tickets, world, { stage: ep.diff ? "grade" : "server", message: ep.inspect_error?.message ?? "the world was not graded" }, agent, ep.traffic);
  // When the agent did not finish cleanly, its stderr is the first thing to read: keep the lines that say why.
  const note = agentSucceeded(out) ? null : stderrNote(out.stderr, 5);
  return graded(ep as GradedEpisode<G>, agent, note);
}

/** The results' agent fields of an outcome. */
export function agentRecord(o: AgentOutcome) {
  return {
    exit_code: o.exit_code,
    signal: o.signal,
    timed_out: o.timed_out,
    start_error: o.started ? null : o.spawn_error ? `${o.spawn_error.code}: ${o.spawn_error.message}` : "not started",
    error: null,
    duration_ms: o.duration_ms,
  };
}
