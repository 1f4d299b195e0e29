// A results document as `worlds compare` reads it: from a file a user names, so every field it uses is checked
// with zod and a problem names the file and the field. Only the fields the comparison needs are required, so a
// document from an older worlds (or one with fields added since) is read the same way.
import { z } from "zod";
import { describeTreeProblem, findTreeProblem, FILE_MAX_DEPTH } from "../util/safe-tree";
import { RESULTS_SCHEMA, STATUSES } from "../results/types";
import type { ResultsLike } from "../results/trials";

const count = z.number().int().nonnegative();
const position = z.number().int().positive();

const world = z.looseObject({
  task: z.string(),
  position,
  world: z.string().nullable(),
  verdict: z.string().nullable(),
  passed: z.boolean().nullable(),
  dollars_wrong_cents: count,
  checks: z.array(z.looseObject({ dollars_wrong_cents: count })),
});

const fullDocument = z.looseObject({
  schema: z.literal(RESULTS_SCHEMA),
  status: z.enum(STATUSES),
  reason: z.string(),
  exit_code: z.number().int(),
  generated_at: z.string().nullable(),
  mode: z.string(),
  currency: z.string().min(1),
  tasks: z.looseObject({
    file: z.string(),
    hashes: z.looseObject({ file: z.string(), seed: z.string(), rubric: z.string() }),
    seed: z.looseObject({ name: z.string(), hash: z.string() }),
    items: z.array(z.looseObject({ id: z.string().min(1), position, subject: z.string(), keyed: z.boolean(), expected: z.string().nullable() })),
  }),
  crash_test: z.looseObject({
    runs: count,
    runs_requested: count,
    tasks: z.array(z.looseObject({ id: z.string().min(1), position, keyed: z.boolean(), trials: count, passed: count, infra_errors: count, flaky: z.boolean() })),
    worst_task: z.looseObject({ id: z.string(), replay: z.string() }).nullable().optional(),
  }),
  runs: z.array(z.looseObject({ index: position, dollars_wrong_cents: count, worlds: z.array(world) })),
});

const earlyDocument = z.looseObject({ schema: z.literal(RESULTS_SCHEMA), status: z.enum(STATUSES), reason: z.string(), exit_code: z.number().int() });

export type ResultsDocument = z.infer<typeof fullDocument> & ResultsLike;

export type ReadResults =
  | { kind: "full"; source: string; doc: ResultsDocument }
  /** A run that stopped before its tasks compiled: a valid document with nothing to compare. */
  | { kind: "early"; source: string; status: string; reason: string };

export class CompareInputError extends Error {
  constructor(
    readonly source: string,
    message: string,
  ) {
    super(`${source}: ${message}`);
  }
}

/** Parses JSON text from `source` (a file name or a run id) into a results document, or throws CompareInputError. */
export function readResultsText(text: string, source: string): ReadResults {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new CompareInputError(source, `not JSON (${(e as Error).message}); expected the results file worlds passk --json-file writes`);
  }
  return readResultsValue(value, source);
}

export function readResultsValue(value: unknown, source: string): ReadResults {
  const problem = findTreeProblem(value, FILE_MAX_DEPTH);
  if (problem) throw new CompareInputError(source, describeTreeProblem(problem));
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new CompareInputError(source, "not a results document (expected a JSON object)");
  // `worlds runs show --json` of a finished run prints the results; a saved GET /admin/runs/:id holds them under results.
  const record = value as Record<string, unknown>;
  const inner = record.schema === undefined && record.results !== undefined && typeof record.progress === "object" ? record.results : value;
  if (inner === null) throw new CompareInputError(source, `the run is not done (status ${String(record.status)}): it has no results yet`);
  const schema = (inner as Record<string, unknown>).schema;
  if (schema !== RESULTS_SCHEMA) throw new CompareInputError(source, `schema: expected "${RESULTS_SCHEMA}", got ${JSON.stringify(schema) ?? "nothing"}; is this a worlds passk results file?`);
  if ((inner as Record<string, unknown>).crash_test === undefined) {
    const early = earlyDocument.safeParse(inner);
    if (!early.success) throw new CompareInputError(source, zodProblem(early.error));
    return { kind: "early", source, status: early.data.status, reason: early.data.reason };
  }
  const full = fullDocument.safeParse(inner);
  if (!full.success) throw new CompareInputError(source, zodProblem(full.error));
  checkConsistent(full.data, source);
  return { kind: "full", source, doc: full.data };
}

/** Facts the schema cannot say: counts that add up, positions that name tasks, one entry per task per run. */
function checkConsistent(doc: z.infer<typeof fullDocument>, source: string): void {
  const positions = new Set<number>();
  doc.crash_test.tasks.forEach((t, i) => {
    const at = `crash_test.tasks.${i}`;
    if (positions.has(t.position)) throw new CompareInputError(source, `${at}.position: task position ${t.position} appears twice`);
    positions.add(t.position);
    if (t.passed + t.infra_errors > t.trials) throw new CompareInputError(source, `${at}: passed (${t.passed}) and infra_errors (${t.infra_errors}) exceed trials (${t.trials})`);
  });
  doc.runs.forEach((run, r) => {
    const seen = new Set<number>();
    run.worlds.forEach((w, i) => {
      const at = `runs.${r}.worlds.${i}.position`;
      if (!positions.has(w.position)) throw new CompareInputError(source, `${at}: no task at position ${w.position} in crash_test.tasks`);
      if (seen.has(w.position)) throw new CompareInputError(source, `${at}: task position ${w.position} appears twice in run ${run.index}`);
      seen.add(w.position);
    });
  });
}

function zodProblem(error: z.ZodError): string {
  const issue = error.issues[0];
  const path = issue.path.map(String).join(".") || "(top level)";
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more problem${error.issues.length === 2 ? "" : "s"})` : "";
  return `${path}: ${issue.message}${more}`;
}
