// `worlds evals run FILE`: the flags, the agent, the server, the episodes, and the outputs (the results contract's
// text, JSON, HTML and JUnit, plus one file per trial beside the JSON).
import { readFileSync } from "node:fs";
import { z } from "zod";
import { buildResults } from "../../core/results/index";
import { renderText } from "../../core/report/index";
import { isRubricGrader, isReplayEnvironment, type LoadedTask } from "../../core/kinds/replay/task-format/index";
import type { RubricJudge } from "../../core/kinds/replay/rubric/index";
import { DEFAULT_PERSON_MODEL } from "../../core/kinds/replay/person/setup";
import { MAX_PERSON_TURN_LIMIT } from "../../core/kinds/replay/person/schema";
import { parseModelName } from "../../core/models/index";
import { sha256Hex } from "../../core/util/canonical";
import type { EpisodeRecordInput } from "../../core/results/index";
import { flag, FlagError, helpText, parseArgs, type FlagDefs } from "../flags";
import { connectOrReport, SERVER_FLAG_DEFS, SERVER_FLAG_SHAPE } from "../server/connect";
import { trapSignals } from "../signals";
import { checkOutputPaths, OutputPathError, writeOutputs } from "../results/write";
import { MODEL_AGENT_FLAG_DEFS, MODEL_AGENT_FLAG_SHAPE, strayModelFlag } from "../agent/model-flags";
import { agentFor, type ChosenAgent } from "../agent/choose";
import { setupCodeAgent } from "../agent/code-agent";
import { reportFlagError } from "../commands/errors";
import { readTaskFile } from "./read";
import { selectTasks } from "./select";
import { judgeFrom, JUDGE_DEFS, JUDGE_SHAPE } from "./judge-flags";
import { OwnEnvironments } from "./environment";
import { buildEvalsInput, runEvalsTasks, skipReason, type TrialDetail } from "./run";
import { writeTrialFiles } from "./trials";
import { OUTPUT_FLAG_DEFS, OUTPUT_FLAG_SHAPE } from "../results/output-flags";

const out = (s: string) => void process.stdout.write(s);
const err = (s: string) => void process.stderr.write(s);
const fail = (message: string, code = 2) => (err(`worlds evals run: ${message}\n`), code);

export const DEFAULT_RESULTS = "runs/runs.json";

const RUN_DEFS: FlagDefs = {
  trials: { kind: "value", short: "k", placeholder: "K", help: "episodes of every task (default: 3)" },
  runs: { kind: "value", placeholder: "K", help: "the same as --trials (replay lines use it)" },
  split: { kind: "value", placeholder: "NAME", help: "run only the tasks of this split: train or held_out" },
  task: { kind: "list", placeholder: "SLUG", help: "run only this task (repeatable)" },
  ...SERVER_FLAG_DEFS,
  concurrency: { kind: "value", placeholder: "N", help: "agents at once (default: 2)" },
  timeout: { kind: "value", placeholder: "S", help: "seconds per episode before the agent is stopped (default: 300)" },
  person: { kind: "value", placeholder: "P:M", help: `the model that plays a task's person (default ${DEFAULT_PERSON_MODEL}); the server runs it with its own keys` },
  "person-turn-limit": { kind: "value", placeholder: "N", help: `messages the agent may send the person (default 20, at most ${MAX_PERSON_TURN_LIMIT})` },
  ...JUDGE_DEFS,
  environment: { kind: "value", placeholder: "CMD", help: "your own environment, for tasks whose environment kind is not replay: a command speaking JSON lines on stdin/stdout (docs/replay.md)" },
  grader: { kind: "value", placeholder: "CMD", help: "your own grader, for tasks whose grader kind is not rubric or end_state: a command reading {task, episode} as JSON on stdin and answering {reward, passed}" },
  ...OUTPUT_FLAG_DEFS,
  "json-file": { kind: "value", placeholder: "PATH", help: `write the results JSON here, and one file per trial beside it (default: ${DEFAULT_RESULTS})` },
  "agent-url": { kind: "value", placeholder: "URL", help: "an HTTP agent of the hosted contract, called by this command (signed with $WORLDS_AGENT_SECRET)" },
  agent: { kind: "value", placeholder: "FILE:FN", help: "your agent function, called in this process as FN(messages, toolbox) while worlds runs the person loop (e.g. my_agent.mjs:handle)" },
  ...MODEL_AGENT_FLAG_DEFS,
};
const RUN_SCHEMA = z.strictObject({
  trials: flag.int(1, 1000).optional(),
  runs: flag.int(1, 1000).optional(),
  split: flag.oneOf(["train", "held_out"]).optional(),
  task: flag.list().optional(),
  ...SERVER_FLAG_SHAPE,
  concurrency: flag.int(1, 64).optional(),
  timeout: flag.seconds().optional(),
  person: flag.text().optional(),
  "person-turn-limit": flag.int(1, MAX_PERSON_TURN_LIMIT).optional(),
  ...JUDGE_SHAPE,
  environment: flag.text().optional(),
  grader: flag.text().optional(),
  ...OUTPUT_FLAG_SHAPE,
  "agent-url": flag.url().optional(),
  agent: flag.text().optional(),
  ...MODEL_AGENT_FLAG_SHAPE,
});
type RunFlags = z.infer<typeof RUN_SCHEMA>;

export const RUN_USAGE =
  "worlds evals run FILE [--trials K] [--split train|held_out] [--task SLUG]... [--server auto | --url URL --token T] [--concurrency N] [--timeout S] [--person P:M] [--person-turn-limit N] [--judge P:M] [--judge-base-url URL] [--judge-timeout S] [--no-cache] [--environment CMD] [--grader CMD] [--json-file F] [--report F] [--junit F] [--json] (-- <agent command> | --agent FILE:FN | --agent-url URL | --model P:M [--turn-limit N] [--model-budget USD] [--model-timeout S] [--model-base-url URL] [--model-system F] [--model-prices F])";
const RUN_SUMMARY =
  "Runs every task of a task file k times, each in a fresh world (a replay world on the server, or your own environment),\n" +
  "with the agent reaching its tools and the person over the world's surfaces; grades each run by the task's grader and\n" +
  "reports it in the shared results contract (pass^k, Wilson intervals, text, JSON, HTML, JUnit).";

export async function runCommand(argv: string[]): Promise<number> {
  try {
    return await run(argv);
  } catch (e) {
    if (e instanceof FlagError) return reportFlagError(e);
    if (e instanceof OutputPathError) return fail(e.message);
    throw e;
  }
}

async function run(argv: string[]): Promise<number> {
  const a = parseArgs("evals run", argv, RUN_DEFS, RUN_SCHEMA, { positionals: 1 });
  if (a.help) return out(helpText(RUN_USAGE, RUN_SUMMARY, RUN_DEFS)), 0;
  const f = a.flags;
  if (a.positionals.length !== 1) throw new FlagError("evals run", "name the task file (worlds evals run FILE -- <agent command>).");
  if (f.trials !== undefined && f.runs !== undefined) throw new FlagError("evals run", "--trials and --runs say the same thing; give one.");
  if (f.server && f.url) throw new FlagError("evals run", "--server auto and --url name two servers; pick one.");
  const file = a.positionals[0];
  const read = await readTaskFile(file);
  if (!read.ok) {
    for (const line of read.lines) err(line + "\n");
    return fail(`${file} has problems; fix them first (each names the task and the field).`);
  }
  const selected = selectTasks("evals run", file, read.tasks, f);
  const runnable: LoadedTask[] = [];
  for (const t of selected) {
    const why = skipReason(t.task, { environment: !!f.environment, grader: !!f.grader });
    if (why) err(`SKIPPED   ${file}:${t.line}: task ${t.task.slug}: ${why}\n`);
    else runnable.push(t);
  }
  if (!runnable.length) return fail(selected.length ? `no task of ${file} can run with what was given (each skipped above, with the reason).` : `no task of ${file} is left after --split/--task.`);
  const person = f.person ?? DEFAULT_PERSON_MODEL;
  const personName = parseModelName(person);
  if (!personName.ok) throw new FlagError("evals run", `--person: ${personName.message}`);
  let judge: RubricJudge | null = null;
  if (runnable.some((t) => isRubricGrader(t.task.grader))) {
    const j = judgeFrom(f);
    if (!j.ok) return fail(j.message);
    judge = j.judge;
  }
  const agent = f.agent !== undefined ? await codeAgentFor(f, a.command) : agentFor("evals run", f, a.command, "evals");
  if (typeof agent === "number") return agent;
  const jsonPath = f["json-file"] ?? DEFAULT_RESULTS;
  checkOutputPaths({ "json-file": jsonPath, report: f.report, junit: f.junit });
  const runs = f.trials ?? f.runs ?? 3;
  const interrupt = trapSignals();
  const server = await connectOrReport({ auto: f.server === "auto", url: f.url, token: f.token }, interrupt, fail);
  if (typeof server === "number") return server;
  const environments = runnable.some((t) => !isReplayEnvironment(t.task.environment)) ? new OwnEnvironments(f.environment!) : null;
  try {
    await environments?.listen();
    const total = runnable.length * runs;
    const lineOf = new Map(runnable.map((t) => [t.task.slug, t.line]));
    const details: TrialDetail[] = [];
    err(`evals run: ${runnable.length} task${runnable.length === 1 ? "" : "s"} of ${file} x ${runs} trial${runs === 1 ? "" : "s"} = ${total} episodes\n`);
    const episodes = await runEvalsTasks({
      tasks: runnable,
      runs,
      argv: agent.argv,
      inProcess: agent.model ?? agent.http ?? agent.code ?? undefined,
      server,
      environments,
      judge,
      grader: f.grader ?? null,
      person: { model: person, turnLimit: f["person-turn-limit"] },
      concurrency: f.concurrency ?? 2,
      timeoutMs: (f.timeout ?? 300) * 1000,
      signal: interrupt.signal,
      stop: agent.model ? () => agent.model!.capReached() : undefined,
      onEpisode: (done, n, record, slug) => err(`  [${done}/${n}] ${progressLine(file, lineOf.get(slug) ?? 0, slug, record)}\n`),
      onTrial: (d) => details.push(d),
    });
    if (agent.model) err(agent.model.summary() + "\n");
    const fileHash = await sha256Hex(new Uint8Array(readFileSync(file)));
    const results = buildResults(
      await buildEvalsInput({ file, fileHash, tasks: runnable, runs, argv: agent.argv, agentFlags: agent.model?.replayFlags ?? agent.http?.label ?? agent.code?.label, serverFlags: server.flags, serverEnv: server.env, replayFlags: replayFlags(f, person), episodes, interrupted: interrupt.received() ?? null }),
    );
    const written = writeOutputs(results, { "json-file": jsonPath, report: f.report, junit: f.junit });
    written.push(...writeTrialFiles(jsonPath, file, runnable.map((t) => t.task.slug), runs, details));
    out(f.json ? JSON.stringify(results, null, 2) + "\n" : renderText(results, "evals"));
    for (const w of written) err(`wrote ${w}\n`);
    return interrupt.received() ? (interrupt.exitCode() ?? results.exit_code) : results.exit_code;
  } finally {
    await environments?.close();
    await server.stop();
    interrupt.dispose();
  }
}

/** `--agent FILE:FN`, the only agent named; its module loaded and its function found before anything runs. */
async function codeAgentFor(f: RunFlags, command: string[] | null): Promise<ChosenAgent | number> {
  if (f.model !== undefined || f["agent-url"] !== undefined || command?.length) throw new FlagError("evals run", "--agent, --model, --agent-url and an agent command after '--' each name an agent; pick one.");
  const stray = strayModelFlag(f);
  if (stray) throw new FlagError("evals run", `--${stray} applies to the built-in model agent: add --model P:M (or drop it).`);
  const set = await setupCodeAgent(f.agent!);
  if (!set.ok) return fail(set.message);
  return { argv: set.agent.label, model: null, http: null, code: set.agent, solver: "command", label: f.agent! };
}

/** One line per finished episode: where the task is, and how it ended. */
function progressLine(file: string, line: number, slug: string, record: EpisodeRecordInput): string {
  const where = `${file}:${line}: task ${slug}: trial ${record.run}`;
  if (record.infra_error) return `${where}: infra_error at ${record.infra_error.stage}: ${record.infra_error.message}`;
  const g = record.grades?.[0];
  const reward = g?.evidence?.notes?.find((n) => n.startsWith("reward "));
  return `${where}: ${g?.verdict ?? "not graded"}${reward ? `, ${reward}` : ""}`;
}

/** The flags a replay line keeps so the rerun grades and plays the person the same way. */
function replayFlags(f: RunFlags, person: string): string[] {
  const out = ["--person", person];
  if (f["person-turn-limit"]) out.push("--person-turn-limit", String(f["person-turn-limit"]));
  if (f.judge) out.push("--judge", f.judge);
  if (f["judge-base-url"]) out.push("--judge-base-url", f["judge-base-url"]);
  if (f.environment) out.push("--environment", f.environment);
  if (f.grader) out.push("--grader", f.grader);
  if (f.timeout) out.push("--timeout", String(f.timeout));
  return out;
}
