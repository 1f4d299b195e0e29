// Phase one of every tasks command: bytes -> YAML -> the file's header (seed, identity map, policy), so a caller
// knows what to load before the compiler resolves anything. Problems found here are kept and reported with
// everything the compiler finds later.
import type { Problem } from "./problems";
import { checkTasksText, decodeTasksBytes, parseYamlSource, type YamlSource } from "./source";

export interface TasksFileRead {
  file: string;
  /** The raw bytes' text (BOM removed); null when the bytes are not a text file. */
  text: string | null;
  source: YamlSource | null;
  data: unknown;
  problems: Problem[];
  /** The header fields callers load before compiling, when they are plain text. */
  refs: { seed: string | null; identity_map: string | null; policy: string | null; scenario: string | null };
}

function stringField(data: unknown, key: string): string | null {
  if (!data || typeof data !== "object" || Array.isArray(data)) return null;
  const v = (data as Record<string, unknown>)[key];
  return typeof v === "string" && v.trim() !== "" ? v.trim() : null;
}

export function readTasksFile(input: string | Uint8Array, file: string): TasksFileRead {
  const decoded = typeof input === "string" ? checkTasksText(input, file) : decodeTasksBytes(input, file);
  const empty = { seed: null, identity_map: null, policy: null, scenario: null };
  if (!decoded.ok) return { file, text: null, source: null, data: undefined, problems: decoded.problems, refs: empty };
  const text = decoded.text;
  if (text.trim() === "") {
    return { file, text, source: null, data: undefined, problems: [{ file, line: 1, column: 1, task: null, path: "", message: "the file is empty; a tasks file needs version: 1, seed: and tasks:" }], refs: empty };
  }
  const parsed = parseYamlSource(text, file);
  if (!parsed.ok) return { file, text, source: null, data: undefined, problems: parsed.problems, refs: empty };
  const data = parsed.data;
  return {
    file,
    text,
    source: parsed.source,
    data,
    problems: [],
    refs: { seed: stringField(data, "seed"), identity_map: stringField(data, "identity_map"), policy: stringField(data, "policy"), scenario: stringField(data, "scenario") },
  };
}
