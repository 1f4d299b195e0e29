// From a run request's `tasks` to a seed and a rubric: a tasks file is compiled with the same compiler the CLI
// runs (seed names resolve to the seeds bundled with this Worker); a compiled pair is checked to belong together.
import { compileTasksFile, formatProblem, type TasksFile } from "../../core/kinds/account/tasks/index";
import { parseSeed, seedHash, zodIssues } from "../../core/world/seed/parse";
import type { SeedDocument } from "../../core/world/seed/schema";
import { rubricDocument, type RubricDocument } from "../../core/rubric/schema";
import { canonicalJson, sha256Hex } from "../../core/util/canonical";
import { BUNDLED_SEEDS } from "../../seeds/bundled";
import type { RunRequest } from "../../core/pipeline/index";

export interface ResolvedTasks {
  seed: SeedDocument;
  rubric: RubricDocument;
  hashes: { file: string; seed: string; rubric: string };
  /** The file's own settings (null for a compiled pair). */
  file: Pick<TasksFile, "runs" | "mode" | "scenario"> | null;
  summary: string | null;
}

export type ResolveOutcome = { ok: true; value: ResolvedTasks } | { ok: false; status: 400 | 404; code: string; message: string; issues?: unknown };

export async function resolveTasks(tasks: NonNullable<RunRequest["tasks"]>, fileName: string): Promise<ResolveOutcome> {
  return typeof tasks === "string" ? compileText(tasks, fileName) : checkPair(tasks.seed, tasks.rubric);
}

async function compileText(text: string, fileName: string): Promise<ResolveOutcome> {
  let unknownSeed: string | null = null;
  const result = await compileTasksFile({
    text,
    fileName,
    loadSeed: async (ref) => {
      const doc = BUNDLED_SEEDS[ref];
      if (doc !== undefined) return { ok: true, document: doc, label: `${ref} (bundled)` };
      if (ref.endsWith(".json")) return { ok: false, message: `the server cannot read the file ${ref}: name a seed it holds (GET /admin/seeds), or send {seed, rubric} compiled by \`worlds tasks build\`` };
      unknownSeed = ref;
      return { ok: false, message: `the server holds no seed named '${ref}' (GET /admin/seeds lists the ones it does)` };
    },
    noIdentityMapHint: "the server does not read identity maps: use the emails the seed knows, or compile with `worlds tasks build` and send {seed, rubric}",
  });
  if (!result.ok) {
    const issues = result.problems.map((p) => ({ file: p.file, line: p.line, column: p.column, task: p.task, path: p.path, message: p.message, text: formatProblem(p) }));
    if (unknownSeed) return { ok: false, status: 404, code: "seed_not_found", message: `The server does not hold the seed '${unknownSeed}'.`, issues };
    return { ok: false, status: 400, code: "invalid_tasks", message: `${fileName} has ${issues.length} problem${issues.length === 1 ? "" : "s"}: ${issues[0]?.text ?? ""}`, issues };
  }
  return {
    ok: true,
    value: {
      seed: result.seed,
      rubric: result.rubric,
      hashes: { file: result.hashes.file, seed: result.hashes.seed, rubric: result.hashes.rubric },
      file: { runs: result.file.runs, mode: result.file.mode, scenario: result.file.scenario },
      summary: result.summary,
    },
  };
}

async function checkPair(seedRef: string | Record<string, unknown>, rawRubric: Record<string, unknown>): Promise<ResolveOutcome> {
  const raw = typeof seedRef === "string" ? BUNDLED_SEEDS[seedRef] : seedRef;
  if (raw === undefined) return { ok: false, status: 404, code: "seed_not_found", message: `No bundled seed named '${String(seedRef)}'. GET /admin/seeds lists them, or send the seed document.` };
  const seed = parseSeed(raw);
  if (!seed.ok) return { ok: false, status: 400, code: "invalid_seed", message: `tasks.seed has ${seed.issues.length} problem(s).`, issues: seed.issues.map((i) => ({ ...i, path: `tasks.seed.${i.path}` })) };
  const rubric = rubricDocument.safeParse(rawRubric);
  if (!rubric.success) return { ok: false, status: 400, code: "invalid_rubric", message: "tasks.rubric does not match the rubric schema.", issues: zodIssues(rubric.error, ["tasks", "rubric"]) };
  const hash = await seedHash(seed.seed);
  if (rubric.data.seed.hash !== hash)
    return { ok: false, status: 400, code: "seed_rubric_mismatch", message: `tasks.rubric was built for seed ${rubric.data.seed.name} (${rubric.data.seed.hash.slice(0, 12)}), but tasks.seed is ${seed.seed.name} (${hash.slice(0, 12)}): send the seed and rubric one build wrote` };
  const rubricHash = await sha256Hex(canonicalJson(rubric.data));
  return { ok: true, value: { seed: seed.seed, rubric: rubric.data, hashes: { file: rubricHash, seed: hash, rubric: rubricHash }, file: null, summary: null } };
}
