// The tasks compiler: a tasks file and its base seed in, the compiled seed, the rubric and the build record
// out. Pure and runtime-neutral (the CLI and the Worker call the same function); callers load the seed and the
// identity map, the compiler never touches a file system or the network.
import type { RubricDocument } from "../../../rubric/schema";
import { parseSeed, seedHash } from "../../../world/seed/parse";
import type { SeedDocument } from "../../../world/seed/schema";
import { canonicalJson, prettyCanonicalJson, sha256Hex } from "../../../util/canonical";
import { checkIdentityMap, type IdentityMapInput, type IdentityState } from "./identities";
import { parseInvariant } from "./invariants";
import { rawTasks, taskLabel } from "./labels";
import { sortProblems, type Problem } from "./problems";
import { readTasksFile, type TasksFileRead } from "./read";
import { taskEntry, tasksFileHeader, type TaskEntry, type TasksFileHeader } from "./schema";
import { schemaProblems } from "./schema-problems";
import { SeedIndex } from "./seed-index";
import { locate, pathText, type PathSegment, type YamlSource } from "./source";
import { summaryLine } from "./summary";
import type { TaskRewrite } from "./rewrite";
import { compileTask, type CompiledTask, type TaskRecord } from "./task";

/** Tickets are placed this far apart, oldest first, the newest this long before the world clock. */
export const TICKET_SPACING_SECONDS = 30 * 60;

export interface CompileOptions {
  /** Keep the base seed's own tickets ahead of the tasks' (default: drop them). */
  keepSeedTickets?: boolean;
}

export type { IdentityMapInput } from "./identities";

export interface CompileInput {
  /** The tasks file's bytes or text. */
  text: string | Uint8Array;
  /** The name problems are reported under (as the user typed it). */
  fileName: string;
  /** The base seed document (parsed JSON; validated here). */
  seed: unknown;
  /** Set instead of `seed` when the caller could not load it (reported on the file's seed: line; "" = not named). */
  seedError?: string;
  /** What the seed reference resolved to, for messages ("seeds/acme-small.json"). */
  seedLabel?: string;
  identityMap?: IdentityMapInput | null;
  options?: CompileOptions;
  /** A previous readTasksFile of the same text, to avoid parsing twice. */
  read?: TasksFileRead;
  /** Problems only the caller can find (a policy file that does not exist), pinned to a field of the file. */
  fieldProblems?: Array<{ path: PathSegment[]; message: string }>;
}

export interface BuildRecord {
  version: 1;
  file: { name: string; sha256: string };
  base_seed: { name: string; hash: string };
  seed: { name: string; hash: string };
  rubric: { hash: string };
  identity_map: { used: boolean };
  options: { keep_seed_tickets: boolean };
  summary: string;
  tasks: TaskRecord[];
}

export interface CompiledTasks {
  ok: true;
  file: TasksFileHeader & { tasks: TaskEntry[] };
  seed: SeedDocument;
  rubric: RubricDocument;
  build: BuildRecord;
  summary: string;
  hashes: { file: string; base_seed: string; seed: string; rubric: string };
  /** Per task, in file order: the seed's identities `--rewrite` writes back. */
  rewrites: TaskRewrite[];
}

export type CompileResult = CompiledTasks | { ok: false; problems: Problem[] };

function problemAt(source: YamlSource, path: PathSegment[], message: string, task: string | null = null, key = false): Problem {
  const at = locate(source, path, { key });
  return { file: source.file, line: at.line, column: at.column, task, path: pathText(path), message };
}

function baseName(file: string): string {
  const parts = file.split(/[\\/]/);
  return parts[parts.length - 1] || file;
}

/** The plans the claims detector reads in replies: the file's list, else the first word of each recurring price's nickname. */
export function defaultPlanNames(seed: SeedDocument): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const p of seed.data.prices) {
    if (!p.recurring || !p.nickname) continue;
    const word = p.nickname.trim().split(/\s+/)[0];
    if (word && !seen.has(word.toLowerCase())) seen.add(word.toLowerCase()), out.push(word);
  }
  return out;
}

function hasKey(raw: unknown): boolean {
  if (!raw || typeof raw !== "object") return false;
  const e = (raw as Record<string, unknown>).expected;
  return typeof e === "string";
}

function identityState(input: IdentityMapInput | null | undefined, source: YamlSource, seed: SeedDocument, baseHash: string, problems: Problem[]): IdentityState {
  const checked = checkIdentityMap(input, seed, baseHash);
  if (checked.error) problems.push(problemAt(source, ["identity_map"], `identity_map: ${checked.error}`));
  return checked.state;
}

export async function compileTasks(input: CompileInput): Promise<CompileResult> {
  const read = input.read ?? readTasksFile(input.text, input.fileName);
  if (!read.source || read.text === null) return { ok: false, problems: sortProblems(read.problems) };
  const source = read.source;
  const data = read.data;
  const problems: Problem[] = [...read.problems];
  for (const f of input.fieldProblems ?? []) problems.push(problemAt(source, f.path, f.message));

  // The file, then each task on its own, so one bad task does not hide another's problems.
  const header = tasksFileHeader.safeParse(data);
  if (!header.success) problems.push(...schemaProblems(header.error.issues, source, data));
  const raws = rawTasks(data);
  const entries: Array<TaskEntry | null> = raws.map((raw, i) => {
    const r = taskEntry.safeParse(raw);
    if (r.success) return r.data;
    problems.push(...schemaProblems(r.error.issues.map((iss) => ({ ...iss, path: ["tasks", i, ...iss.path] })), source, data));
    return null;
  });
  const labels = raws.map((raw, i) => taskLabel(raw, i));

  // Task ids are references: two tasks cannot share one.
  const firstById = new Map<string, number>();
  entries.forEach((e, i) => {
    if (!e || e.id === undefined) return;
    const id = String(e.id);
    const prev = firstById.get(id);
    if (prev === undefined) return void firstById.set(id, i);
    const line = locate(source, ["tasks", prev, "id"]).line;
    problems.push(problemAt(source, ["tasks", i, "id"], `task ${id}: id ${id} is already used by the task at line ${line}`, id));
  });

  // Invariants are checked in every world; a typo here would silently never fail.
  const invariants: string[] = [];
  if (header.success) {
    (header.data.invariants ?? []).forEach((text, i) => {
      const p = parseInvariant(text);
      if (p.ok) invariants.push(p.value.text);
      else problems.push(problemAt(source, ["invariants", i], `invariants[${i}]: ${p.message}`));
    });
  }

  // A file with no key at all and no invariant cannot fail a run, so it is not a test.
  if (header.success && !raws.some(hasKey) && invariants.length === 0 && (header.data.invariants ?? []).length === 0) {
    problems.push(problemAt(source, ["tasks"], "nothing in this file can fail a run: give at least one task an expected: line, or add an invariant such as deleted.customers==0", null, true));
  }

  // The seed.
  if (input.seedError !== undefined) {
    // An empty message: the file names no seed, which the schema problems already say.
    if (input.seedError) problems.push(problemAt(source, ["seed"], `seed: ${input.seedError}`));
    return { ok: false, problems: sortProblems(problems) };
  }
  const seedParsed = parseSeed(input.seed);
  if (!seedParsed.ok) {
    const shown = seedParsed.issues.slice(0, 5).map((i) => `${i.path}: ${i.message}`).join("; ");
    const more = seedParsed.issues.length > 5 ? ` (and ${seedParsed.issues.length - 5} more)` : "";
    problems.push(problemAt(source, ["seed"], `seed: ${input.seedLabel ?? read.refs.seed ?? "the seed"} is not a valid seed: ${shown}${more}`));
    return { ok: false, problems: sortProblems(problems) };
  }
  const base = seedParsed.seed;
  const baseHash = await seedHash(base);
  const currency = (header.success ? header.data.currency : undefined) ?? base.currency;
  if (currency !== base.currency) problems.push(problemAt(source, ["currency"], `currency ${currency} does not match seed ${base.name}, which is in ${base.currency}`));
  const identities = identityState(input.identityMap, source, base, baseHash, problems);

  // Every task against the seed.
  const ix = new SeedIndex(base);
  const keep = input.options?.keepSeedTickets ?? false;
  const kept = keep ? base.data.tickets : [];
  const firstId = kept.reduce((m, t) => Math.max(m, t.id), 0) + 1;
  const compiled: CompiledTask[] = [];
  entries.forEach((entry, i) => {
    if (!entry) return;
    const r = compileTask({ ix, source, identities, currency }, entry, i, labels[i], firstId + i);
    if (r.ok) compiled.push(r.value);
    else problems.push(...r.problems);
  });

  if (problems.length || !header.success || compiled.length !== raws.length) return { ok: false, problems: sortProblems(problems) };
  const file = { ...header.data, tasks: entries as TaskEntry[] };

  // The compiled seed: the base account, its desk holding the tasks oldest first, thirty minutes apart.
  const n = compiled.length;
  const tickets = compiled.map((c, i) => ({ ...c.seedTicket, created_offset: -TICKET_SPACING_SECONDS * (n - i) }));
  const seed: SeedDocument = { ...base, name: `${base.name}-tasks`, data: { ...base.data, tickets: [...kept, ...tickets] } };
  const check = parseSeed(seed);
  if (!check.ok) {
    const shown = check.issues.slice(0, 3).map((i) => `${i.path}: ${i.message}`).join("; ");
    return { ok: false, problems: [problemAt(source, ["tasks"], `the compiled seed is not valid: ${shown}`, null, true)] };
  }
  const compiledSeedHash = await seedHash(seed);

  const rubric: RubricDocument = {
    version: 1,
    seed: { name: seed.name, hash: compiledSeedHash },
    currency,
    mode: file.mode ?? "isolated",
    invariants,
    budget: file.budget ?? null,
    plan_names: file.plan_names ?? defaultPlanNames(base),
    tickets: compiled.map((c) => c.ticket),
  };
  const rubricHash = await sha256Hex(canonicalJson(rubric));
  const fileHash = await sha256Hex(typeof input.text === "string" ? input.text : input.text);
  const summary = summaryLine(rubric, base.name, n);
  const build: BuildRecord = {
    version: 1,
    file: { name: baseName(input.fileName), sha256: fileHash },
    base_seed: { name: base.name, hash: baseHash },
    seed: { name: seed.name, hash: compiledSeedHash },
    rubric: { hash: rubricHash },
    identity_map: { used: compiled.some((c) => c.record.requester.mapped) },
    options: { keep_seed_tickets: keep },
    summary,
    tasks: compiled.map((c) => c.record),
  };
  return { ok: true, file, seed, rubric, build, summary, hashes: { file: fileHash, base_seed: baseHash, seed: compiledSeedHash, rubric: rubricHash }, rewrites: compiled.map((t) => t.rewrite) };
}

/** The bytes each output is written as: sorted keys, two-space indent, trailing newline. */
export function renderOutputs(result: CompiledTasks): { seed: string; rubric: string; build: string } {
  return { seed: prettyCanonicalJson(result.seed), rubric: prettyCanonicalJson(result.rubric), build: prettyCanonicalJson(result.build) };
}
