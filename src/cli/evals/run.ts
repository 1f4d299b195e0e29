// `worlds evals run`: every task of a portable task file, k times, each in a fresh world (a replay world on the
// server seeded from the task, its person played by the server's model; or an environment of your own), the agent
// reaching it over the world's surfaces, and each run graded by the task's grader (the rubric judge and end-state
// checks, or your own grader). Records are the shared results contract's, so an evals run reads like any crash test.
import { isEndStateGrader, isReplayEnvironment, isRubricGrader, type EvalTask, type LoadedTask, type ReplayEnvironment, type ToolCall } from "../../core/kinds/replay/task-format/index";
import { agentFailedError, agentFailedRecord, criteriaVerdict, evalsAgentTask, evalsGradedRecord, evalsRubric, tallyLine } from "../../core/kinds/replay/task-format/episode";
import type { GraderRecord } from "../../core/results/grader-record";
import { gradeTask, type RubricJudge } from "../../core/kinds/replay/rubric/index";
import { replayBlock, replaySeed, tallyCalls, toolCallsOfTrace } from "../../core/kinds/replay/recorded/index";
import { transcriptOf, type TranscriptMessage } from "../../core/kinds/replay/person/transcript";
import type { BuildInputRaw, EpisodeRecordInput, ServerEnv } from "../../core/results/index";
import { canonicalJson, sha256Hex } from "../../core/util/canonical";
import type { AgentOutcome } from "../agent/runner";
import type { EpisodeResult, WorldView } from "../episode/episode";
import { agentRecord, episodeRecordOf, runEpisodes, type AgentRunOptions } from "../episode/loop";
import { inProcessOf } from "../episode/in-process";
import type { OwnEnvironments } from "./environment";
import { gradeWithProcess } from "./own-process";

/** Why a task cannot run with what the command line gave, or null when it can. Nothing is guessed. */
export function skipReason(task: EvalTask, o: { environment: boolean; grader: boolean }): string | null {
  if (!isReplayEnvironment(task.environment) && !o.environment) return `environment kind '${task.environment.kind}' is your own code, and none was given (--environment CMD)`;
  if (!isRubricGrader(task.grader) && !isEndStateGrader(task.grader) && !o.grader) return `grader kind '${task.grader.kind}' is your own code, and none was given (--grader CMD)`;
  return null;
}

export interface EvalsRunOptions extends AgentRunOptions {
  tasks: LoadedTask[];
  /** The environments of your own, when `--environment` was given. */
  environments: OwnEnvironments | null;
  judge: RubricJudge | null;
  grader: string | null;
  /** The model that plays a task's person (the server runs it, with its own keys). */
  person: { model: string; turnLimit?: number };
  stop?: () => boolean;
  onEpisode?: (done: number, total: number, record: EpisodeRecordInput, slug: string) => void;
  onTrial?: (detail: TrialDetail) => void;
}

interface EvalsGrade {
  record: GraderRecord;
  notes: string[];
  /** Why the trial was not graded though it ran: its agent failed (reward 0). */
  error: string | null;
  episode: { transcript: TranscriptMessage[]; tool_calls: ToolCall[]; output: string | null };
}

/** One trial of one task as the per-trial files keep it: the verdict, the reward with each criterion, and the episode. */
export interface TrialDetail {
  run: number;
  task: string;
  world: string | null;
  verdict: string | null;
  reward: number | null;
  passed: boolean;
  criteria: unknown[];
  reasons: string[];
  transcript: TranscriptMessage[];
  tool_calls: ToolCall[];
  output: string | null;
  /** Why the trial was not graded (the world, the agent's start, the judge). */
  error: string | null;
}

export async function runEvalsTasks(o: EvalsRunOptions): Promise<EpisodeRecordInput[]> {
  const jobs = Array.from({ length: o.runs }, (_, r) => o.tasks.map((item, i) => ({ run: r + 1, ticket: i + 1, item }))).flat();
  return runEpisodes<(typeof jobs)[number], EvalsGrade, EpisodeRecordInput>({
    jobs, server: o.server, argv: o.argv, inProcess: o.inProcess, concurrency: o.concurrency, timeoutMs: o.timeoutMs, signal: o.signal, stop: o.stop,
    onEpisode: (done, total, record, job) => o.onEpisode?.(done, total, record, job.item.task.slug),
    episode: (job) => {
      const { task, raw } = job.item;
      const replay = isReplayEnvironment(task.environment) ? (task as EvalTask & { environment: ReplayEnvironment }) : null;
      const own = replay ? null : o.environments!;
      const person = replay?.environment.person ? { spec: replay.environment.person, model: o.person.model, opening: task.prompt, ...(o.person.turnLimit ? { turn_limit: o.person.turnLimit } : {}), cache: true } : undefined;
      return {
        seed: replay ? replaySeed(replay) : raw,
        person,
        client: own ?? undefined,
        taskJson: replay ? JSON.stringify(evalsAgentTask(task, replayBlock(task.slug, replay.environment).tools)) : (world) => ownTaskJson(task, own!, world.id),
        grade: (view, agent) => grade(o, job.item, view, agent),
      };
    },
    settle: (job, ep) => {
      const record = episodeRecordOf(job.run, [job.ticket], ep, (g, agent, note) => {
        const writes = g.diff.entries.filter((e) => e.type === "records");
        return evalsGradedRecord({ run: job.run, ticket: job.ticket, world: g.world.id, agent, reply: g.agent.reply, record: g.inspected.record, verdict: criteriaVerdict(g.inspected.record)!, writes, notes: [...g.inspected.notes, ...(note ? [note] : [])] });
      });
      o.onTrial?.(trialDetail(job.run, job.item.task.slug, record, ep));
      return record;
    },
  });
}

function ownTaskJson(task: EvalTask, own: OwnEnvironments, world: string): string {
  const start = own.startOf(world);
  return JSON.stringify(evalsAgentTask({ ...task, prompt: start?.message ?? task.prompt }, start?.tools ?? []));
}

/** The task's grader on the run; a run it could not grade throws, and is recorded as an infrastructure error. */
async function grade(o: EvalsRunOptions, t: LoadedTask, view: WorldView, agent: AgentOutcome): Promise<EvalsGrade> {
  const { task } = t;
  const output = agent.reply.trim() ? agent.reply : null;
  const transcript = transcriptOf(view.person?.turns ?? [], task.prompt, output);
  const tool_calls = toolCallsOfTrace(view.trace);
  const notes: string[] = [];
  let state: unknown = null;
  if (isReplayEnvironment(task.environment)) notes.push(tallyLine(tallyCalls(replayBlock(task.slug, task.environment), tool_calls)));
  else {
    const s = o.environments!.stateOf(view.world.id);
    state = s.state;
    // An environment that broke (it crashed, or went silent and was ended) took the trial with it: what the agent
    // did cannot be judged against it, so the trial is not graded rather than blamed on the agent.
    if (s.error) throw new Error(`the environment broke during the trial, so it was not graded: ${s.error}`);
  }
  // A crashed, timed-out or killed agent ends its trial at reward 0 with why: the judge is not asked.
  const failed = agentFailedError({ ...agentRecord(agent), error: inProcessOf(agent)?.error ?? null }, agent.stderr);
  if (failed) return { record: agentFailedRecord(task, failed), notes, error: failed, episode: { transcript, tool_calls, output } };
  let record: GraderRecord;
  if (isRubricGrader(task.grader) || isEndStateGrader(task.grader)) {
    const r = await gradeTask(o.judge, task, { transcript, tool_calls, output });
    if (!r) throw new Error(`task ${task.slug}: no grade`);
    if (r.passed === null) throw new Error(r.error ? `the judge could not grade (${r.error.kind}): ${r.error.message}` : `the judge could not grade: ${r.reasons.find((x) => x.startsWith("not graded")) ?? "no verdict"}`);
    record = r;
  } else {
    const r = await gradeWithProcess(o.grader!, task.grader.kind, { task: t.raw, episode: { transcript, tool_calls, output, state } });
    if (!r.ok) throw new Error(`your grader could not grade: ${r.message}`);
    record = r.record;
  }
  return { record, notes, error: null, episode: { transcript, tool_calls, output } };
}

function trialDetail(run: number, task: string, record: EpisodeRecordInput, ep: EpisodeResult<EvalsGrade>): TrialDetail {
  const g = ep.inspected;
  const verdict = record.infra_error ? "infra_error" : (record.grades?.[0]?.verdict ?? null);
  const criteria = g && "criteria" in g.record && Array.isArray(g.record.criteria) ? (g.record.criteria as unknown[]) : [];
  return {
    run,
    task,
    world: record.world,
    verdict,
    reward: g?.record.reward ?? null,
    passed: g?.record.passed === true,
    criteria,
    reasons: g?.record.reasons ?? [],
    transcript: g?.episode.transcript ?? [],
    tool_calls: g?.episode.tool_calls ?? [],
    output: g?.episode.output ?? (ep.agent?.reply || null),
    error: record.infra_error ? `${record.infra_error.stage}: ${record.infra_error.message}` : (g?.error ?? null),
  };
}

export async function buildEvalsInput(o: { file: string; fileHash: string; tasks: LoadedTask[]; runs: number; argv: readonly string[]; agentFlags?: string[]; serverFlags: string[]; serverEnv: ServerEnv; replayFlags: string[]; episodes: EpisodeRecordInput[]; interrupted: string | null }): Promise<BuildInputRaw> {
  const tasks = o.tasks.map((t) => t.task);
  const seedHash = await sha256Hex(canonicalJson(tasks.map((t) => t.environment)));
  const rubric = evalsRubric({ name: o.file, hash: seedHash }, tasks);
  return {
    mode: "isolated",
    runs_requested: o.runs,
    tasks: { file: o.file, hashes: { file: o.fileHash, seed: seedHash, rubric: await sha256Hex(canonicalJson(rubric)) }, pack: null },
    rubric,
    invocation: { agent_command: [...o.argv], ...(o.agentFlags ? { agent_flags: o.agentFlags } : {}), server_flags: o.serverFlags, server_env: o.serverEnv, replay_flags: o.replayFlags, source_flags: [o.file], command: ["evals", "run"] },
    episodes: o.episodes,
    interrupted: o.interrupted ? { signal: o.interrupted } : null,
  };
}
