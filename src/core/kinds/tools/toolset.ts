// A team's tool file read into the set worlds can simulate: each format's reader, then the shared rules (rename,
// refuse, effects as the file and the team declare them), then the set-level rules. Pure and runtime-neutral.
import { parse as parseYaml } from "yaml";
import { sha256Hex } from "../../util/canonical";
import { describeTreeProblem, FILE_MAX_DEPTH, findTreeProblem } from "../../util/safe-tree";
import type { JsonObjectSchema, ToolDefinition, ToolEffect } from "./definition";
import { looksLikeMcp, readMcp } from "./formats/mcp";
import { looksLikeOpenAi, readOpenAi } from "./formats/openai";
import { looksLikeOpenApi, readOpenApi } from "./formats/openapi";
import { FORMAT_LABEL, isObject, ToolFileError, type RawTool, type ToolFormat } from "./formats/raw";
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

export interface ToolSet {
  name: string;
  format: ToolFormat;
  sha256: string;
  tools: ImportedTool[];
  refused: RefusedTool[];
  /** Tools the file holds, usable or not. */
  total: number;
  /** Why the set as a whole cannot run, or null. */
  setRefusal: string | null;
}

export interface ImportOptions {
  format?: ToolFormat | "auto";
  name: string;
  read?: string[];
  write?: string[];
}

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

const READERS: Record<ToolFormat, (doc: unknown) => RawTool[]> = { openai: readOpenAi, mcp: readMcp, openapi: readOpenApi };

export async function importToolSet(text: string, opts: ImportOptions): Promise<ToolSet> {
  const doc = parseDocument(text);
  const unsafe = findTreeProblem(doc, FILE_MAX_DEPTH);
  if (unsafe) throw new ToolFileError(`the file is refused: ${describeTreeProblem(unsafe)}`);
  const format = !opts.format || opts.format === "auto" ? detectFormat(doc) : opts.format;
  const raw = READERS[format](doc);
  const sha256 = await sha256Hex(text);
  const declared = new Map<string, ToolEffect>();
  for (const n of opts.read ?? []) declared.set(n, "read");
  for (const n of opts.write ?? []) {
    if (declared.get(n) === "read") throw new ToolFileError(`'${n}' is declared both read and write`);
    declared.set(n, "write");
  }

  const tools: ImportedTool[] = [];
  const refused: RefusedTool[] = [];
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
    const problem = schemaRefusal(input, "arguments") ?? (t.outputSchema !== undefined ? schemaRefusal(t.outputSchema, "output") : null);
    if (problem) {
      refuse(problem);
      continue;
    }
    const effect = declared.get(t.name) ?? declared.get(name) ?? t.effect;
    if (declared.has(t.name)) used.add(t.name);
    if (declared.has(name)) used.add(name);
    const inputSchema = input as JsonObjectSchema;
    const freeText = isFreeTextOnly(inputSchema);
    tools.push({
      name,
      ...(name !== t.name ? { title: t.name } : {}),
      description: t.description,
      inputSchema,
      ...(isObject(t.outputSchema) ? { outputSchema: t.outputSchema as JsonObjectSchema } : {}),
      ...errorSchemasOf(t),
      effect,
      checkable: checkableParams(inputSchema),
      target: effect !== "read" && !freeText,
    });
  }
  const unknownNames = [...declared.keys()].filter((n) => !used.has(n) && !refused.some((r) => r.name === n || r.name.endsWith(`(was ${n})`)));
  if (unknownNames.length) throw new ToolFileError(`declared effects name no tool in the file: ${unknownNames.join(", ")} (the file's tools: ${raw.map((t) => t.name).join(", ")})`);

  let setRefusal: string | null = null;
  if (raw.length > MAX_TOOLS) setRefusal = `the file holds ${raw.length} tools; worlds simulates at most ${MAX_TOOLS}`;
  else if (tools.length < MIN_USABLE_TOOLS) setRefusal = `only ${tools.length} usable tool${tools.length === 1 ? "" : "s"} remain${tools.length === 1 ? "s" : ""}; a set needs at least ${MIN_USABLE_TOOLS}`;
  else if (!tools.some((t) => t.target)) setRefusal = "no usable tool can be a task's target (a write, or a tool not known to read, whose arguments are not all free text)";
  return { name: opts.name, format, sha256, tools, refused, total: raw.length, setRefusal };
}

/** `5 tools: 3 read, 0 write, 2 not known (treated as write), 0 refused` */
export function countsLine(set: ToolSet): string {
  const n = (e: ToolEffect) => set.tools.filter((t) => t.effect === e).length;
  return `${set.total} tool${set.total === 1 ? "" : "s"}: ${n("read")} read, ${n("write")} write, ${n("unknown")} not known (treated as write), ${set.refused.length} refused`;
}

export function fileLine(set: ToolSet): string {
  return `file: ${FORMAT_LABEL[set.format]}, sha256 ${set.sha256}`;
}

/** Declared error bodies the simulator can draw exactly; any other falls back to the format's conventional body. */
function errorSchemasOf(t: RawTool): { errorSchemas?: Record<string, JsonObjectSchema> } {
  const out: Record<string, JsonObjectSchema> = Object.create(null);
  for (const [status, s] of Object.entries(t.errorSchemas ?? {})) if (schemaRefusal(s, "output") === null) out[status] = s as JsonObjectSchema;
  return Object.keys(out).length ? { errorSchemas: out } : {};
}
