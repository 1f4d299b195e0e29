// What a tools run's folder holds, as the card reads it back: run.json (the run's record) and episodes.jsonl (one
// traced episode a line). The folder is written by `worlds tools run`, but it is a file on disk by the time the
// card reads it (copied, edited, cut short), so both are checked here and every problem names the file, the line
// and the field.
import { z } from "zod";
import { TOOLS_VERDICTS } from "../grade";
import { FILE_MAX_DEPTH, describeTreeProblem, findTreeProblem } from "../../../util/safe-tree";

const count = z.number().int().nonnegative();

const DialSchema = z.object({ name: z.string().min(1), level: z.number(), label: z.string().min(1) });

export const RunRecordSchema = z.object({
  version: z.literal(1),
  /** The tool file, relative to the settings file. */
  file: z.string().min(1),
  sha256: z.string().regex(/^[0-9a-f]{64}$/, "must be the tool file's SHA-256 in hex"),
  format: z.string().min(1),
  set: z.object({ name: z.string().min(1), tools: count }),
  /** The settings' digest, and the settings that decide what the tasks are. */
  settings_sha256: z.string().min(1),
  settings: z.record(z.string(), z.unknown()),
  seed: z.number().int(),
  agent: z.string(),
  runs: z.number().int().positive(),
  episodes: z.object({ kept: count, total: count }),
  dollars: z.number().nonnegative().nullable(),
  budget_dollars: z.number().nonnegative().nullable(),
  tasks: z.array(z.object({ id: z.string().min(1), arm: z.string().min(1), dial: DialSchema.nullable(), request: z.string(), intents: z.boolean() })).min(1),
});

export const EpisodeTraceSchema = z.object({
  run: z.number().int().positive(),
  task: z.string().min(1),
  verdict: z.enum(TOOLS_VERDICTS),
  calls: z.array(z.object({ name: z.string(), status: z.number().int(), arguments: z.string(), response: z.string() })),
  reply: z.string(),
});

export type ToolsRunRecord = z.infer<typeof RunRecordSchema>;
export type EpisodeTrace = z.infer<typeof EpisodeTraceSchema>;

/** A run folder that cannot be read as one; the message names the file (and line) and what is wrong. */
export class RunFolderError extends Error {}

const fieldOf = (path: readonly PropertyKey[]) => (path.length ? path.map(String).join(".") : "the top level");

function parseJson(text: string, where: string): unknown {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new RunFolderError(`${where}: not JSON (${(e as Error).message})`);
  }
  const problem = findTreeProblem(data, FILE_MAX_DEPTH);
  if (problem) throw new RunFolderError(`${where}: ${describeTreeProblem(problem)}`);
  return data;
}

function checked<T>(schema: z.ZodType<T>, data: unknown, where: string, what: string): T {
  const r = schema.safeParse(data);
  if (r.success) return r.data;
  const first = r.error.issues[0];
  throw new RunFolderError(`${where}: not ${what}: ${fieldOf(first.path)}: ${first.message}`);
}

export function parseRunRecord(text: string, file: string): ToolsRunRecord {
  return checked(RunRecordSchema, parseJson(text, file), file, "a tools run's record");
}

/** The episodes, each checked on its own line and against the record: a task the run did not have, or a count other than the kept one, is an error. */
export function parseEpisodes(text: string, file: string, record: ToolsRunRecord): EpisodeTrace[] {
  const ids = new Set(record.tasks.map((t) => t.id));
  const out: EpisodeTrace[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].trim()) continue;
    const where = `${file}:${i + 1}`;
    const e = checked(EpisodeTraceSchema, parseJson(lines[i], where), where, "a traced episode");
    if (!ids.has(e.task)) throw new RunFolderError(`${where}: task ${e.task} is not one of the run's tasks (run.json)`);
    if (e.run > record.runs) throw new RunFolderError(`${where}: run ${e.run} is past the run's ${record.runs} repetitions (run.json)`);
    out.push(e);
  }
  if (out.length !== record.episodes.kept) throw new RunFolderError(`${file}: ${out.length} episodes, but run.json says ${record.episodes.kept} were kept`);
  return out;
}
