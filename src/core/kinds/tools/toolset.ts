// A team's tool file read into the set worlds can simulate: each format's reader, then the shared rules (rename,
// refuse, effects as the file and the team declare them), then the set-level rules. Pure and runtime-neutral.
import { parse as parseYaml } from "yaml";
import { canonicalJson, sha256Hex } from "../../util/canonical";
import { describeTreeProblem, FILE_MAX_DEPTH, findTreeProblem } from "../../util/safe-tree";
import type { JsonObjectSchema, ToolDefinition, ToolEffect } from "./definition";
import { looksLikeMcp, readMcp } from "./formats/mcp";
import { looksLikeOpenAi, readOpenAi } from "./formats/openai";
import { answerSchemaOf } from "./answer-schema";
import { countOperations, looksLikeOpenApi, readOpenApi } from "./formats/openapi";
import { FORMAT_LABEL, ToolFileError, type RawTool, type ToolFormat } from "./formats/raw";
import { selector, type Selection } from "./formats/select";
import { checkableParams, isFreeTextOnly, NAME_RULE, renameTool, schemaRefusal } from "./rules";

export { ToolFileError, FORMAT_LABEL, type ToolFormat };

export const MIN_USABLE_TOOLS = 2;
export const MAX_TOOLS = 256;

export interface ImportedTool extends ToolDefinition {
  /** Arguments a task can state and check exactly. */
  checkable: string[];
  /** Whether a task may require a call to it (a write with something checkable). */
  target: boolean;
}

export interface RefusedTool {
  name: string;
  reason: string;
}

/** Something worth a line about a usable tool: how its answer is drawn, which rule decided its effect. */
export interface ToolNote {
  name: string;
  note: string;
}

export interface ToolSet {
  name: string;
  format: ToolFormat;
  /** What every task id and draw is keyed by: the file's bytes, and the selection when there is one. */
  sha256: string;
  /** The file's own digest (what `sha256sum` prints). */
  fileSha256: string;
  /** The --own-include/--own-exclude filters, when any chose part of the file. */
  selection: Selection | null;
  /** Tools (operations) the file holds before any selection. */
  held: number;
  tools: ImportedTool[];
  refused: RefusedTool[];
  /** Tools chosen from the file, usable or not. */
  total: number;
  /** For each usable tool, the rule that decided its effect (`HTTP method GET`, `declared read`). */
  effectRules: ToolNote[];
  /** How answers are drawn where the schema had to be read generously (oneOf branches, fields left out). */
  answerNotes: ToolNote[];
  /** Why the set as a whole cannot run, or null. */
  setRefusal: string | null;
}

export interface ImportOptions {
  format?: ToolFormat | "auto";
  name: string;
  read?: string[];
  write?: string[];
  include?: string[];
  exclude?: string[];
}

/** The largest tool file read: a tool list or an API description, never a data dump. */
export const MAX_FILE_CHARS = 16 * 1024 * 1024;

function parseDocument(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    try {
      return parseYaml(text, { maxAliasCount: 50 }) as unknown;
    } catch (e) {
      throw new ToolFileError(`the file is neither JSON nor YAML (${(e as Error).message.split("\n")[0]})`);
    }
  }
}

export function detectFormat(doc: unknown): ToolFormat {
  if (looksLikeOpenApi(doc)) return "openapi";
  if (looksLikeMcp(doc)) return "mcp";
  if (looksLikeOpenAi(doc)) return "openai";
  throw new ToolFileError(`the file is none of the three formats worlds reads: ${Object.values(FORMAT_LABEL).join(", ")} (name one with --own-format if it is one)`);
}

/** The tools a format's reader finds, the selection applied (by name; an OpenAPI reader also by path, tag, method). */
function readChosen(format: ToolFormat, doc: unknown, selection: Selection): RawTool[] {
  if (format === "openapi") return readOpenApi(doc, selection);
  const pick = selector(selection, false);
  const chosen = (format === "mcp" ? readMcp(doc) : readOpenAi(doc)).filter((t) => pick.chosen({ names: [t.name, t.name.replace(/[^A-Za-z0-9_-]/g, "_")] }));
  const unused = pick.unused();
  if (unused.length) throw new ToolFileError(`${unused.join(", ")} chose no tool in the file (filters are globs on a tool's name)`);
  return chosen;
}

export async function importToolSet(text: string, opts: ImportOptions): Promise<ToolSet> {
  if (text.length > MAX_FILE_CHARS) throw new ToolFileError(`the file is ${(text.length / 1048576).toFixed(1)} MiB; a tool file holds at most ${MAX_FILE_CHARS / 1048576} MiB`);
  const doc = parseDocument(text);
  const unsafe = findTreeProblem(doc, FILE_MAX_DEPTH);
  if (unsafe) throw new ToolFileError(`the file is refused: ${describeTreeProblem(unsafe)}`);
  const format = !opts.format || opts.format === "auto" ? detectFormat(doc) : opts.format;
  const selection: Selection = { include: opts.include ?? [], exclude: opts.exclude ?? [] };
  const selected = selection.include.length + selection.exclude.length > 0;
  const held = format === "openapi" ? countOperations(doc) : null;
  // Past the limit nothing is read tool by tool: one line says so, and names the way to choose.
  if (held !== null && held > MAX_TOOLS && !selected) return overLimit(opts.name, format, await sha256Hex(text), held);
  const raw = readChosen(format, doc, selection);
  const fileSha256 = await sha256Hex(text);
  const sha256 = selected ? await sha256Hex(`${fileSha256}:select:${canonicalJson(selection)}`) : fileSha256;
  const base = { name: opts.name, format, sha256, fileSha256, selection: selected ? selection : null, held: held ?? raw.length };
  if (raw.length > MAX_TOOLS) return { ...base, tools: [], refused: [], total: raw.length, effectRules: [], answerNotes: [], setRefusal: tooMany(raw.length, selected) };
  const declared = new Map<string, ToolEffect>();
  for (const n of opts.read ?? []) declared.set(n, "read");
  for (const n of opts.write ?? []) {
    if (declared.get(n) === "read") throw new ToolFileError(`'${n}' is declared both read and write`);
    declared.set(n, "write");
  }

  const tools: ImportedTool[] = [];
  const refused: RefusedTool[] = [];
  const effectRules: ToolNote[] = [];
  const answerNotes: ToolNote[] = [];
  const seen = new Set<string>();
  const used = new Set<string>();
  for (const t of raw) {
    const name = renameTool(t.name, await sha256Hex(t.name));
    const shown = name === t.name ? name : `${name} (was ${t.name})`;
    const refuse = (reason: string) => refused.push({ name: shown, reason });
    if (!NAME_RULE.test(name)) {
      refuse("its name is empty");
      continue;
    }
    if (seen.has(name)) {
      refuse(`its name repeats another tool's (${name})`);
      continue;
    }
    seen.add(name);
    if (t.refusal) {
      refuse(t.refusal);
      continue;
    }
    const input = t.inputSchema === undefined ? { type: "object", properties: {} } : t.inputSchema;
    const problem = schemaRefusal(input);
    if (problem) {
      refuse(problem);
      continue;
    }
    const answer = answerSchemaOf(t.outputSchema);
    if (!answer.ok) {
      refuse(answer.reason);
      continue;
    }
    for (const note of answer.notes) answerNotes.push({ name, note });
    const declaredEffect = declared.get(t.name) ?? declared.get(name);
    const effect = declaredEffect ?? t.effect;
    effectRules.push({ name, note: declaredEffect ? `declared ${declaredEffect}` : t.effectRule });
    if (declared.has(t.name)) used.add(t.name);
    if (declared.has(name)) used.add(name);
    const inputSchema = input as JsonObjectSchema;
    const freeText = isFreeTextOnly(inputSchema);
    tools.push({
      name,
      ...(name !== t.name ? { title: t.name } : {}),
      description: t.description,
      inputSchema,
      ...(answer.schema ? { outputSchema: answer.schema } : {}),
      ...errorSchemasOf(t),
      effect,
      checkable: checkableParams(inputSchema),
      target: effect !== "read" && !freeText,
    });
  }
  const unknownNames = [...declared.keys()].filter((n) => !used.has(n) && !refused.some((r) => r.name === n || r.name.endsWith(`(was ${n})`)));
  if (unknownNames.length) throw new ToolFileError(`declared effects name no ${selected ? "chosen " : ""}tool in the file: ${unknownNames.join(", ")} (the ${selected ? "chosen" : "file's"} tools: ${raw.map((t) => t.name).join(", ")})`);

  let setRefusal: string | null = null;
  if (tools.length < MIN_USABLE_TOOLS) setRefusal = `only ${tools.length} usable tool${tools.length === 1 ? "" : "s"} remain${tools.length === 1 ? "s" : ""}; a set needs at least ${MIN_USABLE_TOOLS}`;
  else if (!tools.some((t) => t.target)) setRefusal = "no usable tool can be a task's target (a write, or a tool not known to read, whose arguments are not all free text)";
  return { ...base, tools, refused, total: raw.length, effectRules, answerNotes, setRefusal };
}

function tooMany(n: number, selected: boolean): string {
  return `${selected ? "the selection chooses" : "the file holds"} ${n} tools; worlds simulates at most ${MAX_TOOLS}: choose the ones you need with --own-include (an operationId or name glob, tag:NAME, path:/v1/x*, GET/POST...) and --own-exclude`;
}

function overLimit(name: string, format: ToolFormat, sha256: string, held: number): ToolSet {
  return { name, format, sha256, fileSha256: sha256, selection: null, held, tools: [], refused: [], total: held, effectRules: [], answerNotes: [], setRefusal: tooMany(held, false) };
}

/** `5 tools: 3 read, 0 write, 2 not known (treated as write), 0 refused` */
export function countsLine(set: ToolSet): string {
  const n = (e: ToolEffect) => set.tools.filter((t) => t.effect === e).length;
  return `${set.total} tool${set.total === 1 ? "" : "s"}: ${n("read")} read, ${n("write")} write, ${n("unknown")} not known (treated as write), ${set.refused.length} refused`;
}

export function fileLine(set: ToolSet): string {
  const file = `file: ${FORMAT_LABEL[set.format]}, sha256 ${set.fileSha256}`;
  if (!set.selection) return file;
  const filters = [...set.selection.include.map((f) => `--own-include '${f}'`), ...set.selection.exclude.map((f) => `--own-exclude '${f}'`)].join(" ");
  return `${file}; ${set.total} of its ${set.held} tools chosen by ${filters} (digest with the selection ${set.sha256})`;
}

/** Declared error bodies the simulator can draw (objects); any other falls back to the format's conventional body. */
function errorSchemasOf(t: RawTool): { errorSchemas?: Record<string, JsonObjectSchema> } {
  const out: Record<string, JsonObjectSchema> = Object.create(null);
  for (const [status, s] of Object.entries(t.errorSchemas ?? {})) {
    const a = answerSchemaOf(s);
    if (a.ok && a.schema && !a.wrapped) out[status] = a.schema;
  }
  return Object.keys(out).length ? { errorSchemas: out } : {};
}
