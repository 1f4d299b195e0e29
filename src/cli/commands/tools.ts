// `worlds tools init|doctor|generate|run|card|export`: crash tests on a team's own tool definitions (docs/tools.md).
import { createInterface } from "node:readline/promises";
import { z } from "zod";
import { buildResults } from "../../core/results/index";
import { renderText } from "../../core/report/index";
import { CannotGenerate, type ToolsTask } from "../../core/kinds/tools/tasks/generate";
import { RecipeRefused } from "../../core/kinds/tools/dials/recipes";
import { flag, FlagError, helpText, parseArgs, type FlagDefs } from "../flags";
import { writeOutputs, OutputPathError, checkOutputPaths } from "../results/write";
import { connectOrReport, SERVER_FLAG_DEFS, SERVER_FLAG_SHAPE } from "../server/connect";
import { trapSignals } from "../signals";
import { generateArms, writeArms } from "../tools/generate";
import { toolsInit } from "../tools/init";
import { DEFAULT_CONFIG, loadTools, ToolsConfigError } from "../tools/load";
import { McpListError } from "../tools/mcp-list";
import { runHostedTools } from "../tools/hosted";
import { buildToolsInput, runToolsTasks, type EpisodeTrace } from "../tools/run";
import { planLines, runSpend, type RunSpend } from "../tools/plan";
import { folderNote, RunFolderError, runFolderOf, shownFileOf, staleRunOn, writeRunFolder } from "../tools/folder";
import { toolsCard } from "../tools/card";
import { DEFAULT_PROMPTFOO_PROVIDER, EXPORT_TARGETS, exportTasks } from "../tools/export";
import { dollarsText, reservePerCallMicros } from "../../core/kinds/tools/plan";
import { measureLine, setLine, summaryLines } from "../tools/summary";
import { reportFlagError } from "./errors";
import { MODEL_AGENT_FLAG_DEFS, MODEL_AGENT_FLAG_SHAPE, strayModelFlag } from "../agent/model-flags";
import { setupModelAgent, type ModelAgent } from "../agent/model-agent";
import { OUTPUT_FLAG_DEFS, OUTPUT_FLAG_SHAPE } from "../results/output-flags";
import { MODEL_PRICES_FLAG } from "../models/flags";
import type { Command } from "./types";
import { TOOLS_SUMMARY } from "./tools-summary";

const out = (s: string) => void process.stdout.write(s);
const fail = (sub: string, message: string, code = 2) => (process.stderr.write(`worlds tools ${sub}: ${message}\n`), code);

const INIT_DEFS: FlagDefs = {
  "own-file": { kind: "value", placeholder: "PATH", help: "your tool file: an OpenAI tools file, an MCP tool list, or an OpenAPI 3.0/3.1 document" },
  "own-format": { kind: "value", placeholder: "F", help: "auto (default), openai, mcp or openapi" },
  "own-name": { kind: "value", placeholder: "NAME", help: "the set's name on reports (default: the file's name)" },
  "own-read": { kind: "list", placeholder: "TOOL", help: "a tool that only reads (the file does not say)" },
  "own-write": { kind: "list", placeholder: "TOOL", help: "a tool that writes" },
  "own-include": { kind: "list", placeholder: "FILTER", help: "take only these tools: a glob on the operationId or name, tag:NAME, path:/v1/refunds*, or GET/POST/... (method filters narrow the others)" },
  "own-exclude": { kind: "list", placeholder: "FILTER", help: "leave these tools out (same filters as --own-include; an exclude wins)" },
  "own-intent": { kind: "list", placeholder: "TOOL=TEXT", help: "what a request says instead of the tool's description" },
  "own-flow": { kind: "list", placeholder: "F.x:T.y", help: "a value from one tool's answer into another's argument, e.g. get_order.id:refund_order.order_id" },
  "mcp-command": { kind: "value", placeholder: "CMD", help: "list your MCP server's tools (started once over stdio, with --yes as consent)" },
  preset: { kind: "value", placeholder: "RECIPE", help: "measure with a recipe of dials: first-look, recovery, long-context, chains, choosing, full, or custom (docs/tools.md)" },
  dial: { kind: "list", placeholder: "DIAL", help: "with --preset custom: a dial to measure (similarity, faults, history, block, arguments, spread, depth, shape)" },
  "generator-version": { kind: "value", placeholder: "V", help: "pin the task generator (own-1)" },
  yes: { kind: "switch", help: "consent to starting --mcp-command; ask nothing" },
  force: { kind: "switch", help: "overwrite an existing settings file" },
  config: { kind: "value", placeholder: "PATH", help: `the settings file to write (default: ${DEFAULT_CONFIG})` },
};
const INIT_SCHEMA = z.strictObject({
  "own-file": flag.text().optional(),
  "own-format": flag.oneOf(["auto", "openai", "mcp", "openapi"]).optional(),
  "own-name": flag.text().optional(),
  "own-read": flag.list().optional(),
  "own-write": flag.list().optional(),
  "own-include": flag.list().optional(),
  "own-exclude": flag.list().optional(),
  "own-intent": flag.list().optional(),
  "own-flow": flag.list().optional(),
  "mcp-command": flag.text().optional(),
  preset: flag.text().optional(),
  dial: flag.list().optional(),
  "generator-version": flag.text().optional(),
  yes: flag.switch(),
  force: flag.switch(),
  config: flag.text().optional(),
});

const CONFIG_DEF: FlagDefs = { config: { kind: "value", placeholder: "PATH", help: `the settings file (default: ${DEFAULT_CONFIG})` } };
const DOCTOR_SCHEMA = z.strictObject({ config: flag.text().optional() });
const GENERATE_SCHEMA = z.strictObject({ config: flag.text().optional() });

const CARD_DEFS: FlagDefs = {
  ...CONFIG_DEF,
  run: { kind: "value", placeholder: "FOLDER", help: "the run folder (default: the newest run on the settings' tool file)" },
  compare: { kind: "value", placeholder: "FOLDER", help: "another run's folder: both cards side by side when the tool file, the settings and the seed match" },
};
const CARD_SCHEMA = z.strictObject({ config: flag.text().optional(), run: flag.text().optional(), compare: flag.text().optional() });
const EXPORT_DEFS: FlagDefs = {
  ...CONFIG_DEF,
  to: { kind: "value", placeholder: "H", help: "the harness: promptfoo (a promptfooconfig.yaml) or inspect (an Inspect JSONL dataset)" },
  out: { kind: "value", placeholder: "PATH", help: "where to write it (default: promptfooconfig.yaml or inspect-tasks.jsonl beside the settings)" },
  provider: { kind: "value", placeholder: "ID", help: `with --to promptfoo: the provider id the tests run on (default: ${DEFAULT_PROMPTFOO_PROVIDER})` },
};
const EXPORT_SCHEMA = z.strictObject({ config: flag.text().optional(), to: flag.oneOf(EXPORT_TARGETS), out: flag.text().optional(), provider: flag.text().optional() });

const RUN_DEFS: FlagDefs = {
  ...CONFIG_DEF,
  runs: { kind: "value", short: "k", placeholder: "K", help: "repetitions of every task (default: 3)" },
  task: { kind: "list", placeholder: "ID", help: "run only this task (repeatable)" },
  "dry-run": { kind: "switch", help: "print the plan (tasks, episodes, calls) and run nothing" },
  ...SERVER_FLAG_DEFS,
  concurrency: { kind: "value", placeholder: "N", help: "agents at once (default: 2)" },
  timeout: { kind: "value", placeholder: "S", help: "seconds per episode before the agent is killed (default: 120)" },
  ...OUTPUT_FLAG_DEFS,
  ...MODEL_AGENT_FLAG_DEFS,
  "model-prices": MODEL_PRICES_FLAG,
  "agent-url": { kind: "value", placeholder: "URL", help: "a hosted run: the server calls this HTTP agent (signed with $WORLDS_AGENT_SECRET) instead of a command" },
  yes: { kind: "switch", help: "with --model: spend without asking first (the cap still holds: $1.00 unless --model-budget says otherwise)" },
};
const RUN_SCHEMA = z.strictObject({
  config: flag.text().optional(),
  runs: flag.int(1, 100).optional(),
  task: flag.list().optional(),
  "dry-run": flag.switch(),
  ...SERVER_FLAG_SHAPE,
  concurrency: flag.int(1, 64).optional(),
  timeout: flag.seconds().optional(),
  ...OUTPUT_FLAG_SHAPE,
  ...MODEL_AGENT_FLAG_SHAPE,
  "model-prices": flag.text().optional(),
  "agent-url": flag.url().optional(),
  yes: flag.switch(),
});

const USAGE: Record<string, string> = {
  init: "worlds tools init --own-file F [--own-format auto|openai|mcp|openapi] [--own-name N] [--own-read T]... [--own-write T]... [--own-include FILTER]... [--own-exclude FILTER]... [--own-intent T=TEXT]... [--own-flow F.x:T.y]... [--mcp-command CMD --yes] [--preset RECIPE [--dial D]...] [--generator-version own-1] [--force] [--config PATH]",
  doctor: "worlds tools doctor [--config PATH]",
  generate: "worlds tools generate [--config PATH]",
  card: "worlds tools card [--config PATH] [--run FOLDER] [--compare FOLDER]",
  export: "worlds tools export --to promptfoo|inspect [--out PATH] [--provider ID] [--config PATH]",
  run: "worlds tools run [--config PATH] [--runs K] [--task ID]... [--dry-run] [--server auto | --url URL] [--token T] [--concurrency N] [--timeout S] [--json-file F] [--report F] [--junit F] [--json] -- <agent command> | --agent-url URL (hosted; needs --url or --server auto, and WORLDS_AGENT_SECRET) | --model P:M [--yes] [--turn-limit N] [--model-budget USD] [--model-timeout S] [--model-base-url URL] [--model-system F] [--model-prices F]",
};

export const tools: Command = {
  summary: TOOLS_SUMMARY,
  async run(argv) {
    const [sub, ...rest] = argv;
    if (!sub || sub === "--help" || sub === "-h" || !(sub in USAGE)) {
      out(`usage: worlds tools <init|doctor|generate|run|card|export> [options]\n\n${Object.values(USAGE).map((u) => `  ${u}`).join("\n")}\n\nSee docs/tools.md.\n`);
      return sub && !(sub in USAGE) && sub !== "--help" && sub !== "-h" ? 2 : 0;
    }
    try {
      if (sub === "init") return await init(rest);
      if (sub === "doctor") return await doctor(rest);
      if (sub === "generate") return await generate(rest);
      if (sub === "card") {
        const a = parseArgs("tools card", rest, CARD_DEFS, CARD_SCHEMA);
        if (a.help) return out(helpText(USAGE.card, "Writes the run's card (markdown and HTML) into its folder: each dial against its first level, what it does not claim, and the episodes where the agent broke most.", CARD_DEFS)), 0;
        return toolsCard({ config: a.flags.config ?? DEFAULT_CONFIG, run: a.flags.run, compare: a.flags.compare }, out);
      }
      if (sub === "export") return await exportCommand(rest);
      return await run(rest);
    } catch (e) {
      if (e instanceof FlagError) return reportFlagError(e);
      if (e instanceof ToolsConfigError) for (const d of e.details) process.stderr.write(`  ${d}\n`);
      if (e instanceof ToolsConfigError || e instanceof McpListError || e instanceof CannotGenerate || e instanceof RecipeRefused || e instanceof RunFolderError || e instanceof OutputPathError) return fail(sub, e.message);
      throw e;
    }
  },
};

async function init(argv: string[]): Promise<number> {
  const a = parseArgs("tools init", argv, INIT_DEFS, INIT_SCHEMA);
  if (a.help) return out(helpText(USAGE.init, "Writes worlds/tools.yaml from your tool file and prints what worlds can do with it.", INIT_DEFS)), 0;
  const f = a.flags;
  return toolsInit(
    { out: f.config, file: f["own-file"], format: f["own-format"], name: f["own-name"], read: f["own-read"] ?? [], write: f["own-write"] ?? [], include: f["own-include"] ?? [], exclude: f["own-exclude"] ?? [], intent: f["own-intent"] ?? [], flow: f["own-flow"] ?? [], mcpCommand: f["mcp-command"], preset: f.preset, dials: f.dial ?? [], generatorVersion: f["generator-version"], yes: !!f.yes, force: !!f.force },
    out,
  );
}

async function doctor(argv: string[]): Promise<number> {
  const a = parseArgs("tools doctor", argv, CONFIG_DEF, DOCTOR_SCHEMA);
  if (a.help) return out(helpText(USAGE.doctor, "Reads the settings and the tool file again: the summary, each refusal, which task forms the set reaches.", CONFIG_DEF)), 0;
  const t = await loadTools(a.flags.config ?? DEFAULT_CONFIG);
  out(`${t.set.setRefusal ? "fail" : "ok  "} ${t.configPath}: tasks on your tools (${t.config.name}), ${measureLine(t)}\n`);
  out(`  tools       ${setLine(t.set)}\n`);
  for (const l of summaryLines(t.set, t.flows)) out(`  ${l}\n`);
  if (t.set.setRefusal) out(`  set         refused: ${t.set.setRefusal}\n`);
  const intents = t.set.tools.every((x) => t.config.intents[x.name] || (x.title && t.config.intents[x.title]));
  if (!intents) out("  note        not every tool has an intent line, so requests use descriptions and choosing a tool is partly a word match\n");
  const stale = staleRunOn(t);
  if (stale)
    out(
      `  warn        the newest run on ${shownFileOf(t)} (${stale.path}) was made on sha256 ${stale.record.sha256.slice(0, 8)}, and the file now has ${t.set.sha256.slice(0, 8)}: ` +
        "its tasks changed (every id with them), so that run's figures are not about this file; run 'worlds tools run' again to measure it (a new folder)\n",
    );
  return t.set.setRefusal ? 2 : 0;
}

async function generate(argv: string[]): Promise<number> {
  const a = parseArgs("tools generate", argv, CONFIG_DEF, GENERATE_SCHEMA);
  if (a.help) return out(helpText(USAGE.generate, "Writes tasks/<form>.jsonl beside the settings: every task's id, request, tool block and expected end. No model, no network.", CONFIG_DEF)), 0;
  const t = await loadTools(a.flags.config ?? DEFAULT_CONFIG);
  const arms = await generateArms(t);
  writeArms(arms);
  const total = arms.reduce((s, x) => s + x.tasks.length, 0);
  out(`ok  generated ${total} tasks: ${t.config.measure ? measureLine(t).replace(/^the [^:]+: /, "") : arms.map((x) => `${x.arm} ${x.tasks.length}`).join(", ")}, no model and no network\n`);
  if (t.config.measure) out("  construction each arm's tasks start from the same draw as its dial's first level and differ from them in the dial's part alone\n");
  out(`  your tools  ${t.set.name}, ${t.set.tools.length} tools from ${t.filePath}; the answers are simulated from your schemas, and your backend is never called\n`);
  out(`  wrote       ${arms.map((x) => x.path).join(", ")}\n`);
  out("next: worlds tools run -- <your agent command>\n");
  return 0;
}

async function exportCommand(argv: string[]): Promise<number> {
  const a = parseArgs("tools export", argv, EXPORT_DEFS, EXPORT_SCHEMA);
  if (a.help) return out(helpText(USAGE.export, "Writes the generated tasks as test cases another harness reads (promptfoo, Inspect), checked against its documented format.", EXPORT_DEFS)), 0;
  const f = a.flags;
  if (f.provider !== undefined && f.to !== "promptfoo") throw new FlagError("tools export", "--provider applies to --to promptfoo.");
  const t = await loadTools(f.config ?? DEFAULT_CONFIG);
  const tasks = (await generateArms(t)).flatMap((x) => x.tasks);
  const done = exportTasks(t, tasks, { to: f.to, out: f.out, provider: f.provider });
  out(`ok  wrote ${done.count} tasks to ${done.path} as ${f.to === "promptfoo" ? "promptfoo test cases (one turn each: the calls fit the schemas, the first calls are the expected tools)" : "Inspect samples (json_dataset reads them: id, input, target, metadata)"}\n`);
  out(`  your tools  ${t.set.name}, ${t.set.tools.length} tools from ${t.filePath}; the same tasks, ids and requests as worlds tools run\n`);
  out(`next: ${f.to === "promptfoo" ? `promptfoo eval -c ${done.path}` : `in your Inspect task: json_dataset("${done.path}")`}\n`);
  return 0;
}

async function run(argv: string[]): Promise<number> {
  const a = parseArgs("tools run", argv, RUN_DEFS, RUN_SCHEMA);
  if (a.help) return out(helpText(USAGE.run, "Runs every task k times, each in a fresh tools world, and grades each episode by replaying its calls.", RUN_DEFS)), 0;
  const f = a.flags;
  if (f.server && f.url) throw new FlagError("tools run", "--server auto and --url name two servers; pick one.");
  const t = await loadTools(f.config ?? DEFAULT_CONFIG);
  const arms = await generateArms(t);
  let tasks: ToolsTask[] = arms.flatMap((x) => x.tasks);
  if (f.task?.length) {
    const unknown = f.task.filter((id) => !tasks.some((x) => x.id === id));
    if (unknown.length) throw new ToolsConfigError(`no task ${unknown.join(", ")} in ${t.configPath} (a changed tool file or setting changes every id; 'worlds tools generate' lists them)`);
    tasks = tasks.filter((x) => f.task!.includes(x.id));
  }
  const runs = f.runs ?? 3;
  if (f["dry-run"]) {
    for (const l of planLines(t, tasks, runs, f)) out(`${l}\n`);
    return 0;
  }
  const stray = strayModelFlag(f) ?? (f.yes && f.model === undefined ? "yes" : null);
  if (stray) throw new FlagError("tools run", `--${stray} applies to the built-in model agent: add --model P:M (or drop it).`);
  if (f["agent-url"]) return hostedRun(f, f["agent-url"], t, runs, a.command ?? []);
  if (f.model !== undefined && a.command?.length) throw new FlagError("tools run", "--model and an agent command after '--' name two agents; pick one.");
  if (f.model === undefined && !a.command?.length) throw new FlagError("tools run", "no agent command: put it after '--', e.g. worlds tools run -- node my-agent.mjs (or --model P:M for the built-in model agent, or --agent-url URL for an HTTP agent)");
  let modelAgent: ModelAgent | null = null;
  if (f.model !== undefined) {
    const spend = runSpend(t, tasks, runs, f);
    const consent = await askToSpend(spend, !!f.yes);
    if (consent !== true) return consent;
    const set = setupModelAgent({ ...f, model: f.model, "model-budget": spend.cap ?? undefined }, { concurrency: f.concurrency ?? 2, reserveMicros: reservePerCallMicros(spend.plan) });
    if (!set.ok) return fail("run", `${set.message}\nnext: ${set.nextAction}`);
    modelAgent = set.agent;
  }
  const agentArgv = modelAgent ? modelAgent.label : a.command!;
  checkOutputPaths({ "json-file": f["json-file"], report: f.report, junit: f.junit });
  const interrupt = trapSignals();
  const server = await connectOrReport({ auto: f.server === "auto", url: f.url, token: f.token }, interrupt, (text, code) => fail("run", text, code));
  if (typeof server === "number") return server;
  try {
    const total = tasks.length * runs;
    const traces: EpisodeTrace[] = [];
    const episodes = await runToolsTasks({
      tools: t, tasks, runs, argv: agentArgv, inProcess: modelAgent ?? undefined, server, concurrency: f.concurrency ?? 2, timeoutMs: (f.timeout ?? 120) * 1000, signal: interrupt.signal,
      onEpisode: (done) => process.stderr.write(`\r  ${done}/${total} episodes`),
      capReached: modelAgent ? () => modelAgent.capReached() : undefined,
      onTrace: (e) => traces.push(e),
    });
    process.stderr.write("\n");
    if (modelAgent) process.stderr.write(modelAgent.summary() + "\n");
    const spent = modelAgent ? modelAgent.totals().usage : null;
    const dollars = spent && !spent.unpriced ? spent.micros / 1e6 : null;
    if (modelAgent?.capReached()) process.stderr.write(`the run stopped at its ${dollarsText(modelAgent.budgetDollars ?? 0)} cap: kept ${episodes.length} of ${total} episodes\n`);
    const results = buildResults(await buildToolsInput({ tools: t, tasks, runs, argv: agentArgv, agentFlags: modelAgent?.replayFlags, serverFlags: server.flags, serverEnv: server.env, episodes, interrupted: interrupt.received() ?? null }));
    const written = writeOutputs(results, { "json-file": f["json-file"], report: f.report, junit: f.junit });
    const folder = runFolderOf(t, modelAgent ? modelAgent.label[1] : "agent");
    const note = folderNote(folder, t);
    if (note.startsWith("a new run:")) process.stderr.write(`${note}\n`);
    await writeRunFolder(folder, { t, tasks, runs, agent: modelAgent ? modelAgent.label[1] : agentArgv.join(" "), traces, total, dollars, budget: modelAgent?.budgetDollars ?? null, results });
    written.push(`${folder}/ (the run: ${episodes.length} of ${total} episodes kept${dollars !== null ? `, ${dollarsText(dollars)}` : ""}; 'worlds tools card --run ${folder}' reads it)`);
    if (f.json) out(JSON.stringify(results, null, 2) + "\n");
    else out(renderText(results, "tools"));
    for (const w of written) process.stderr.write(`wrote ${w}\n`);
    return interrupt.received() ? (interrupt.exitCode() ?? results.exit_code) : results.exit_code;
  } finally {
    await server.stop();
    interrupt.dispose();
  }
}

/**
 * Before a --model run spends: --yes goes ahead; a terminal is asked once; with no terminal (CI, a pipe) the run is
 * refused in one line naming --yes and the cap's flag, so money is never spent by a command nobody confirmed.
 */
async function askToSpend(spend: RunSpend, yes: boolean): Promise<true | number> {
  if (yes) return true;
  const cost = spend.plan.dollars !== null ? `about ${dollarsText(spend.plan.dollars)} expected` : "its cost is not known";
  const line = `a --model run spends money: ${spend.plan.episodes} episodes against ${spend.model!.label}, ${cost}, ${spend.capText}`;
  if (!process.stdin.isTTY || !process.stderr.isTTY) return fail("run", `${line}; there is no terminal to ask on, so add --yes to run it without asking (--model-budget USD sets the cap)`);
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(`${line}.\nGo on? [y/N] `);
    if (/^y(es)?$/i.test(answer.trim())) return true;
  } finally {
    rl.close();
  }
  return fail("run", "not started: nothing was spent (--yes skips this question)", 1);
}

type RunFlags = z.infer<typeof RUN_SCHEMA>;

/** `--agent-url`: the server runs the episodes from its queue against the HTTP agent; this command follows. */
async function hostedRun(f: RunFlags, agentUrl: string, t: Awaited<ReturnType<typeof loadTools>>, runs: number, command: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  if (command.length) throw new FlagError("tools run", "--agent-url and an agent command after '--' name two agents; pick one.");
  if (f.model !== undefined) throw new FlagError("tools run", "--model and --agent-url name two agents; pick one.");
  const secret = env.WORLDS_AGENT_SECRET ?? "";
  const url = f.url ?? env.WORLDS_URL;
  const token = f.token ?? env.WORLDS_TOKEN;
  const missing: string[] = [];
  if (f.server !== "auto") {
    if (!url) missing.push("the server (--url or WORLDS_URL)");
    if (!token) missing.push("its admin token (--token or WORLDS_TOKEN)");
  }
  if (secret.length < 16) missing.push(`${secret ? "a longer WORLDS_AGENT_SECRET" : "WORLDS_AGENT_SECRET"} (at least 16 characters; it signs every request to the agent)`);
  if (missing.length) return fail("run", `a hosted run (--agent-url) needs ${missing.join(", ")}\nnext: e.g. WORLDS_AGENT_SECRET=$(openssl rand -hex 16) worlds tools run --url URL --token T --agent-url AGENT_URL (docs/hosted-runs.md)`);
  checkOutputPaths({ "json-file": f["json-file"], report: f.report, junit: f.junit });
  const interrupt = trapSignals();
  const server = await connectOrReport({ auto: f.server === "auto", url, token }, interrupt, (text, code) => fail("run", text, code));
  if (typeof server === "number") return server;
  try {
    // With --json, stdout holds the results document alone.
    (f.json ? process.stderr : process.stdout).write(`${t.configPath}: ${setLine(t.set)}\n`);
    return await runHostedTools({
      url: server.url,
      token: server.local ? server.local.token : token!,
      agentUrl,
      agentSecret: secret,
      tools: t,
      runs,
      task: f.task,
      concurrency: f.concurrency,
      timeoutS: f.timeout === undefined ? undefined : Math.ceil(f.timeout),
      json: f.json,
      jsonFile: f["json-file"],
      report: f.report,
      junit: f.junit,
      signal: interrupt.signal,
    });
  } finally {
    await server.stop();
    interrupt.dispose();
  }
}
