// `worlds passk --tasks F -- <agent command>`: compile the tasks file once, run the agent in fresh worlds k
// times, grade every world, and report pass^k with the result contract's status and exit code.
import { resolveInputs } from "../bundled/flags";
import { writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { z } from "zod";
import { buildResults, earlyResults, serializeResults } from "../../core/results/index";
import { renderExplain, renderHtml, renderJunit, renderText } from "../../core/report/index";
import { flag, FlagError, helpText, parseArgs, type FlagDefs } from "../flags";
import { connectServer, SERVER_FLAG_DEFS, SERVER_FLAG_SHAPE, ServerSetupError, type ConnectedServer } from "../server/connect";
import { trapSignals } from "../signals";
import { runHostedPassk } from "../hosted/submit";
import { loadTasks } from "../passk/load";
import { loadSeedAndRubric } from "../passk/library";
import { agentPlaceholderProblem } from "../init/placeholder";
import { planRun } from "../../core/pipeline/index";
import { execute } from "../passk/execute";
import { registerRun } from "../passk/register";
import { progressView } from "../results/progress";
import { loadScenarioArg } from "../passk/scenario";
import { packName } from "../passk/pack";
import { hostedJudge, JUDGE_FLAG_DEFS, JUDGE_FLAG_SHAPE, JUDGE_USAGE, passkJudge, prepareJudge, type JudgeFlags } from "../passk/judge";
import { finishVerdicts, gateRunsProblem, prepareVerdicts, textWithComparison, VERDICT_FLAG_DEFS, VERDICT_FLAG_SHAPE, VERDICT_USAGE } from "../passk/verdicts";
import { MODEL_AGENT_FLAG_DEFS, MODEL_AGENT_FLAG_SHAPE, strayModelFlag } from "../agent/model-flags";
import { setupModelAgent, type ModelAgent } from "../agent/model-agent";
import { passkFamily } from "./family";
import { OUTPUT_FLAG_SHAPE } from "../results/output-flags";
import type { Command } from "./types";

const DEFS: FlagDefs = {
  tasks: { kind: "value", placeholder: "F", help: "the tasks file (worlds/tasks.yaml)" },
  seed: { kind: "value", placeholder: "S", help: "instead of --tasks: a seed whose desk holds its tickets (a name the server holds, or a .json file)..." },
  rubric: { kind: "value", placeholder: "R", help: "...and the rubric that keys them (e.g. --seed acme-prod-library --rubric rubrics/acme-prod-library.json)" },
  runs: { kind: "value", placeholder: "K", short: "k", help: "repetitions (default: the file's runs:, else 3)" },
  mode: { kind: "value", placeholder: "isolated|shift", help: "one world per task per run, or one world per run (default: the file's mode:)" },
  task: { kind: "list", placeholder: "ID", help: "run only this task (its id, or its position); repeatable" },
  ...SERVER_FLAG_DEFS,
  "agent-url": { kind: "value", placeholder: "URL", help: "a hosted run: the server calls this HTTP agent (signed with $WORLDS_AGENT_SECRET) instead of a command" },
  concurrency: { kind: "value", placeholder: "N", help: "episodes at once (default: number of CPUs)" },
  timeout: { kind: "value", placeholder: "S", help: "seconds an agent may take per world (default: 300)" },
  "keep-worlds": { kind: "switch", help: "leave every world on the server (ids are printed)" },
  json: { kind: "switch", help: "print the results JSON on stdout instead of text" },
  "json-file": { kind: "value", placeholder: "F", help: "also write the results JSON to F" },
  report: { kind: "value", placeholder: "F.html", help: "write a self-contained HTML report" },
  junit: { kind: "value", placeholder: "F.xml", help: "write a JUnit file (one testcase per task)" },
  scenario: { kind: "value", placeholder: "S", help: "a scenario name or file (default: the file's scenario:)" },
  explain: { kind: "value", placeholder: "TASK", help: "after the results, print each trial of TASK with the agent's calls in order and what each changed" },
  ...MODEL_AGENT_FLAG_DEFS,
  ...JUDGE_FLAG_DEFS,
  ...VERDICT_FLAG_DEFS,
};

const SCHEMA = z.strictObject({
  tasks: flag.text().optional(),
  seed: flag.text().optional(),
  rubric: flag.text().optional(),
  runs: flag.int(1, 100).optional(),
  mode: flag.oneOf(["isolated", "shift"]).optional(),
  task: flag.list().optional(),
  ...SERVER_FLAG_SHAPE,
  "agent-url": flag.url().optional(),
  concurrency: flag.int(1, 256).optional(),
  timeout: flag.seconds().optional(),
  "keep-worlds": flag.switch(),
  ...OUTPUT_FLAG_SHAPE,
  scenario: flag.text().optional(),
  explain: flag.text().optional(),
  ...MODEL_AGENT_FLAG_SHAPE,
  ...JUDGE_FLAG_SHAPE,
  ...VERDICT_FLAG_SHAPE,
});

const USAGE =
  "worlds passk --tasks F [--runs K] [--mode isolated|shift] [--task ID]... [--server auto | --url URL] [--token T]\n" +
  "                    [--concurrency N] [--timeout S] [--keep-worlds] [--json] [--json-file F] [--report F.html] [--junit F.xml] [--scenario S] [--explain TASK]\n" +
  `                    ${JUDGE_USAGE} ${VERDICT_USAGE} -- <agent command>\n` +
  "       worlds passk --tasks F [same options] --model P:M [--model-base-url URL] [--model-budget USD] [--model-timeout S] [--turn-limit N] [--model-system F]\n" +
  "                    (no command: the built-in model agent works each task with the world's tools)\n" +
  "       worlds passk --seed S --rubric R [same options] -- <desk agent command>   (a seed whose desk holds the tickets, keyed by the rubric)\n" +
  "       worlds passk --tasks F --url URL --token T --agent-url AGENT_URL [same options, no --keep-worlds]   (hosted run; needs WORLDS_AGENT_SECRET)\n" +
  "       worlds passk --family F [--runs K] [--task TIER]... (-- <agent command> | --model P:M | --agent-url URL)   (a task family's tiers, graded by verify; worlds passk --family F --help, docs/families.md)";

export const passk: Command = {
  summary: "run an agent against a tasks file k times and report pass^k (exit 0 passed, 1 failed, 2-4 see docs/passk.md)",
  async run(argv) {
    // A family is its own kind of input (tiers graded by verify, not a tasks file's keys): its own runner.
    const options = argv.indexOf("--") < 0 ? argv : argv.slice(0, argv.indexOf("--"));
    if (options.includes("--family")) return passkFamily(argv);
    let args;
    try {
      args = parseArgs("passk", argv, DEFS, SCHEMA);
      if (!args.help) {
        const library = args.flags.seed !== undefined || args.flags.rubric !== undefined;
        if (library && args.flags.tasks) throw new FlagError("passk", "--tasks is the seed and the key in one file: it excludes --seed and --rubric.");
        if (library && (!args.flags.seed || !args.flags.rubric)) throw new FlagError("passk", "--seed and --rubric go together: the seed whose desk holds the tickets, and the rubric that keys them.");
        if (library && args.flags["agent-url"]) throw new FlagError("passk", "--agent-url takes a tasks file (--tasks); --seed/--rubric runs are local.");
        if (!library && !args.flags.tasks) throw new FlagError("passk", "--tasks is required: the tasks file to run (for example --tasks worlds/tasks.yaml), or --seed S --rubric R.");
        if (args.flags.server && args.flags.url) throw new FlagError("passk", "--server auto and --url name two servers; pick one.");
        const stray = strayModelFlag(args.flags);
        if (stray) throw new FlagError("passk", `--${stray} applies to the built-in model agent: add --model P:M (or drop it).`);
        if (args.flags.model !== undefined) {
          if (args.flags["agent-url"]) throw new FlagError("passk", "--model and --agent-url name two agents; pick one.");
          if (args.command && args.command.length > 0) throw new FlagError("passk", "--model and an agent command after '--' name two agents; pick one.");
        } else if (args.flags["agent-url"]) {
          if (args.command && args.command.length > 0) throw new FlagError("passk", "--agent-url and an agent command after '--' name two agents; pick one.");
          if (args.flags["keep-worlds"]) throw new FlagError("passk", "--keep-worlds does not apply to a hosted run (--agent-url): the server destroys each world once it is graded.");
        } else if (!args.command || args.command.length === 0)
          throw new FlagError("passk", "no agent command: put it after '--', e.g. worlds passk --tasks worlds/tasks.yaml -- node agent.mjs (or run the built-in model agent with --model P:M)");
      }
    } catch (e) {
      if (e instanceof FlagError) return early(argv.includes("--json"), 2, `worlds passk: ${e.message}`, "run 'worlds passk --help' for its options");
      throw e;
    }
    if (args.help) {
      process.stdout.write(helpText(USAGE, "Runs the agent command in fresh worlds built from the tasks file, grades each world, and reports pass^k.", DEFS));
      return 0;
    }
    const json = !!args.flags.json;
    const inputs = resolveInputs(args.flags, args.command, process.cwd());
    if (!inputs.ok) return early(json, 2, `worlds passk: ${inputs.message}`, "name a bundled item (pack:NAME, seed:NAME, rubric:NAME, scenario:NAME, example:PATH; docs/bundled.md) or a file that exists");
    for (const note of inputs.notes) (json ? process.stderr : process.stdout).write(note + "\n");
    const f = inputs.flags;
    args.command = inputs.command;
    if (f["agent-url"]) return hosted(f as HostedFlags, f["agent-url"], json);
    // The built-in model agent is set up (model, key, prices, budget) before any server starts: a problem is exit 2.
    let modelAgent: ModelAgent | null = null;
    if (f.model !== undefined) {
      const set = setupModelAgent({ ...f, model: f.model }, { concurrency: f.concurrency ?? availableParallelism() });
      if (!set.ok) return early(json, 2, `worlds passk: ${set.message}`, set.nextAction);
      modelAgent = set.agent;
    }
    const agent = modelAgent ? modelAgent.label : args.command!;
    // init's CI workflow carries a placeholder until the user names their agent: say so before any world exists.
    const placeholder = modelAgent ? null : agentPlaceholderProblem(agent);
    if (placeholder) return early(json, 2, `worlds passk: ${placeholder}`, "put your agent's command after '--'");
    const prepared = prepareJudge(f);
    if (!prepared.ok) return early(json, 2, `worlds passk: ${prepared.message}`, prepared.nextAction);
    const verdicts = prepareVerdicts(f);
    if (!verdicts.ok) return early(json, 2, `worlds passk: ${verdicts.message}`, verdicts.nextAction);
    for (const note of verdicts.prepared.notes) process.stderr.write(note + "\n");
    const source = f.tasks ?? f.rubric!;
    const say = (line: string) => (json ? process.stderr : process.stdout).write(line + "\n");

    const interrupt = trapSignals();
    let server: ConnectedServer | null = null;
    try {
      try {
        server = await connectServer({ auto: f.server === "auto", url: f.url, token: f.token }, interrupt);
      } catch (e) {
        if (e instanceof ServerSetupError) return early(json, e.exitCode, `worlds passk: ${e.message}`, e.nextAction);
        throw e;
      }
      const loaded = f.tasks ? await loadTasks(f.tasks, server.client, { fileScenario: f.scenario === undefined, filePolicy: f.policy === undefined }) : await loadSeedAndRubric(f.seed!, f.rubric!, server.client);
      if (!loaded.ok) {
        for (const p of loaded.problems) process.stderr.write(p + "\n");
        return early(json, loaded.exitCode, `worlds passk: ${loaded.reason}`, loaded.nextAction);
      }
      const compiled = loaded.compiled;
      const planned = planRun(compiled.seed, compiled.rubric, f.task ?? []);
      if (!planned.ok) return early(json, 2, `worlds passk: --${planned.message}`, "use a task id from the file, or its position (1, 2, ...)");
      const plan = planned.plan;
      // Checked before any world exists: a typo in the task to explain must not cost a whole run.
      if (f.explain !== undefined && !plan.tasks.some((t) => t.ticket.label === f.explain))
        return early(json, 2, `worlds passk: --explain ${f.explain}: no such task in the run (its tasks: ${plan.tasks.map((t) => t.ticket.label).join(", ")})`, "name a task id from the file, as --task takes it");
      const mode = f.mode ?? compiled.file.mode ?? "isolated";
      const runs = f.runs ?? compiled.file.runs ?? 3;
      const gateProblem = gateRunsProblem(verdicts.prepared, runs);
      if (gateProblem) return early(json, 2, `worlds passk: ${gateProblem}`, "run more repetitions, or gate on a smaller k");
      const scenarioRef = f.scenario ?? compiled.file.scenario ?? null;
      const scenario = scenarioRef ? loadScenarioArg(scenarioRef, source) : null;
      if (scenario && !scenario.ok) return early(json, 2, `worlds passk: ${scenario.message}`, "name a scenario from the library, or a .json/.yaml file");
      const judge = await passkJudge(f, prepared.prepared, f.tasks ?? null, "policy" in compiled.file ? (compiled.file.policy ?? null) : null, interrupt.signal);
      if (!judge.ok) return early(json, 2, `worlds passk: ${judge.message}`, judge.nextAction);
      plan.rubric = { ...plan.rubric, mode };

      const summary = compiled.summary.replace(/ · (isolated|shift) · /, ` · ${mode} · `);
      say(plan.tasks.length === compiled.rubric.tickets.length ? summary : `${summary} · running ${plan.tasks.length}: ${plan.tasks.map((t) => t.ticket.label).join(", ")}`);
      if (judge.judge) say(judge.judge.line);

      const concurrency = f.concurrency ?? availableParallelism();
      const timeoutMs = (f.timeout ?? 300) * 1000;
      const progress = progressView(process.stderr, Date.now, concurrency);
      const execution = await execute({
        plan,
        mode,
        runs,
        argv: agent,
        inProcess: modelAgent ?? undefined,
        server,
        concurrency,
        timeoutMs,
        keepWorlds: !!f["keep-worlds"],
        scenario: scenario?.ok ? scenario.value : null,
        signal: interrupt.signal,
        onEpisode: (p) => progress.episode(p),
        judge: judge.judge?.hook(plan, mode),
      });
      progress.end();
      if (modelAgent) process.stderr.write(modelAgent.summary() + "\n");

      const replayFlags = [
        ...(f.mode ? ["--mode", f.mode] : []),
        ...(f.timeout ? ["--timeout", String(f.timeout)] : []),
        ...(f.scenario ? ["--scenario", f.scenario] : []),
      ];
      const built = buildResults({
        mode,
        runs_requested: runs,
        tasks: { file: source, hashes: { file: compiled.hashes.file, seed: compiled.hashes.seed, rubric: compiled.hashes.rubric }, pack: f.tasks ? packName(f.tasks, compiled.hashes.file) : null },
        rubric: plan.rubric,
        invocation: { agent_command: [...agent], ...(modelAgent ? { agent_flags: modelAgent.replayFlags } : {}), server_flags: server.flags, server_env: server.env, replay_flags: replayFlags, ...(f.tasks ? {} : { source_flags: ["--seed", f.seed!, "--rubric", f.rubric!] }) },
        episodes: execution.episodes,
        run_checks: execution.runChecks,
        interrupted: interrupt.received() ? { signal: interrupt.received()! } : null,
        judge: judge.judge?.run ?? null,
        generated_at: new Date().toISOString(),
      });
      const sourceFlags = f.tasks ? ["--tasks", f.tasks] : ["--seed", f.seed!, "--rubric", f.rubric!];
      const rerun = modelAgent ? { replayFlags: [...replayFlags, ...modelAgent.replayFlags], agent: [] } : { replayFlags, agent };
      const { results, comparison } = finishVerdicts(built, verdicts.prepared, { source: sourceFlags, serverFlags: server.flags, serverEnv: server.env, only: f.task ?? [], ...rerun });

      // An interrupted run is partial and the user is waiting to get their terminal back: it is not registered.
      const registered = interrupt.received() ? null : await registerRun({
        client: server.client,
        results,
        rubric: compiled.rubric,
        only: f.task ?? [],
        runs,
        concurrency,
        timeoutS: timeoutMs / 1000,
        episodes: execution.finished,
      });
      if (registered && !registered.ok) process.stderr.write(`worlds passk: the run was not registered on the server (its results below stand): ${registered.message}\n`);
      // A server this command started is gone when it ends; only a running server keeps the history.
      else if (registered && !server.local) say(`registered as ${registered.runId}: worlds runs show ${registered.runId}${server.flags.length ? ` ${server.flags.join(" ")}` : ""}`);

      const doc = serializeResults(results);
      if (f["json-file"]) writeFileSync(f["json-file"], doc);
      if (f.report) writeFileSync(f.report, renderHtml(results));
      if (f.junit) writeFileSync(f.junit, renderJunit(results));
      if (execution.keptWorlds.length) say(`kept worlds (--keep-worlds): ${execution.keptWorlds.join(" ")}`);
      if (json) process.stdout.write(doc);
      else process.stdout.write(textWithComparison(renderText(results), comparison));
      // The calls go after the results (on stderr with --json, which keeps stdout one document).
      if (f.explain !== undefined) (json ? process.stderr : process.stdout).write("\n" + renderExplain(results, f.explain));
      return results.exit_code;
    } finally {
      await server?.stop();
      interrupt.dispose();
    }
  },
};

type HostedFlags = Pick<z.infer<typeof SCHEMA>, "tasks" | "runs" | "mode" | "task" | "server" | "url" | "token" | "concurrency" | "timeout" | "json-file" | "report" | "junit" | "scenario" | "gate" | "baseline" | "explain"> & JudgeFlags;

/**
 * `--agent-url`: the server runs every episode from its queue against the HTTP agent and this command follows
 * it. With --server auto the local server this command starts is that server (its queue runs while we follow;
 * Ctrl-C stops both). Everything the server needs is checked here first, so nothing is posted half-configured.
 */
async function hosted(f: HostedFlags, agentUrl: string, json: boolean, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const secret = env.WORLDS_AGENT_SECRET ?? "";
  const missing: string[] = [];
  const url = f.url ?? env.WORLDS_URL;
  const token = f.token ?? env.WORLDS_TOKEN;
  if (f.server !== "auto") {
    if (!url) missing.push("the server (--url or WORLDS_URL)");
    if (!token) missing.push("its admin token (--token or WORLDS_TOKEN)");
  }
  if (secret.length < 16) missing.push(secret ? "a longer WORLDS_AGENT_SECRET (at least 16 characters; it signs every request to the agent)" : "WORLDS_AGENT_SECRET (at least 16 characters; it signs every request to the agent)");
  const verdicts = prepareVerdicts(f);
  if (!verdicts.ok) return early(json, 2, `worlds passk: ${verdicts.message}`, verdicts.nextAction);
  const judge = hostedJudge(f, f.tasks!);
  if (!judge.ok) return early(json, 2, `worlds passk: ${judge.message}`, judge.nextAction);
  for (const note of verdicts.prepared.notes) process.stderr.write(note + "\n");
  if (missing.length)
    return early(json, 2, `worlds passk: a hosted run (--agent-url) needs ${missing.join(", ")}`, "set what is missing, e.g. WORLDS_AGENT_SECRET=$(openssl rand -hex 16) worlds passk --url URL --token T --agent-url AGENT_URL --tasks F (docs/hosted-runs.md)");

  const interrupt = trapSignals();
  let server: ConnectedServer | null = null;
  try {
    // Reaching the server and proving the token first gives the same exit 3 and next step as a local run.
    try {
      server = await connectServer({ auto: f.server === "auto", url, token }, interrupt);
    } catch (e) {
      if (e instanceof ServerSetupError) return early(json, e.exitCode, `worlds passk: ${e.message}`, e.nextAction);
      throw e;
    }
    const code = await runHostedPassk({
      url: server.url,
      token: server.local ? server.local.token : token!,
      agentUrl,
      agentSecret: secret,
      tasksFile: f.tasks!,
      runs: f.runs,
      mode: f.mode,
      task: f.task,
      concurrency: f.concurrency,
      // The server counts whole seconds.
      timeoutS: f.timeout === undefined ? undefined : Math.ceil(f.timeout),
      scenario: f.scenario,
      judge: judge.judge,
      json,
      jsonFile: f["json-file"],
      report: f.report,
      junit: f.junit,
      signal: interrupt.signal,
      // The server's own flags are not known here, so an undecided gate's advice names --runs instead of a full line.
      finish: (r) => {
        const done = finishVerdicts(r, verdicts.prepared, null);
        const explain = f.explain !== undefined ? "\n" + renderExplain(done.results, f.explain) : "";
        if (json && explain) process.stderr.write(explain);
        return { results: done.results, text: (t) => textWithComparison(t, done.comparison) + explain };
      },
    });
    return interrupt.exitCode() ?? code;
  } finally {
    await server?.stop();
    interrupt.dispose();
  }
}

/**
 * Failures before anything ran have no results to build: the text says what and what next, and --json gets
 * the contract-only results document (still valid against the published schema).
 */
function early(json: boolean, exitCode: number, reason: string, nextAction: string): number {
  const status = exitCode === 3 ? "setup_failed" : exitCode === 4 ? "inconclusive" : "configuration_incomplete";
  const text = reason.replace(/^worlds passk: /, "");
  const doc = earlyResults({ status, reason: text, next_action: nextAction }, new Date().toISOString());
  process.stderr.write(`${reason}\n`);
  if (json) process.stdout.write(JSON.stringify(doc, null, 2) + "\n");
  else process.stdout.write(`status: ${doc.status} (exit ${doc.exit_code}) — ${text}\nnext: ${nextAction}\n`);
  return doc.exit_code;
}
