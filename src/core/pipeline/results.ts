// The results document of a hosted run: the same builder, the same contract and numbers as `worlds passk`,
// with the agent named by its URL and the suggested commands rewritten for a run the server drove.
import { buildResults, replayLine, shellLine, type BuildInput, type BuildInputRaw, type EpisodeRecordInput, type Results } from "../results/index";
import type { RubricDocument } from "../rubric/schema";
import type { JudgeRunInput } from "../results/judge";
import { budgetCheck, type Credits } from "./record";
import type { RunMode } from "./plan";

export interface HostedResultsInput {
  runId: string;
  /** account (a tasks file, replayed with passk), tools (a tools settings file, replayed with tools run) or evals (a portable task file, replayed with evals run). */
  kind?: "account" | "tools" | "evals";
  /** The server the run was posted to (what `--url` names). */
  origin: string;
  agentUrl: string;
  mode: RunMode;
  runsRequested: number;
  file: string;
  hashes: { file: string; seed: string; rubric: string };
  /** The rubric cut down to the run's tasks, with the run's mode. */
  rubric: RubricDocument;
  episodes: EpisodeRecordInput[];
  /** Credits each graded world made, by repetition, for the budget check. */
  credits: Array<{ repetition: number; credits: Credits }>;
  /** Flags a replay must keep (`--mode shift`, `--timeout 60`). */
  replayFlags?: string[];
  /** The run's policy judge, when it had one. */
  judge?: JudgeRunInput | null;
  generatedAt: string | null;
}

export function hostedResults(i: HostedResultsInput): Results {
  const runChecks = [];
  for (let run = 1; run <= i.runsRequested; run++) {
    const check = budgetCheck(i.rubric, i.credits.filter((c) => c.repetition === run).map((c) => c.credits));
    if (check) runChecks.push({ run, checks: [check] });
  }
  const input: BuildInputRaw = {
    mode: i.mode,
    runs_requested: i.runsRequested,
    tasks: { file: i.file, hashes: i.hashes, pack: null },
    rubric: i.rubric,
    invocation: { agent_command: [i.agentUrl], server_flags: ["--url", i.origin], server_env: [], replay_flags: i.replayFlags ?? [], ...(i.kind === "tools" ? { command: ["tools", "run"], source_flags: ["--config", i.file] } : i.kind === "evals" ? { command: ["evals", "run"], source_flags: [i.file] } : {}) },
    episodes: i.episodes,
    run_checks: runChecks,
    judge: i.judge ?? null,
    generated_at: i.generatedAt,
  };
  const results = buildResults(input);
  return rewriteSuggestions(results, input, i);
}

/** The builder suggests commands for a process agent; a hosted run's agent is a URL, replayed with --agent-url. */
function rewriteSuggestions(results: Results, input: BuildInputRaw, i: HostedResultsInput): Results {
  const swaps: Array<[string, string]> = [
    [shellLine(["worlds", "doctor", "--url", i.origin, "--", i.agentUrl]), shellLine(["worlds", "runs", "show", i.runId, "--url", i.origin])],
  ];
  const worst = results.crash_test.worst_task;
  if (worst) swaps.unshift([replayLine(input as Pick<BuildInput, "tasks" | "invocation">, worst.id), hostedReplay(i, worst.id)]);
  const swap = (s: string) => swaps.reduce((acc, [from, to]) => acc.split(from).join(to), s);
  return {
    ...results,
    reason: swap(results.reason),
    next_action: swap(results.next_action),
    crash_test: { ...results.crash_test, worst_task: worst ? { ...worst, replay: hostedReplay(i, worst.id) } : null },
    rerun: { ...results.rerun, command: hostedLine(i, ["--runs", String(i.runsRequested)]) },
  };
}

/** Reruns one task once against the same server and agent. */
export function hostedReplay(i: Pick<HostedResultsInput, "kind" | "file" | "origin" | "agentUrl" | "replayFlags">, taskId: string): string {
  return hostedLine(i, ["--task", taskId, "--runs", "1"]);
}

/** A hosted run's command against the same server and agent, with the flags that pick its tasks and repetitions. */
function hostedLine(i: Pick<HostedResultsInput, "kind" | "file" | "origin" | "agentUrl" | "replayFlags">, tail: string[]): string {
  const source = i.kind === "tools" ? ["tools", "run", "--config", i.file] : i.kind === "evals" ? ["evals", "run", i.file] : ["passk", "--tasks", i.file];
  return shellLine(["worlds", ...source, "--url", i.origin, "--agent-url", i.agentUrl, ...(i.replayFlags ?? []), ...tail]);
}
