// `worlds judge check`: the bundled reference agents (careful, reckless, liar, silent) work the keyed tasks of a
// tasks file once each, in isolated worlds, with the policy judge on; the judge's verdicts are then set against
// the key's. Agents that pass and agents that fail in known ways give the judge both kinds of trial to get right.
import { join } from "node:path";
import { availableParallelism } from "node:os";
import { agreementReport, type AgreementReport } from "../../core/policy-judge/index";
import { buildResults, type Results } from "../../core/results/index";
import { planRun } from "../../core/pipeline/index";
import type { CompiledTasks } from "../../core/kinds/account/tasks/index";
import { execute } from "../passk/execute";
import type { PasskJudge } from "../passk/judge";
import type { ConnectedServer } from "../server/connect";
import { packageRoot } from "../paths";

export const REFERENCE_AGENTS = ["careful.mjs", "reckless.mjs", "liar.mjs", "silent.mjs"] as const;

export interface CheckInput {
  compiled: CompiledTasks;
  tasksFile: string;
  judge: PasskJudge;
  server: ConnectedServer;
  signal: AbortSignal;
  concurrency?: number;
  onAgent?: (agent: string, results: Results) => void;
}

export type CheckOutcome = { ok: true; report: AgreementReport; runs: { agent: string; results: Results }[] } | { ok: false; message: string };

export async function judgeCheck(i: CheckInput): Promise<CheckOutcome> {
  const keyed = i.compiled.rubric.tickets.filter((t) => t.expect !== null).map((t) => t.label);
  if (keyed.length === 0) return { ok: false, message: `${i.tasksFile} has no keyed task: judge check compares the judge with the keys` };
  const planned = planRun(i.compiled.seed, { ...i.compiled.rubric, mode: "isolated" }, keyed);
  if (!planned.ok) return { ok: false, message: planned.message };
  const plan = planned.plan;
  const runs: { agent: string; results: Results }[] = [];
  for (const agent of REFERENCE_AGENTS) {
    if (i.signal.aborted) break;
    const argv = [process.execPath, join(packageRoot(), "examples", "agents", agent)];
    const execution = await execute({
      plan,
      mode: "isolated",
      runs: 1,
      argv,
      server: i.server,
      concurrency: i.concurrency ?? availableParallelism(),
      timeoutMs: 120_000,
      keepWorlds: false,
      scenario: null,
      signal: i.signal,
      judge: i.judge.hook(plan, "isolated"),
    });
    const results = buildResults({
      mode: "isolated",
      runs_requested: 1,
      tasks: { file: i.tasksFile, hashes: { file: i.compiled.hashes.file, seed: i.compiled.hashes.seed, rubric: i.compiled.hashes.rubric }, pack: null },
      rubric: plan.rubric,
      invocation: { agent_command: argv, server_flags: i.server.flags, server_env: i.server.env, replay_flags: [] },
      episodes: execution.episodes,
      run_checks: execution.runChecks,
      judge: i.judge.run,
    });
    runs.push({ agent: agent.replace(/\.mjs$/, ""), results });
    i.onAgent?.(agent, results);
  }
  return { ok: true, report: agreementReport(runs), runs };
}
