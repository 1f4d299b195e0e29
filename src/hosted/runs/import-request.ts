// What POST /admin/runs/import takes: a run the CLI drove (worlds passk with a process agent), registered after
// it finished so the server keeps its history beside hosted runs. Runtime-neutral (zod only): the CLI builds
// this body and the Worker validates it.
import { z } from "zod";
import { STATUSES } from "../../core/results/index";

export const IMPORT_RUN_ID = /^run_[A-Za-z0-9]{16}$/;

export const importedEpisode = z.strictObject({
  /** The episode's number in the run (repetition-major, then file order), as hosted runs number theirs. */
  n: z.number().int().positive(),
  repetition: z.number().int().positive(),
  /** The task's ticket id; 0 for a shift episode (the whole desk). */
  position: z.number().int().nonnegative(),
  /** The world it ran in; its trace is archived at traces/<world>.jsonl when the world was destroyed. */
  world: z.string().regex(/^w_[A-Za-z0-9]+$/).nullable(),
  status: z.enum(["done", "infra_error"]),
  note: z.string().max(4000),
  passed: z.number().int().nonnegative(),
  graded: z.number().int().nonnegative(),
  finished_at: z.iso.datetime(),
});
export type ImportedEpisode = z.infer<typeof importedEpisode>;

/** The fields of the results document the server reads; the rest is stored as sent. */
const importedResults = z.looseObject({
  schema: z.literal("worlds.results/1"),
  status: z.enum(STATUSES),
  exit_code: z.number().int().min(0).max(255),
  mode: z.enum(["isolated", "shift"]),
  agent: z.looseObject({ display: z.string() }),
  tasks: z.looseObject({
    file: z.string().min(1),
    hashes: z.looseObject({ file: z.string(), seed: z.string(), rubric: z.string().regex(/^[0-9a-f]{64}$/) }),
    count: z.number().int().nonnegative(),
  }),
  runs: z.array(z.unknown()),
});

export const runImport = z.strictObject({
  /** Minted by the CLI; importing the same id again changes nothing. */
  run_id: z.string().regex(IMPORT_RUN_ID, { message: "must be run_ followed by 16 letters or digits" }),
  runs: z.number().int().min(1).max(100),
  /** The compiled rubric of the whole file: it must hash to results.tasks.hashes.rubric. */
  rubric: z.record(z.string(), z.unknown()),
  /** The --task filter the run was started with (empty = every task). */
  only: z.array(z.string()).default([]),
  concurrency: z.number().int().min(1).max(256),
  timeout_s: z.number().int().min(1).max(86_400),
  results: importedResults,
  episodes: z.array(importedEpisode).max(100_000),
});
export type RunImport = z.input<typeof runImport>;
export type RunImportBody = z.output<typeof runImport>;
