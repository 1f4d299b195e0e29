// Reading a family from disk: family.yaml, each tier folder's tier.yaml and instruction.md, and each tier's seed
// (a bundled name, the folder's seed.json, or a built-in generator run twice to prove it reproducible). Every
// problem is collected with the tier and the rule, never thrown, so validate reports them all at once.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import type { z } from "zod";
import { parseYamlSource, type YamlSource } from "../../core/kinds/account/tasks/source";
import { schemaProblems } from "../../core/kinds/account/tasks/schema-problems";
import { formatProblem } from "../../core/kinds/account/tasks/problems";
import { parseSeed } from "../../core/world/seed/parse";
import { canonicalJson, sha256Hex } from "../../core/util/canonical";
import { FAMILY_FILE, INSTRUCTION_FILE, RUNS_DIR, SEED_FILE, TIER_FILE, familyDocument, tierDocument, type FamilyDocument, type TierDocument } from "../../core/families/schema";
import { GENERATOR_WORLD, generateSeed, LedgerError, UnknownGenerator } from "../../core/families/generate/index";
import { toolsTierBlock, toolsTierFacts, toolsTierProblems, toolsTierSeed, toolsTierTask, type ToolFileSet } from "../../core/families/tools-tier";
import { importToolSet, ToolFileError } from "../../core/kinds/tools/toolset";
import { goldTools, type FamilyProblem, type TierFacts } from "../../core/families/rules";
import { accountRecords, findLookalikes, toolsRecords, type Lookalike } from "../../core/families/lookalike";
import { ACCOUNT_READ_TOOLS, isWrite } from "../../core/families/methods";
import { parseCheck } from "../../core/families/verify/grammar";
import { packageRoot } from "../paths";

type Obj = Record<string, unknown>;

export interface LoadedTier extends TierFacts {
  dir: string;
  /** tier.yaml as parsed, for writing pass rates back in place. */
  source: YamlSource;
  /** The world's seed: the tier's seed with its ticket on the desk (account worlds). Null when it could not be built. */
  worldSeed: Obj | null;
  seedHash: string | null;
  /** What the agent reads on stdin (and WORLDS_TASK_JSON). */
  taskJson: string;
  /** A generated seed's sha256 as generated now (null for a seed that is not generated). */
  generatedHash: string | null;
}

export interface LoadedFamily {
  dir: string;
  doc: FamilyDocument | null;
  tiers: LoadedTier[];
  problems: FamilyProblem[];
}

const MAX_FILE = 1024 * 1024;
/** A scripted model that calibrates the family without a model key (docs/families.md). */
const SOLVER_SCRIPT = "solver.script.yaml";
const MAX_SEED_FILE = 64 * 1024 * 1024;

export class FamilyNotFound extends Error {}

export function bundledFamiliesDir(): string {
  return join(packageRoot(), "packs", "families");
}

/**
 * A family given on the command line: a path (to the family's folder, or to one tier folder inside it) first,
 * then a bundled family's root or tier name under packs/families/. Answers the family folder and the tier, if one.
 */
export function resolveFamily(arg: string): { dir: string; tier: string | null; via: string } {
  const asPath = (p: string) => existsSync(p) && statSync(p).isDirectory();
  const pick = (p: string, via: string) => {
    if (existsSync(join(p, FAMILY_FILE))) return { dir: p, tier: null, via };
    if (existsSync(join(p, TIER_FILE)) && existsSync(join(p, "..", FAMILY_FILE))) return { dir: join(p, ".."), tier: basename(p), via };
    return null;
  };
  if (asPath(arg)) {
    const found = pick(arg, "path");
    if (found) return found;
    throw new FamilyNotFound(`${arg} is a folder but holds no ${FAMILY_FILE} (nor is it a tier folder beside one)`);
  }
  if (/^[a-z][a-z0-9_]*$/.test(arg)) {
    const root = arg.replace(/_t\d+$/, "");
    const dir = join(bundledFamiliesDir(), root);
    if (existsSync(join(dir, FAMILY_FILE))) {
      const tier = root === arg ? null : arg;
      if (tier && !existsSync(join(dir, tier, TIER_FILE))) throw new FamilyNotFound(`the bundled family ${root} has no tier ${tier}`);
      return { dir, tier, via: `bundled (packs/families/${root})` };
    }
  }
  throw new FamilyNotFound(`no family '${arg}': not a folder holding ${FAMILY_FILE}, and not a bundled family (${bundledRoots().join(", ") || "none"})`);
}

export function bundledRoots(): string[] {
  const dir = bundledFamiliesDir();
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((n) => existsSync(join(dir, n, FAMILY_FILE))).sort();
}

function readYaml<S extends z.ZodType>(path: string, schema: S, tier: string | null): { value: z.infer<S> | null; source: YamlSource | null; problems: FamilyProblem[] } {
  if (!existsSync(path)) return { value: null, source: null, problems: [{ tier, rule: "layout", message: `${path} is missing` }] };
  const bytes = statSync(path).size;
  if (bytes > MAX_FILE) return { value: null, source: null, problems: [{ tier, rule: "schema", message: `${path} is ${bytes} bytes; at most ${MAX_FILE}` }] };
  const parsed = parseYamlSource(readFileSync(path, "utf8"), path);
  if (!parsed.ok) return { value: null, source: null, problems: parsed.problems.map((p) => ({ tier, rule: "schema" as const, message: formatProblem(p) })) };
  const r = schema.safeParse(parsed.data);
  if (!r.success) return { value: null, source: parsed.source, problems: schemaProblems(r.error.issues, parsed.source, parsed.data).map((p) => ({ tier, rule: "schema" as const, message: formatProblem(p) })) };
  return { value: r.data, source: parsed.source, problems: [] };
}

export async function loadFamily(dir: string): Promise<LoadedFamily> {
  const problems: FamilyProblem[] = [];
  const fam = readYaml(join(dir, FAMILY_FILE), familyDocument, null);
  problems.push(...fam.problems);
  const doc = fam.value;
  const root = doc?.root ?? basename(dir);
  const toolFile = doc?.world === "tools" ? await readToolFile(dir, doc, problems) : null;
  const tiers: LoadedTier[] = [];
  for (const entry of readdirSync(dir).sort(byTier)) {
    const path = join(dir, entry);
    const kind = entryKind(path);
    if (kind === "loop" || kind === "missing") {
      problems.push({ tier: null, rule: "layout", message: danglingLink(path, kind) });
      continue;
    }
    const isDir = kind === "dir";
    // The gate runs' results, which the tiers' pass rates name (calibration.ts).
    if (isDir && entry === RUNS_DIR) continue;
    if (!isDir) {
      if (entry !== FAMILY_FILE && entry !== "README.md" && entry !== SOLVER_SCRIPT && entry !== doc?.tools?.file)
        problems.push({ tier: null, rule: "layout", message: `${path}: a family folder holds ${FAMILY_FILE}, README.md, ${SOLVER_SCRIPT}${doc?.world === "tools" ? ", its tool file" : ""}, ${RUNS_DIR}/ and its tier folders only` });
      continue;
    }
    if (!new RegExp(`^${root}_t\\d+$`).test(entry)) {
      problems.push({ tier: null, rule: "layout", message: `${path}: a folder in a family must be a tier named ${root}_t<N>` });
      continue;
    }
    const tier = await loadTier(path, entry, doc, toolFile);
    problems.push(...tier.problems);
    if (tier.tier) tiers.push(tier.tier);
  }
  return { dir, doc, tiers, problems };
}

/** A tools family's tool file, imported once for every tier; null (with the problem) when it cannot be. */
async function readToolFile(dir: string, doc: FamilyDocument, problems: FamilyProblem[]): Promise<ToolFileSet | null> {
  const add = (message: string) => (problems.push({ tier: null, rule: "schema", message }), null);
  if (!doc.tools) return add(`${join(dir, FAMILY_FILE)}: a tools family names its tool file (tools: {file: tools.json}), the tools its tiers offer`);
  const path = join(dir, doc.tools.file);
  if (!existsSync(path)) return add(`${path} is missing (family.yaml's tools.file names it)`);
  if (statSync(path).size > MAX_FILE) return add(`${path} is larger than ${MAX_FILE} bytes`);
  try {
    const set = await importToolSet(readFileSync(path, "utf8"), { format: doc.tools.format, name: doc.tools.file, read: doc.tools.read, write: doc.tools.write });
    if (set.setRefusal) return add(`${path}: ${set.setRefusal}`);
    return { name: set.name, format: set.format, sha256: set.sha256, tools: set.tools };
  } catch (e) {
    if (e instanceof ToolFileError) return add(`${path}: ${e.message}`);
    throw e;
  }
}

/**
 * A folder entry as what it leads to. A symbolic link is followed (a shared seed.json may be one), but one that
 * resolves to nothing (a link to itself: ELOOP, or to a missing path) is a layout problem, never a thrown stat.
 */
function entryKind(path: string): "dir" | "file" | "loop" | "missing" {
  try {
    return statSync(path).isDirectory() ? "dir" : "file";
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ELOOP") return "loop";
    if (code === "ENOENT" || code === "ENOTDIR") return "missing";
    throw e;
  }
}

function danglingLink(path: string, kind: "loop" | "missing"): string {
  return `${path} is a symbolic link that leads nowhere (${kind === "loop" ? "it leads back to itself" : "its target does not exist"}); a family holds real folders and files`;
}

function byTier(a: string, b: string): number {
  const n = (s: string) => Number(/_t(\d+)$/.exec(s)?.[1] ?? -1);
  return n(a) - n(b) || a.localeCompare(b);
}

async function loadTier(dir: string, folder: string, family: FamilyDocument | null, toolFile: ToolFileSet | null): Promise<{ tier: LoadedTier | null; problems: FamilyProblem[] }> {
  const problems: FamilyProblem[] = [];
  const add = (rule: FamilyProblem["rule"], message: string) => problems.push({ tier: folder, rule, message });
  const read = readYaml(join(dir, TIER_FILE), tierDocument, folder);
  problems.push(...read.problems);
  const doc = read.value;
  const instructionPath = join(dir, INSTRUCTION_FILE);
  const instruction = existsSync(instructionPath) ? readFileSync(instructionPath, "utf8").slice(0, MAX_FILE) : "";
  if (!existsSync(instructionPath)) add("layout", `${instructionPath} is missing: it holds the user's request`);

  // Exactly what a tier holds: a nested tier (a copy gone wrong) or any stray file is refused.
  const usesSeedFile = doc ? seedFileUsed(doc) : existsSync(join(dir, SEED_FILE));
  const allowed = new Set([TIER_FILE, INSTRUCTION_FILE, ...(usesSeedFile ? [SEED_FILE] : [])]);
  for (const entry of readdirSync(dir).sort()) {
    const p = join(dir, entry);
    const kind = entryKind(p);
    if (kind === "loop" || kind === "missing") add("layout", danglingLink(p, kind));
    else if (kind === "dir") add("layout", `${p}: a tier folder holds no folders${/_t\d+$/.test(entry) ? " (a tier nested inside another: copy with cp -rT)" : ""}`);
    else if (!allowed.has(entry)) add("layout", `${p}: a tier folder holds ${[...allowed].join(", ")} only`);
  }
  if (usesSeedFile && !existsSync(join(dir, SEED_FILE))) add("layout", `${join(dir, SEED_FILE)} is missing (the seed names it)`);
  if (!doc || !read.source) return { tier: null, problems };

  const checks = [];
  for (const [i, line] of doc.verify.entries()) {
    const c = parseCheck(line);
    if (c.ok) checks.push(c.check);
    else add("verify_grammar", `verify[${i}] '${line}': ${c.message} (column ${c.column})`);
  }

  const generated: { hash: string | null } = { hash: null };
  const seed = await tierSeed(dir, folder, doc, family, add, generated);
  const tools = family?.world === "tools" ? toolsTier(seed, doc, folder, instruction, toolFile, add) : accountTier(seed, doc, folder, instruction);
  const { worldSeed, entityTypes, entities, taskJson } = tools;
  let seedHash: string | null = null;
  let checked = worldSeed;
  if (worldSeed) {
    const parsed = parseSeed(worldSeed);
    if (!parsed.ok) {
      add("schema", `the tier's seed has ${parsed.issues.length} problem(s): ${parsed.issues.slice(0, 3).map((i) => `${i.path}: ${i.message}`).join("; ")}`);
      checked = null;
    } else seedHash = await sha256Hex(canonicalJson(parsed.seed));
  }
  const allTools = [...new Set([...doc.tools, ...goldTools(doc.gold), ...tools.offered])].sort();
  const offered = family?.world === "tools" ? tools.offered : allTools;
  const effects = tools.effects;
  const writes = doc.gold.filter((s) => isWrite(s, effects));
  const lookalikes: Lookalike[] = tools.records.length ? findLookalikes(tools.records, writes, checks) : [];
  return { tier: { folder, dir, doc, instruction, entityTypes, tools: allTools, offered, effects, lookalikes, entities, checks, source: read.source, worldSeed: checked, seedHash, taskJson, generatedHash: generated.hash }, problems };
}

interface TierWorld {
  worldSeed: Obj | null;
  entityTypes: string[];
  entities: number;
  taskJson: string;
  /** The tools the tier's world offers (tools worlds). */
  offered: string[];
  effects: Record<string, "read" | "write">;
  /** The records a lookalike is drawn from. */
  records: ReturnType<typeof accountRecords>;
}

const ACCOUNT_EFFECTS: Record<string, "read" | "write"> = Object.fromEntries(ACCOUNT_READ_TOOLS.map((n) => [n, "read"]));

function accountTier(seed: Obj | null, doc: TierDocument, folder: string, instruction: string): TierWorld {
  const data = (seed?.data ?? {}) as Record<string, unknown[] | undefined>;
  return {
    worldSeed: seed ? withTicket(seed, doc, instruction) : null,
    entityTypes: Object.entries(data).filter(([, v]) => Array.isArray(v) && v.length > 0).map(([k]) => k),
    entities: Object.values(data).reduce((s, v) => s + (Array.isArray(v) ? v.length : 0), 0),
    taskJson: JSON.stringify(ticketTask(doc, instruction, folder)),
    offered: [],
    effects: ACCOUNT_EFFECTS,
    records: accountRecords(data),
  };
}

function toolsTier(seed: Obj | null, doc: TierDocument, folder: string, instruction: string, toolFile: ToolFileSet | null, add: (rule: FamilyProblem["rule"], m: string) => void): TierWorld {
  const none: TierWorld = { worldSeed: null, entityTypes: [], entities: 0, taskJson: JSON.stringify({ id: folder, request: instruction.trim(), tools: [] }), offered: [], effects: {}, records: [] };
  if (!seed) return none;
  const r = toolsTierBlock.safeParse(seed);
  if (!r.success) return add("schema", `${join(folder, SEED_FILE)}: ${r.error.issues.slice(0, 3).map((i) => `${i.path.join(".") || "(top)"}: ${i.message}`).join("; ")}`), none;
  const block = r.data;
  const facts = toolsTierFacts(block);
  const effects: Record<string, "read" | "write"> = Object.fromEntries((toolFile?.tools ?? []).map((t) => [t.name, t.effect === "read" ? "read" : "write"]));
  const base = { ...none, ...facts, offered: block.tools, effects, records: toolsRecords(block.deliveries) };
  if (!toolFile) return base;
  const problems = toolsTierProblems(block, toolFile, goldTools(doc.gold));
  for (const p of problems) add("schema", p);
  if (problems.length) return base;
  const worldSeed = toolsTierSeed(block, toolFile, folder);
  return { ...base, worldSeed, taskJson: toolsTierTask(worldSeed, folder, instruction) };
}


function seedFileUsed(doc: TierDocument): boolean {
  const s = doc.seed;
  return typeof s === "object" && (("file" in s && s.file === SEED_FILE) || ("generator" in s && s.base === SEED_FILE));
}

async function tierSeed(dir: string, folder: string, doc: TierDocument, family: FamilyDocument | null, add: (rule: FamilyProblem["rule"], m: string) => void, generated: { hash: string | null }): Promise<Obj | null> {
  const s = doc.seed;
  const tools = family?.world === "tools";
  // A tools tier's seed is its block beside tier.yaml; a bundled seed is an account.
  if (typeof s === "string") return tools ? (add("schema", `a tools tier's seed is {file: seed.json} (its block) or a tool-ledger generator over it, not the bundled seed '${s}'`), null) : bundledSeed(s, add);
  if ("file" in s) return seedFile(join(dir, SEED_FILE), add);
  const kind = GENERATOR_WORLD[s.generator as keyof typeof GENERATOR_WORLD];
  if (kind && kind !== (family?.world ?? kind)) return add("generator", `the generator ${s.generator} makes ${kind} worlds; this family's tiers run on ${family?.world} worlds`), null;
  if (tools && s.base !== SEED_FILE) return add("generator", `a tools tier's generator grows the block in seed.json: base: seed.json (got '${s.base}')`), null;
  const base = s.base === SEED_FILE ? seedFile(join(dir, SEED_FILE), add) : bundledSeed(s.base, add);
  if (!base) return null;
  const name = folder.replace(/_/g, "-");
  try {
    // Run twice from fresh copies: a generator that read a clock or shared state would show here.
    const first = generateSeed(s, structuredClone(base), name);
    const second = generateSeed(s, structuredClone(base), name);
    const [a, b] = [await sha256Hex(canonicalJson(first)), await sha256Hex(canonicalJson(second))];
    if (a !== b) add("generator", `the generator ${s.generator} gave two different seeds from one input (${a.slice(0, 12)}, ${b.slice(0, 12)}): it is not reproducible`);
    else {
      generated.hash = a;
      if (a !== s.sha256) add("generator", `the generated seed's sha256 is ${a}, but the tier records ${s.sha256}: the generator or its input changed (record the new hash with worlds family validate --record-hashes once the change is meant)`);
    }
    return first;
  } catch (e) {
    if (e instanceof UnknownGenerator || e instanceof LedgerError) return add("generator", e.message), null;
    throw e;
  }
}

function bundledSeed(name: string, add: (rule: FamilyProblem["rule"], m: string) => void): Obj | null {
  for (const d of [process.env.WORLDS_SEEDS_DIR, join(packageRoot(), "seeds")].filter((x): x is string => !!x)) {
    const p = join(d, `${name}.json`);
    if (existsSync(p)) return seedFile(p, add);
  }
  add("schema", `no bundled seed '${name}' (looked in $WORLDS_SEEDS_DIR and the package's seeds/)`);
  return null;
}

function seedFile(path: string, add: (rule: FamilyProblem["rule"], m: string) => void): Obj | null {
  if (!existsSync(path)) return null;
  if (statSync(path).size > MAX_SEED_FILE) return add("schema", `${path} is larger than ${MAX_SEED_FILE} bytes`), null;
  try {
    const v = JSON.parse(readFileSync(path, "utf8")) as unknown;
    if (!v || typeof v !== "object" || Array.isArray(v)) return add("schema", `${path} is not a seed document (a JSON object)`), null;
    return v as Obj;
  } catch (e) {
    add("schema", `${path} is not valid JSON: ${(e as Error).message}`);
    return null;
  }
}

/** The tier's ticket, alone on the desk, half an hour before the clock (the seed's own tickets are dropped). */
function withTicket(seed: Obj, doc: TierDocument, instruction: string): Obj {
  const data = (seed.data ?? {}) as Obj;
  const t = doc.ticket;
  if (!t) return seed;
  return {
    ...seed,
    data: { ...data, tickets: [{ id: 1, subject: t.subject, description: instruction.trim(), status: "open", priority: "normal", requester: { email: t.requester, ...(t.requester_name ? { name: t.requester_name } : {}) }, external_id: doc.name, created_offset: -1800 }] },
  };
}

function ticketTask(doc: TierDocument, instruction: string, folder: string): Obj {
  const t = doc.ticket;
  return { id: 1, label: folder, subject: t?.subject ?? folder, body: instruction.trim(), requester: { name: t?.requester_name ?? t?.requester ?? "", email: t?.requester ?? "" }, priority: "normal", tags: [] };
}
