// An export file into flat records: CSV, a JSON array (or {data: [...]}-style wrapper), or JSON lines. The
// format comes from the extension, else from the content. Nested objects flatten to dotted keys
// (source.author.email), so one column vocabulary covers every help desk.
import { describeTreeProblem, dict, FILE_MAX_DEPTH, findTreeProblem, isForbiddenKey } from "../../../core/util/safe-tree";
import { parseJsonText } from "../json";
import { CsvError, parseCsv } from "./csv";

export type Cell = string | number | boolean | null | unknown[];
export type FlatRecord = Record<string, Cell>;

export interface ExportRows {
  format: "csv" | "json" | "jsonl";
  /** Every key in order of first appearance. */
  columns: string[];
  records: FlatRecord[];
  /** Where each record starts (CSV and JSON lines: its line; JSON: its index), for messages. */
  where: string[];
}

export class ExportError extends Error {}

/** Wrappers help desk APIs put lists in, tried in this order. */
const LIST_KEYS = ["data", "tickets", "conversations", "results", "_results", "items", "records"];

/** Records have no prototype, so a column called `constructor` is just a column. Depth is checked before. */
export function flatten(value: Record<string, unknown>, prefix = "", out: FlatRecord = dict()): FlatRecord {
  for (const [k, v] of Object.entries(value)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === "object" && !Array.isArray(v)) flatten(v as Record<string, unknown>, key, out);
    else out[key] = v === undefined ? null : (v as Cell);
  }
  return out;
}

function detect(name: string, text: string): ExportRows["format"] {
  const lower = name.toLowerCase();
  if (lower.endsWith(".csv") || lower.endsWith(".tsv")) return "csv";
  if (lower.endsWith(".jsonl") || lower.endsWith(".ndjson")) return "jsonl";
  if (lower.endsWith(".json")) return "json";
  const first = text.trimStart()[0];
  if (first === "[") return "json";
  if (first === "{") {
    try {
      JSON.parse(text);
      return "json";
    } catch {
      return "jsonl";
    }
  }
  return "csv";
}

function fromObjects(objects: unknown[], where: (i: number) => string, format: ExportRows["format"]): ExportRows {
  const columns: string[] = [];
  const seen = new Set<string>();
  const records: FlatRecord[] = [];
  const places: string[] = [];
  objects.forEach((o, i) => {
    if (!o || typeof o !== "object" || Array.isArray(o)) throw new ExportError(`${where(i)} is not an object (each row must be a JSON object)`);
    const unsafe = findTreeProblem(o, FILE_MAX_DEPTH);
    if (unsafe) throw new ExportError(`${where(i)}: ${describeTreeProblem(unsafe)}`);
    const rec = flatten(o as Record<string, unknown>);
    for (const k of Object.keys(rec)) if (!seen.has(k)) seen.add(k), columns.push(k);
    records.push(rec);
    places.push(where(i));
  });
  return { format, columns, records, where: places };
}

export function readExport(name: string, text: string): ExportRows {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const format = detect(name, body);
  if (format === "csv") {
    let table;
    try {
      table = parseCsv(body, name.toLowerCase().endsWith(".tsv") ? "\t" : undefined);
    } catch (e) {
      if (e instanceof CsvError) throw new ExportError(`CSV: ${e.message}`);
      throw e;
    }
    const bad = table.header.findIndex(isForbiddenKey);
    if (bad >= 0) throw new ExportError(`CSV: column ${bad + 1} is named '${table.header[bad]}', a name every object has built in; rename the column`);
    const records = table.rows.map((row) => {
      const rec: FlatRecord = dict();
      table.header.forEach((h, i) => (rec[h] = row[i]));
      return rec;
    });
    return { format, columns: table.header, records, where: table.lines.map((l) => `line ${l}`) };
  }
  if (format === "jsonl") {
    const objects: unknown[] = [];
    const lineNos: number[] = [];
    body.split(/\r?\n/).forEach((line, i) => {
      if (line.trim() === "") return;
      const parsed = parseJsonText(line);
      if (!parsed.ok) throw new ExportError(`JSON lines: line ${i + 1} is not JSON (${parsed.message.replace("line 1, ", "")})`);
      objects.push(parsed.value);
      lineNos.push(i + 1);
    });
    return fromObjects(objects, (i) => `line ${lineNos[i]}`, format);
  }
  const parsed = parseJsonText(body);
  if (!parsed.ok) throw new ExportError(`not valid JSON: ${parsed.message}`);
  const json = parsed.value;
  let list: unknown = json;
  if (json && typeof json === "object" && !Array.isArray(json)) {
    const key = LIST_KEYS.find((k) => Array.isArray((json as Record<string, unknown>)[k]));
    if (!key) throw new ExportError(`JSON: expected an array of rows or an object holding one under ${LIST_KEYS.join(", ")}`);
    list = (json as Record<string, unknown>)[key];
  }
  if (!Array.isArray(list)) throw new ExportError("JSON: expected an array of rows");
  return fromObjects(list, (i) => `item ${i + 1}`, format);
}
