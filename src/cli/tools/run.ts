// `worlds tools run`: every generated task, k times, each in a fresh tools world, with the agent process given
// the task on stdin; graded by replay, reported in the shared results contract (statuses, exit codes, pass^k,
// Wilson intervals, JSON, HTML), so CI reads a tools run exactly like an account run.
import type { BuildInputRaw, EpisodeRecordInput, ServerEnv } from "../../core/results/index";
import { canonicalJson, sha256Hex } from "../../core/util/canonical";
import { gradeToolsEpisode, type ToolsGrade } from "../../core/kinds/tools/grade";
import { toolsAgentTask, toolsGradedRecord, toolsRubric, toolsSeed, tracedCalls } from "../../core/kinds/tools/run/episode";
import type { ToolsTask } from "../../core/kinds/tools/tasks/generate";
import type { TracedCall } from "../../core/kinds/tools/grade";
import type { EpisodeTrace } from "../../core/kinds/tools/card/record";
import type { LoadedTools } from "./load";
import { inProcessOf } from "../episode/in-process";
import { episodeRecordOf, runEpisodes, type AgentRunOptions } from "../episode/loop";

export interface ToolsRunOptions extends AgentRunOptions {
  tools: LoadedTools;
  tasks: ToolsTask[];
  onEpisode?: (done: number, total: number) => void;
  /** The run's cap is reached: start no more episodes, and drop the one the cap cut short. */
  capReached?: () => boolean;
  /** Each kept episode's calls as the world traced them, for the run folder and the card. */
  onTrace?: (detail: EpisodeTrace) => void;
}

export type { EpisodeTrace };

export const toolsSeedOf = (t: LoadedTools, task: ToolsTask) => toolsSeed(t.config.clock, task);

/** What the agent process reads on stdin (and in WORLDS_TASK_JSON). */
export const taskJson = (task: ToolsTask): string => JSON.stringify(toolsAgentTask(task));

export async function runToolsTasks(o: ToolsRunOptions): Promise<EpisodeRecordInput[]> {
  const jobs = Array.from({ length: o.runs }, (_, r) => o.tasks.map((task, i) => ({ run: r + 1, ticket: i + 1, task, calls: [] as TracedCall[] }))).flat();
  return runEpisodes<(typeof jobs)[number], ToolsGrade, EpisodeRecordInput>({
    jobs, server: o.server, argv: o.argv, inProcess: o.inProcess, concurrency: o.concurrency, timeoutMs: o.timeoutMs, signal: o.signal, onEpisode: o.onEpisode, stop: o.capReached,
    episode: (job) => ({
      seed: toolsSeedOf(o.tools, job.task),
      taskJson: taskJson(job.task),
      grade: (view, agent) => gradeToolsEpisode({ block: job.task.world, diff: view.diff, calls: (job.calls = tracedCalls(view.trace)), reply: agent.reply, turnLimitReached: inProcessOf(agent)?.turn_limit_reached }),
    }),
    settle: (job, ep) => {
      // An episode the cap cut short measures the cap, not the agent: it is not kept.
      if (o.capReached?.() && /skipped for budget/.test(inProcessOf(ep.agent)?.error ?? "")) return null;
      if (ep.inspected) o.onTrace?.({ run: job.run, task: job.task.id, verdict: ep.inspected.verdict, calls: job.calls, reply: ep.agent?.reply ?? "" });
      return episodeRecordOf(job.run, [job.ticket], ep, (g, agent, note) => toolsGradedRecord({ repetition: job.run, ticket: job.ticket, world: g.world.id, agent, reply: g.agent.reply, grade: g.inspected, diff: g.diff, notes: note ? [note] : [] }));
    },
  });
}

export async function buildToolsInput(o: { tools: LoadedTools; tasks: ToolsTask[]; runs: number; argv: readonly string[]; agentFlags?: string[]; serverFlags: string[]; serverEnv: ServerEnv; episodes: EpisodeRecordInput[]; interrupted: string | null }): Promise<BuildInputRaw> {
  const rubric = toolsRubric(o.tools.set, o.tasks);
  return {
    mode: "isolated",
    runs_requested: o.runs,
    tasks: { file: o.tools.configPath, hashes: { file: o.tools.set.sha256, seed: o.tools.set.sha256, rubric: await sha256Hex(canonicalJson(rubric)) }, pack: null },
    rubric,
    invocation: { agent_command: [...o.argv], ...(o.agentFlags ? { agent_flags: o.agentFlags } : {}), server_flags: o.serverFlags, server_env: o.serverEnv, replay_flags: [], source_flags: ["--config", o.tools.configPath], command: ["tools", "run"] },
    episodes: o.episodes,
    interrupted: o.interrupted ? { signal: o.interrupted } : null,
  };
}
