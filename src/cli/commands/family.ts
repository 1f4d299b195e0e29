// `worlds family validate|gate`: task families, tiers from trivial to near impossible (docs/families.md).
// validate checks every rule (on the files, then on real worlds: gold passes, an untouched world fails); gate
// runs an agent on tiers k times, records the measured pass rates and holds them to the tiers' bands.
import { z } from "zod";
import { flag, FlagError, helpText, parseArgs, type FlagDefs } from "../flags";
import { connectServer, SERVER_FLAG_DEFS, SERVER_FLAG_SHAPE, ServerSetupError, type ConnectedServer } from "../server/connect";
import { trapSignals } from "../signals";
import { checkOutputPaths, OutputPathError } from "../results/write";
import { OUTPUT_FLAG_DEFS, OUTPUT_FLAG_SHAPE } from "../results/output-flags";
import { MODEL_AGENT_FLAG_DEFS, MODEL_AGENT_FLAG_SHAPE } from "../agent/model-flags";
import { agentFor as chooseAgent, type ChosenAgent } from "../agent/choose";
import { FamilyNotFound, loadFamily, resolveFamily, type LoadedFamily, type LoadedTier } from "../families/load";
import { formatFamilyProblem, staticProblems, worldProblems } from "../families/validate";
import { applyGate, familyText, measuredRates, outputs, recordedRates, runTiers, writeBack } from "../families/gate";
import { calibrationNote, writeRun } from "../families/calibration";
import { listFamilies } from "../families/list";
import { recordSeedHash } from "../families/record";
import { gateRates } from "../../core/families/gate";
import { GATE_RUNS } from "../../core/families/vocabulary";
import { reportFlagError } from "./errors";
import { MODEL_PRICES_FLAG } from "../models/flags";
import type { Command } from "./types";

const out = (s: string) => void process.stdout.write(s);
/** `command` is the whole command's name: "family gate", "passk". */
const fail = (command: string, message: string, code = 2) => (process.stderr.write(`worlds ${command}: ${message}\n`), code);

const VALIDATE_DEFS: FlagDefs = {
  ...SERVER_FLAG_DEFS,
  offline: { kind: "switch", help: "check the files only: no world, so no gold replay and no untouched-world check" },
  "record-hashes": { kind: "switch", help: "write each generated seed's sha256 into its tier.yaml where it differs (after a meant change), then validate" },
};
const VALIDATE_SCHEMA = z.strictObject({ ...SERVER_FLAG_SHAPE, offline: flag.switch(), "record-hashes": flag.switch() });

export const RUN_DEFS: FlagDefs = {
  runs: { kind: "value", short: "k", placeholder: "K", help: `episodes per tier (default: ${GATE_RUNS}; fewer needs --force)` },
  task: { kind: "list", placeholder: "TIER", help: "run only this tier (its folder name); repeatable" },
  force: { kind: "switch", help: `accept fewer than ${GATE_RUNS} runs; the recorded pass rate is marked forced` },
  "no-record": { kind: "switch", help: "measure and decide, but write nothing back to the tiers' pass_rates" },
  ...SERVER_FLAG_DEFS,
  concurrency: { kind: "value", placeholder: "N", help: "agents at once (default: 2)" },
  timeout: { kind: "value", placeholder: "S", help: "seconds per episode before the agent is stopped (default: 300)" },
  ...OUTPUT_FLAG_DEFS,
  "agent-url": { kind: "value", placeholder: "URL", help: "an HTTP agent of the hosted contract, called by this command (signed with $WORLDS_AGENT_SECRET)" },
  ...MODEL_AGENT_FLAG_DEFS,
  "model-prices": MODEL_PRICES_FLAG,
};
export const RUN_SCHEMA = z.strictObject({
  runs: flag.int(1, 1000).optional(),
  task: flag.list().optional(),
  force: flag.switch(),
  "no-record": flag.switch(),
  ...SERVER_FLAG_SHAPE,
  concurrency: flag.int(1, 64).optional(),
  timeout: flag.seconds().optional(),
  ...OUTPUT_FLAG_SHAPE,
  "agent-url": flag.url().optional(),
  ...MODEL_AGENT_FLAG_SHAPE,
  "model-prices": flag.text().optional(),
});
type RunFlags = z.infer<typeof RUN_SCHEMA>;

const LIST_DEFS: FlagDefs = { dir: { kind: "value", placeholder: "D", help: "where to look for local families besides the bundled ones (default: the current folder)" } };
const LIST_SCHEMA = z.strictObject({ dir: flag.text().optional() });

const USAGE: Record<string, string> = {
  list: "worlds family list [--dir D]",
  validate: "worlds family validate <family | tier> [--offline] [--record-hashes] [--server auto | --url URL --token T]",
  gate: `worlds family gate <family | tier> [--runs ${GATE_RUNS}] [--task TIER]... [--force] [--no-record] [--server auto | --url URL --token T] [--concurrency N] [--timeout S] [--json] [--json-file F] [--report F] [--junit F] (-- <agent command> | --agent-url URL | --model P:M [--turn-limit N] [--model-budget USD] [--model-timeout S] [--model-base-url URL] [--model-system F] [--model-prices F])`,
};

export const family: Command = {
  summary: "task families: tiers from trivial to near impossible, validated on real worlds and gated on measured pass rates",
  async run(argv) {
    const [sub, ...rest] = argv;
    if (!sub || sub === "--help" || sub === "-h" || !(sub in USAGE)) {
      out(`usage: worlds family <list|validate|gate> ...\n\n${Object.values(USAGE).map((u) => `  ${u}`).join("\n")}\n\nA family is a folder (or a bundled name under packs/families/). See docs/families.md.\n`);
      return sub && !(sub in USAGE) && sub !== "--help" && sub !== "-h" ? 2 : 0;
    }
    try {
      return sub === "validate" ? await validate(rest) : sub === "list" ? list(rest) : await gate(rest);
    } catch (e) {
      if (e instanceof FlagError) return reportFlagError(e);
      if (e instanceof FamilyNotFound || e instanceof OutputPathError) return fail(`family ${sub}`, e.message);
      throw e;
    }
  },
};

async function open(sub: string, arg: string | undefined, only: string[] = []): Promise<{ fam: LoadedFamily; tiers: LoadedTier[]; via: string }> {
  if (!arg) throw new FlagError(sub, "name a family: its folder, one tier's folder, or a bundled family's name");
  const where = resolveFamily(arg);
  const fam = await loadFamily(where.dir);
  let tiers = where.tier ? fam.tiers.filter((t) => t.folder === where.tier) : fam.tiers;
  const unknown = only.filter((n) => !tiers.some((t) => t.folder === n));
  if (unknown.length) throw new FlagError(sub, `--task ${unknown.join(", ")}: no such tier here (tiers: ${tiers.map((t) => t.folder).join(", ")})`);
  if (only.length) tiers = tiers.filter((t) => only.includes(t.folder));
  return { fam, tiers, via: `${where.dir}${where.via === "path" ? "" : ` (${where.via})`}` };
}

async function connect(sub: string, f: { server?: "auto"; url?: string; token?: string }): Promise<{ server: ConnectedServer; interrupt: ReturnType<typeof trapSignals> } | number> {
  if (f.server && f.url) throw new FlagError(sub, "--server auto and --url name two servers; pick one.");
  const interrupt = trapSignals();
  try {
    return { server: await connectServer({ auto: f.server === "auto", url: f.url, token: f.token }, interrupt), interrupt };
  } catch (e) {
    interrupt.dispose();
    if (e instanceof ServerSetupError) return fail(sub, `${e.message}\nnext: ${e.nextAction}`, e.exitCode);
    throw e;
  }
}

async function validate(argv: string[]): Promise<number> {
  const a = parseArgs("family validate", argv, VALIDATE_DEFS, VALIDATE_SCHEMA, { positionals: 1 });
  if (a.help) return out(helpText(USAGE.validate, "Checks a family (or one tier) against every rule; each problem names the tier and the rule.", VALIDATE_DEFS)), 0;
  let { fam, tiers, via } = await open("family validate", a.positionals[0]);
  if (a.flags["record-hashes"]) {
    const written = fam.tiers.flatMap((t) => (t.generatedHash && typeof t.doc.seed === "object" && "sha256" in t.doc.seed && t.doc.seed.sha256 !== t.generatedHash ? [recordSeedHash(t, t.generatedHash)] : []));
    for (const w of written) out(`recorded the generated seed's sha256 in ${w}\n`);
    if (written.length) ({ fam, tiers, via } = await open("family validate", a.positionals[0]));
  }
  out(`family ${fam.doc?.root ?? "?"}: ${via}, ${fam.tiers.length} tier${fam.tiers.length === 1 ? "" : "s"}\n`);
  const only = new Set(tiers.map((t) => t.folder));
  const problems = staticProblems(fam).filter((p) => p.tier === null || only.has(p.tier) || tiers.length === fam.tiers.length);
  const nullAgents = new Map<string, string[]>();
  if (!a.flags.offline) {
    const c = await connect("family validate", a.flags.server || a.flags.url ? a.flags : { server: "auto" });
    if (typeof c === "number") return c;
    try {
      for (const t of tiers) {
        const w = await worldProblems(t, c.server);
        problems.push(...w.problems);
        nullAgents.set(t.folder, w.nullAgents);
      }
    } finally {
      await c.server.stop();
      c.interrupt.dispose();
    }
  }
  for (const t of tiers) {
    const mine = problems.filter((p) => p.tier === t.folder);
    const nulls = nullAgents.get(t.folder) ?? [];
    const nullNote = a.flags.offline ? " (offline: not replayed)" : nulls.length && !mine.some((p) => p.rule === "null_agents") ? `; null agents fail verify (${nulls.join(", ")})` : "";
    out(`${mine.length ? "fail" : "ok  "} ${t.folder}: ${t.doc.gold.length} gold call${t.doc.gold.length === 1 ? "" : "s"}, ${t.checks.length} verify check${t.checks.length === 1 ? "" : "s"}, ${t.entities} seed objects${nullNote}; ${calibrationNote(t)}\n`);
  }
  for (const p of problems) out(`  ${formatFamilyProblem(p)}\n`);
  out(problems.length ? `${problems.length} problem${problems.length === 1 ? "" : "s"}\n` : "every rule holds\n");
  return problems.length ? 2 : 0;
}

/** `worlds family list`: every family in sight (bundled, then local), its tiers and how each is calibrated. */
function list(argv: string[]): number {
  const a = parseArgs("family list", argv, LIST_DEFS, LIST_SCHEMA, { positionals: 0 });
  if (a.help) return out(helpText(USAGE.list, "Lists the bundled families and those in a folder, each tier with its newest recorded pass rate or 'uncalibrated'.", LIST_DEFS)), 0;
  const rows = listFamilies(a.flags.dir ?? process.cwd());
  if (!rows.length) return out("no families (none bundled, none in the folder)\n"), 0;
  for (const r of rows) {
    out(`${r.root}  ${r.world}  ${r.tiers.length} tier${r.tiers.length === 1 ? "" : "s"}  ${r.where}${r.problem ? `  (${r.problem}: run worlds family validate)` : ""}\n`);
    for (const t of r.tiers) out(`  ${t.name}  ${t.note}\n`);
  }
  return 0;
}

type Agent = ChosenAgent;
const agentFor = (sub: string, f: RunFlags, command: string[] | null) => chooseAgent(sub, f, command, "family");

async function gate(argv: string[]): Promise<number> {
  const a = parseArgs("family gate", argv, RUN_DEFS, RUN_SCHEMA, { positionals: 1 });
  if (a.help) return out(helpText(USAGE.gate, "Runs the tiers k times each, records each tier's pass rate and checks the bands, the falling rates and no 0% or 100%.", RUN_DEFS)), 0;
  const f = a.flags;
  const runs = f.runs ?? GATE_RUNS;
  if (runs < GATE_RUNS && !f.force) throw new FlagError("family gate", `--runs ${runs} is fewer than the ${GATE_RUNS} a pass rate needs; add --force to run it anyway (the recorded rate is marked forced)`);
  const { fam, tiers } = await open("family gate", a.positionals[0], f.task);
  return withRun("family gate", a.positionals[0], fam, tiers, f, a.command, async (agent, c) => {
    // Tiers are measured in order: a tier's rate means something only against the one below it.
    const unmeasured = tiers.filter((t) => t.doc.tier > 0 && !tiers.some((x) => x.doc.tier === t.doc.tier - 1) && !recordedRates(fam, [], agent.solver, agent.label).some((r) => r.tier === t.doc.tier - 1));
    if (unmeasured.length && !f.force) {
      const t = unmeasured[0];
      return fail("family gate", `tier ${t.doc.tier} is gated only after tier ${t.doc.tier - 1} has a recorded pass rate for this agent (${agent.label}); gate ${fam.doc!.root}_t${t.doc.tier - 1} first, or add --force (the recorded rate is marked forced)`);
    }
    // A family that breaks its own rules measures nothing: every rule, on real worlds too, before any episode.
    // All but root_name: a copy of a family (a bundled one, to try a change) shares its root, yet measures as well.
    const problems = staticProblems(fam).filter((p) => p.rule !== "root_name");
    for (const t of fam.tiers) problems.push(...(await worldProblems(t, c.server)).problems);
    if (problems.length) {
      for (const p of problems) process.stderr.write(`  ${formatFamilyProblem(p)}\n`);
      return fail("family gate", `the family fails validate (${problems.length} problem${problems.length === 1 ? "" : "s"}); fix them first: worlds family validate ${a.positionals[0]}`);
    }
    const results = await runTiers({ ...runSpec(agent, c, f), fam, tiers, runs, sourceFlags: [a.positionals[0]], replayFlags: ["--force", "--no-record"], command: ["family", "gate"] });
    if (agent.model) process.stderr.write(agent.model.summary() + "\n");
    const measured = measuredRates(results, tiers);
    const g = gateRates([...measured, ...recordedRates(fam, tiers, agent.solver, agent.label)]);
    const decided = applyGate(results, g, !f["no-record"]);
    const trusted = decided.status === "passed" || decided.status === "policy_failed";
    const today = new Date().toISOString().slice(0, 10);
    const recording = trusted && !f["no-record"];
    const run = recording ? writeRun(fam.dir, decided, today) : null;
    const forced = runs < GATE_RUNS || unmeasured.length > 0;
    const written = run ? writeBack(tiers, measured, { solver: agent.solver, model: agent.label, date: today, run: run.run, results_sha256: run.results_sha256, ...(forced ? { forced: true } : {}) }) : [];
    for (const w of outputs(decided, { "json-file": f["json-file"], report: f.report, junit: f.junit })) process.stderr.write(`wrote ${w}\n`);
    if (f.json) out(JSON.stringify({ ...decided }, null, 2) + "\n");
    else out(familyText(decided, g));
    if (run) process.stderr.write(`wrote the run's results to ${run.path}\n`);
    for (const w of written) process.stderr.write(`recorded the pass rate in ${w}\n`);
    return c.interrupt.received() ? (c.interrupt.exitCode() ?? decided.exit_code) : decided.exit_code;
  });
}

/** `worlds passk --family F`: every tier, k times (default 3), reported like a tasks file with the curve. */
export async function passkFamily(argv: string[]): Promise<number> {
  const i = argv.indexOf("--family");
  const name = argv[i + 1];
  const rest = [...argv.slice(0, i), ...argv.slice(i + 2)];
  try {
    if (!name || name.startsWith("--")) throw new FlagError("passk", "--family needs a value (a family's folder or a bundled family's name).");
    const a = parseArgs("passk", rest, RUN_DEFS, RUN_SCHEMA);
    if (a.help) return out(helpText("worlds passk --family F [--runs K] [--task TIER]... [--server auto | --url URL --token T] [--concurrency N] [--timeout S] [--json] [--json-file F] [--report F] [--junit F] (-- <agent command> | --agent-url URL | --model P:M [--turn-limit N] [--model-budget USD] [--model-timeout S] [--model-base-url URL] [--model-system F] [--model-prices F])", "Runs every tier of a family k times and reports it like a tasks file, with the pass-rate curve across tiers.", RUN_DEFS)), 0;
    const f = a.flags;
    if (f.force || f["no-record"]) throw new FlagError("passk", "--force and --no-record belong to worlds family gate; passk --family records nothing.");
    const { fam, tiers } = await open("passk", name, f.task);
    return await withRun("passk", name, fam, tiers, f, a.command, async (agent, c) => {
      const results = await runTiers({ ...runSpec(agent, c, f), fam, tiers, runs: f.runs ?? 3, sourceFlags: ["--family", name], replayFlags: [], command: ["passk"] });
      if (agent.model) process.stderr.write(agent.model.summary() + "\n");
      const g = gateRates(measuredRates(results, tiers));
      for (const w of outputs(results, { "json-file": f["json-file"], report: f.report, junit: f.junit })) process.stderr.write(`wrote ${w}\n`);
      out(f.json ? JSON.stringify(results, null, 2) + "\n" : familyText(results, g));
      return c.interrupt.received() ? (c.interrupt.exitCode() ?? results.exit_code) : results.exit_code;
    });
  } catch (e) {
    if (e instanceof FlagError) return reportFlagError(e);
    if (e instanceof FamilyNotFound || e instanceof OutputPathError) return fail("passk", e.message);
    throw e;
  }
}

type Connected = { server: ConnectedServer; interrupt: ReturnType<typeof trapSignals> };

/** What gate and passk --family share around the episodes: a family fit to run, its agent, a server, and cleanup. */
async function withRun(command: string, name: string, fam: LoadedFamily, tiers: LoadedTier[], f: RunFlags, argv: string[] | null, body: (agent: Agent, c: Connected) => Promise<number>): Promise<number> {
  const problems = staticProblems(fam).filter((p) => p.rule === "schema" || p.rule === "verify_grammar" || p.rule === "generator" || p.rule === "layout");
  if (!fam.doc || problems.length || tiers.some((t) => !t.worldSeed)) {
    for (const p of problems) process.stderr.write(`  ${formatFamilyProblem(p)}\n`);
    process.stderr.write(`worlds ${command}: the family has problems to fix first; run worlds family validate ${name}\n`);
    return 2;
  }
  const agent = agentFor(command, f, argv);
  if (typeof agent === "number") return agent;
  checkOutputPaths({ "json-file": f["json-file"], report: f.report, junit: f.junit });
  const c = await connect(command, f);
  if (typeof c === "number") return c;
  try {
    return await body(agent, c);
  } finally {
    await c.server.stop();
    c.interrupt.dispose();
  }
}

function runSpec(agent: Agent, c: Connected, f: RunFlags) {
  const inProcess = agent.model ?? agent.http ?? undefined;
  return { argv: agent.argv, inProcess, agentFlags: agent.model?.replayFlags ?? agent.http?.label, server: c.server, concurrency: f.concurrency ?? 2, timeoutMs: (f.timeout ?? 300) * 1000, interrupt: c.interrupt };
}
