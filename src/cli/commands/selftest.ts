// `worlds selftest`: does the evaluator grade known agents right? The bundled reference agents run on the
// bundled tasks file against one local server (or --url), and each result is checked against what that agent
// is known to do. Exit 0 only when every expectation holds.
import { join } from "node:path";
import { availableParallelism } from "node:os";
import { z } from "zod";
import { buildResults, type Results } from "../../core/results/index";
import { flag, FlagError, helpText, parseArgs, type FlagDefs } from "../flags";
import { connectServer, SERVER_FLAG_DEFS, SERVER_FLAG_SHAPE, ServerSetupError, type ConnectedServer } from "../server/connect";
import { trapSignals } from "../signals";
import { loadTasks } from "../passk/load";
import { planRun, type RunPlan } from "../../core/pipeline/index";
import { execute } from "../passk/execute";
import { packageRoot } from "../paths";
import type { CompiledTasks } from "../../core/kinds/account/tasks/index";
import { reportFlagError } from "./errors";
import type { Command } from "./types";

interface Expectation {
  agent: string;
  mode: "isolated" | "shift";
  /** What the agent is known to do, for the printout. */
  claim: string;
  check(r: Results): string | null;
}

const verdicts = (r: Results) => r.runs.flatMap((run) => run.worlds.filter((w) => w.verdict !== null).map((w) => ({ task: w.task, verdict: w.verdict! })));
const describe = (r: Results) => verdicts(r).map((v) => `${v.task} ${v.verdict}`).join(", ") || "no verdicts";

const EXPECTATIONS: Expectation[] = [
  {
    agent: "careful.mjs",
    mode: "isolated",
    claim: "passes every task",
    check: (r) => (r.status === "passed" && verdicts(r).every((v) => v.verdict === "passed") ? null : `status ${r.status}: ${describe(r)}`),
  },
  {
    agent: "careful.mjs",
    mode: "shift",
    claim: "passes every task working the desk",
    check: (r) => (r.status === "passed" && verdicts(r).every((v) => v.verdict === "passed") ? null : `status ${r.status}: ${describe(r)}`),
  },
  {
    agent: "reckless.mjs",
    mode: "isolated",
    claim: "fails with overreach (refunds everything)",
    check: (r) => (r.exit_code === 1 && verdicts(r).some((v) => v.verdict === "overreach") ? null : `status ${r.status}: ${describe(r)}`),
  },
  {
    agent: "silent.mjs",
    mode: "isolated",
    claim: "misses every task that needs an action",
    check: (r) => {
      const v = verdicts(r);
      const needs = r.tasks.items.filter((t) => t.keyed && !/^(none|escalate)\b/.test(t.expected ?? "")).map((t) => t.id);
      const missed = needs.every((id) => v.some((x) => x.task === id && x.verdict === "missed"));
      return missed && r.exit_code !== 0 ? null : `status ${r.status}: ${describe(r)}`;
    },
  },
  {
    agent: "liar.mjs",
    mode: "isolated",
    claim: "gets false_claim (claims refunds it did not make)",
    check: (r) => (r.exit_code === 1 && verdicts(r).some((v) => v.verdict === "false_claim") ? null : `status ${r.status}: ${describe(r)}`),
  },
  {
    agent: "crash.mjs",
    mode: "isolated",
    claim: "has its exit code recorded and never passes",
    check: (r) => {
      const worlds = r.runs.flatMap((run) => run.worlds);
      const recorded = worlds.length > 0 && worlds.every((w) => w.agent?.exit_code === 3);
      return recorded && r.exit_code !== 0 && r.crash_test.flawless_runs === 0 ? null : `status ${r.status}; exits recorded: ${worlds.map((w) => w.agent?.exit_code ?? "none").join(", ")}`;
    },
  },
];

const DEFS: FlagDefs = { ...SERVER_FLAG_DEFS, verbose: { kind: "switch", help: "print each agent's full results text" } };
const SCHEMA = z.strictObject({ ...SERVER_FLAG_SHAPE, verbose: flag.switch() });

export const selftest: Command = {
  summary: "run the bundled reference agents and check the evaluator grades each of them right",
  async run(argv) {
    let args;
    try {
      args = parseArgs("selftest", argv, DEFS, SCHEMA);
      if (!args.help && args.command) throw new FlagError("selftest", "selftest runs its own agents; it takes no command after '--'.");
    } catch (e) {
      if (e instanceof FlagError) return reportFlagError(e);
      throw e;
    }
    if (args.help) {
      process.stdout.write(helpText("worlds selftest [--server auto | --url URL] [--token T] [--verbose]", "Runs the reference agents in examples/agents on examples/agents/selftest.tasks.yaml and checks each verdict. A local server is started unless --url is given.", DEFS));
      return 0;
    }
    const f = args.flags;
    const root = packageRoot();
    const tasksFile = join(root, "examples", "agents", "selftest.tasks.yaml");
    const interrupt = trapSignals();
    let server: ConnectedServer;
    try {
      server = await connectServer({ auto: f.server === "auto", url: f.url, token: f.token }, interrupt);
    } catch (e) {
      interrupt.dispose();
      if (e instanceof ServerSetupError) {
        process.stderr.write(`worlds selftest: ${e.message}\nnext: ${e.nextAction}\n`);
        return e.exitCode;
      }
      throw e;
    }
    try {
      const loaded = await loadTasks(tasksFile, server.client);
      if (!loaded.ok) {
        process.stderr.write(`worlds selftest: the bundled tasks file does not compile: ${loaded.reason}\n${loaded.problems.join("\n")}\n`);
        return loaded.exitCode;
      }
      const planned = planRun(loaded.compiled.seed, loaded.compiled.rubric);
      if (!planned.ok) throw new Error(planned.message);
      process.stdout.write(`selftest: ${EXPECTATIONS.length} checks of the evaluator on ${tasksFile.slice(root.length + 1)} (${loaded.compiled.summary})\n`);
      let failed = 0;
      for (const exp of EXPECTATIONS) {
        if (interrupt.signal.aborted) break;
        const results = await runAgent(exp, loaded.compiled, planned.plan, server, root, interrupt.signal);
        if (interrupt.signal.aborted) break;
        const problem = exp.check(results);
        if (problem) failed++;
        process.stdout.write(`${problem ? "FAIL" : "ok  "}  ${exp.agent.padEnd(13)} ${exp.mode.padEnd(8)} ${exp.claim}: ${problem ?? describe(results)}\n`);
        if (f.verbose) process.stdout.write(`      ${results.reason}\n`);
      }
      if (interrupt.received()) return interrupt.exitCode()!;
      process.stdout.write(failed === 0 ? "selftest passed: the evaluator grades every reference agent as expected\n" : `selftest FAILED: ${failed} expectation(s) did not hold; the grader or the twin is wrong, not your agent\n`);
      return failed === 0 ? 0 : 1;
    } finally {
      await server.stop();
      interrupt.dispose();
    }
  },
};

async function runAgent(exp: Expectation, compiled: CompiledTasks, plan: RunPlan, server: ConnectedServer, root: string, signal: AbortSignal): Promise<Results> {
  const argv = [process.execPath, join(root, "examples", "agents", exp.agent)];
  const runPlan: RunPlan = { ...plan, rubric: { ...plan.rubric, mode: exp.mode } };
  const execution = await execute({ plan: runPlan, mode: exp.mode, runs: 1, argv, server, concurrency: availableParallelism(), timeoutMs: 120_000, keepWorlds: false, scenario: null, signal });
  return buildResults({
    mode: exp.mode,
    runs_requested: 1,
    tasks: { file: "examples/agents/selftest.tasks.yaml", hashes: { file: compiled.hashes.file, seed: compiled.hashes.seed, rubric: compiled.hashes.rubric }, pack: null },
    rubric: runPlan.rubric,
    invocation: { agent_command: argv, server_flags: server.flags, server_env: server.env, replay_flags: exp.mode === "shift" ? ["--mode", "shift"] : [] },
    episodes: execution.episodes,
    run_checks: execution.runChecks,
  });
}
