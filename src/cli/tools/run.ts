// `worlds tools run`: every generated task, k times, each in a fresh tools world, with the agent process given
// the task on stdin; graded by replay, reported in the shared results contract (statuses, exit codes, pass^k,
// Wilson intervals, JSON, HTML), so CI reads a tools run exactly like an account run.
import { infraRecord } from "../../core/runs/index";
import type { BuildInputRaw, EpisodeRecordInput } from "../../core/results/index";
import { canonicalJson, sha256Hex } from "../../core/util/canonical";
import { gradeToolsEpisode, type ToolsGrade } from "../../core/tools/grade";
import { toolsAgentTask, toolsGradedRecord, toolsRubric, toolsSeed, tracedCalls } from "../../core/tools/run/episode";
import type { ToolsTask } from "../../core/tools/tasks/generate";
import type { TracedCall } from "../../core/tools/grade";
import { createLimiter } from "../agent/limiter";
import { agentSucceeded } from "../agent/runner";
import { runEpisode } from "../episode/episode";
import { agentRecord } from "../passk/record";
import { describeOutcome } from "../render/outcome";
import { stderrNote } from "../../core/results/stderr";
import type { ConnectedServer } from "../server/connect";
import type { LoadedTools } from "./load";
import { annotateRecord, inProcessOf, type InProcessAgent } from "../episode/in-process";

export interface ToolsRunOptions {
  tools: LoadedTools;
  tasks: ToolsTask[];
  runs: number;
  argv: readonly string[];
  /** The built-in model agent (`--model`), run in-process instead of `argv`. */
  inProcess?: InProcessAgent;
  server: ConnectedServer;
  concurrency: number;
  timeoutMs: number;
  signal: AbortSignal;
  onEpisode?: (done: number, total: number) => void;
  /** The run's cap is reached: start no more episodes, and drop the one the cap cut short. */
  capReached?: () => boolean;
  /** Each kept episode's calls as the world traced them, for the run folder and the card. */
  onTrace?: (detail: EpisodeTrace) => void;
}

export interface EpisodeTrace {
  run: number;
  task: string;
  verdict: string;
  calls: TracedCall[];
  reply: string;
}

export const toolsSeedOf = (t: LoadedTools, task: ToolsTask) => toolsSeed(t.config.clock, task);

/** What the agent process reads on stdin (and in WORLDS_TASK_JSON). */
export const taskJson = (task: ToolsTask): string => JSON.stringify(toolsAgentTask(task));

export async function runToolsTasks(o: ToolsRunOptions): Promise<EpisodeRecordInput[]> {
  const jobs = Array.from({ length: o.runs }, (_, r) => o.tasks.map((task, i) => ({ run: r + 1, ticket: i + 1, task }))).flat();
  const agentSlot = createLimiter(o.concurrency);
  const limit = createLimiter(o.concurrency * 2);
  const records: Array<EpisodeRecordInput | null> = new Array(jobs.length).fill(null);
  let done = 0;
  await Promise.all(
    jobs.map((job, i) =>
      limit(async () => {
        if (o.signal.aborted || o.capReached?.()) return;
        const json = taskJson(job.task);
        let calls: TracedCall[] = [];
        const ep = await runEpisode<ToolsGrade>(
          { client: o.server.client, serverUrl: o.server.url, seed: toolsSeedOf(o.tools, job.task), argv: o.argv, inProcess: o.inProcess, taskJson: json, mode: "isolated", timeoutMs: o.timeoutMs, keepWorld: false, signal: o.signal, agentSlot },
          (view, agent) => gradeToolsEpisode({ block: job.task.world, diff: view.diff, calls: (calls = tracedCalls(view.trace)), reply: agent.reply, turnLimitReached: inProcessOf(agent)?.turn_limit_reached }),
        );
        if (o.signal.aborted && !ep.inspected) return;
        // An episode the cap cut short measures the cap, not the agent: it is not kept.
        if (o.capReached?.() && /skipped for budget/.test(inProcessOf(ep.agent)?.error ?? "")) return;
        if (ep.inspected) o.onTrace?.({ run: job.run, task: job.task.id, verdict: ep.inspected.verdict, calls, reply: ep.agent?.reply ?? "" });
        const record = toRecord(job.run, job.ticket, ep);
        annotateRecord(record, ep.agent);
        records[i] = record;
        o.onEpisode?.(++done, jobs.length);
      }),
    ),
  );
  return records.filter((r): r is EpisodeRecordInput => r !== null);
}

function toRecord(run: number, ticket: number, ep: Awaited<ReturnType<typeof runEpisode<ToolsGrade>>>): EpisodeRecordInput {
  const world = ep.world?.id ?? null;
  if (ep.create_error) return infraRecord(run, [ticket], world, { stage: "world_create", message: ep.create_error.message });
  const out = ep.agent!;
  const agent = agentRecord(out);
  if (!out.started) return infraRecord(run, [ticket], world, { stage: "agent_start", message: agent.start_error ?? describeOutcome(out) }, agent);
  if (ep.inspect_error || !ep.inspected || !ep.diff) return infraRecord(run, [ticket], world, { stage: ep.diff ? "grade" : "server", message: ep.inspect_error?.message ?? "the world was not graded" }, agent);
  const note = agentSucceeded(out) ? null : stderrNote(out.stderr, 5);
  return toolsGradedRecord({ repetition: run, ticket, world: world!, agent, reply: out.reply, grade: ep.inspected, diff: ep.diff, notes: note ? [note] : [] });
}

export async function buildToolsInput(o: { tools: LoadedTools; tasks: ToolsTask[]; runs: number; argv: readonly string[]; agentFlags?: string[]; serverFlags: string[]; episodes: EpisodeRecordInput[]; interrupted: string | null }): Promise<BuildInputRaw> {
  const rubric = toolsRubric(o.tools.set, o.tasks);
  return {
    mode: "isolated",
    runs_requested: o.runs,
    tasks: { file: o.tools.configPath, hashes: { file: o.tools.set.sha256, seed: o.tools.set.sha256, rubric: await sha256Hex(canonicalJson(rubric)) }, pack: null },
    rubric,
    invocation: { agent_command: [...o.argv], ...(o.agentFlags ? { agent_flags: o.agentFlags } : {}), server_flags: o.serverFlags, replay_flags: [], source_flags: ["--config", o.tools.configPath], command: ["tools", "run"] },
    episodes: o.episodes,
    interrupted: o.interrupted ? { signal: o.interrupted } : null,
  };
}
