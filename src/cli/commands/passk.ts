// `worlds passk --tasks F -- <agent command>`: compile the tasks file once, run the agent in fresh worlds k
// times, grade every world, and report pass^k with the result contract's status and exit code.
import { writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { z } from "zod";
import { buildResults, earlyResults, serializeResults } from "../../core/results/index";
import { renderHtml, renderJunit, renderText } from "../../core/report/index";
import { flag, FlagError, helpText, parseArgs, type FlagDefs } from "../flags";
import { connectServer, SERVER_FLAG_DEFS, ServerSetupError, type ConnectedServer } from "../server/connect";
import { trapSignals } from "../signals";
import { loadTasks } from "../passk/load";
import { planTasks } from "../passk/plan";
import { execute } from "../passk/execute";
import { progressView } from "../render/progress";
import { loadScenarioArg } from "../passk/scenario";
import type { Command } from "./types";

const DEFS: FlagDefs = {
  tasks: { kind: "value", placeholder: "F", help: "the tasks file (worlds/tasks.yaml)" },
  runs: { kind: "value", placeholder: "K", short: "k", help: "repetitions (default: the file's runs:, else 3)" },
  mode: { kind: "value", placeholder: "isolated|shift", help: "one world per task per run, or one world per run (default: the file's mode:)" },
  task: { kind: "list", placeholder: "ID", help: "run only this task (its id, or its position); repeatable" },
  ...SERVER_FLAG_DEFS,
  concurrency: { kind: "value", placeholder: "N", help: "episodes at once (default: number of CPUs)" },
  timeout: { kind: "value", placeholder: "S", help: "seconds an agent may take per world (default: 300)" },
  "keep-worlds": { kind: "switch", help: "leave every world on the server (ids are printed)" },
  json: { kind: "switch", help: "print the results JSON on stdout instead of text" },
  "json-file": { kind: "value", placeholder: "F", help: "also write the results JSON to F" },
  report: { kind: "value", placeholder: "F.html", help: "write a self-contained HTML report" },
  junit: { kind: "value", placeholder: "F.xml", help: "write a JUnit file (one testcase per task)" },
  scenario: { kind: "value", placeholder: "S", help: "a scenario name or file (default: the file's scenario:)" },
};

const SCHEMA = z.strictObject({
  tasks: flag.text().optional(),
  runs: flag.int(1, 100).optional(),
  mode: flag.oneOf(["isolated", "shift"]).optional(),
  task: flag.list().optional(),
  server: flag.oneOf(["auto"]).optional(),
  url: flag.url().optional(),
  token: flag.text().optional(),
  concurrency: flag.int(1, 256).optional(),
  timeout: flag.seconds().optional(),
  "keep-worlds": flag.switch(),
  json: flag.switch(),
  "json-file": flag.text().optional(),
  report: flag.text().optional(),
  junit: flag.text().optional(),
  scenario: flag.text().optional(),
});

const USAGE =
  "worlds passk --tasks F [--runs K] [--mode isolated|shift] [--task ID]... [--server auto | --url URL] [--token T]\n" +
  "                    [--concurrency N] [--timeout S] [--keep-worlds] [--json] [--json-file F] [--report F.html] [--junit F.xml] [--scenario S] -- <agent command>";

export const passk: Command = {
  summary: "run an agent against a tasks file k times and report pass^k (exit 0 passed, 1 failed, 2-4 see docs/passk.md)",
  async run(argv) {
    let args;
    try {
      args = parseArgs("passk", argv, DEFS, SCHEMA);
      if (!args.help) {
        if (!args.flags.tasks) throw new FlagError("passk", "--tasks is required: the tasks file to run (for example --tasks worlds/tasks.yaml).");
        if (args.flags.server && args.flags.url) throw new FlagError("passk", "--server auto and --url name two servers; pick one.");
        if (!args.command || args.command.length === 0) throw new FlagError("passk", "no agent command: put it after '--', e.g. worlds passk --tasks worlds/tasks.yaml --server auto -- node agent.mjs");
      }
    } catch (e) {
      if (e instanceof FlagError) return early(argv.includes("--json"), 2, `worlds passk: ${e.message}`, "run 'worlds passk --help' for its options");
      throw e;
    }
    if (args.help) {
      process.stdout.write(helpText(USAGE, "Runs the agent command in fresh worlds built from the tasks file, grades each world, and reports pass^k.", DEFS));
      return 0;
    }
    const f = args.flags;
    const agent = args.command!;
    const json = !!f.json;
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
      const loaded = await loadTasks(f.tasks!, server.client);
      if (!loaded.ok) {
        for (const p of loaded.problems) process.stderr.write(p + "\n");
        return early(json, loaded.exitCode, `worlds passk: ${loaded.reason}`, loaded.nextAction);
      }
      const compiled = loaded.compiled;
      const planned = planTasks(compiled, f.task ?? []);
      if (!planned.ok) return early(json, 2, `worlds passk: ${planned.message}`, "use a task id from the file, or its position (1, 2, ...)");
      const plan = planned.plan;
      const mode = f.mode ?? compiled.file.mode ?? "isolated";
      const runs = f.runs ?? compiled.file.runs ?? 3;
      const scenarioRef = f.scenario ?? compiled.file.scenario ?? null;
      const scenario = scenarioRef ? loadScenarioArg(scenarioRef, f.tasks!) : null;
      if (scenario && !scenario.ok) return early(json, 2, `worlds passk: ${scenario.message}`, "name a scenario from the library, or a .json/.yaml file");
      plan.rubric = { ...plan.rubric, mode };

      const summary = compiled.summary.replace(/ · (isolated|shift) · /, ` · ${mode} · `);
      say(plan.tasks.length === compiled.rubric.tickets.length ? summary : `${summary} · running ${plan.tasks.length}: ${plan.tasks.map((t) => t.ticket.label).join(", ")}`);

      const progress = progressView();
      const execution = await execute({
        plan,
        mode,
        runs,
        argv: agent,
        server,
        concurrency: f.concurrency ?? availableParallelism(),
        timeoutMs: (f.timeout ?? 300) * 1000,
        keepWorlds: !!f["keep-worlds"],
        scenario: scenario?.ok ? scenario.value : null,
        signal: interrupt.signal,
        onEpisode: (p) => progress.episode(p),
      });
      progress.end();

      const replayFlags = [
        ...(f.mode ? ["--mode", f.mode] : []),
        ...(f.timeout ? ["--timeout", String(f.timeout)] : []),
        ...(f.scenario ? ["--scenario", f.scenario] : []),
      ];
      const results = buildResults({
        mode,
        runs_requested: runs,
        tasks: { file: f.tasks!, hashes: { file: compiled.hashes.file, seed: compiled.hashes.seed, rubric: compiled.hashes.rubric }, pack: null },
        rubric: plan.rubric,
        invocation: { agent_command: [...agent], server_flags: server.flags, replay_flags: replayFlags },
        episodes: execution.episodes,
        run_checks: execution.runChecks,
        interrupted: interrupt.received() ? { signal: interrupt.received()! } : null,
        generated_at: new Date().toISOString(),
      });

      const doc = serializeResults(results);
      if (f["json-file"]) writeFileSync(f["json-file"], doc);
      if (f.report) writeFileSync(f.report, renderHtml(results));
      if (f.junit) writeFileSync(f.junit, renderJunit(results));
      if (execution.keptWorlds.length) say(`kept worlds (--keep-worlds): ${execution.keptWorlds.join(" ")}`);
      if (json) process.stdout.write(doc);
      else process.stdout.write(renderText(results));
      return results.exit_code;
    } finally {
      await server?.stop();
      interrupt.dispose();
    }
  },
};

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
