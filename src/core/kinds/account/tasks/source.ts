// Turning the bytes of a tasks file into a YAML document that still knows where every value came from, so a
// problem found much later (an ambiguous `on duplicate`) can still be pinned to its line and column.
import { LineCounter, isMap, isScalar, isSeq, parseDocument, type Document, type Node } from "yaml";
import { describeTreeProblem, FILE_MAX_DEPTH, findTreeProblem } from "../../../util/safe-tree";
import type { Problem } from "./problems";

/** A tasks file is a hand-written document; anything this large is a mistake (or an attack), not a file of tasks. */
export const MAX_TASKS_FILE_BYTES = 10 * 1024 * 1024;

export type PathSegment = string | number;

export interface YamlSource {
  file: string;
  text: string;
  doc: Document.Parsed;
  lines: LineCounter;
}

export type Located = { line: number; column: number };

/** `tasks[3].decoys[0]`: the path form problems carry. */
export function pathText(path: ReadonlyArray<PropertyKey>): string {
  let out = "";
  for (const p of path) out += typeof p === "number" ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out;
}

type DecodeResult = { ok: true; text: string } | { ok: false; problems: Problem[] };

function fileProblem(file: string, message: string, at: Located = { line: 1, column: 1 }): Problem {
  return { file, line: at.line, column: at.column, task: null, path: "", message };
}

export function formatSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MiB` : `${Math.ceil(bytes / 1024)} KiB`;
}

export function tooLargeProblem(file: string, bytes: number): Problem {
  return fileProblem(file, `the file is ${formatSize(bytes)}; a tasks file may be at most ${formatSize(MAX_TASKS_FILE_BYTES)}`);
}

/** Line and column (1-based) of a byte offset in UTF-8 bytes. */
function bytePosition(bytes: Uint8Array, offset: number): Located {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset; i++) if (bytes[i] === 0x0a) (line += 1), (start = i + 1);
  // Columns count characters, not bytes: count the lead bytes between the line start and the offset.
  let column = 1;
  for (let i = start; i < offset; i++) if ((bytes[i] & 0xc0) !== 0x80) column += 1;
  return { line, column };
}

/** Offset of the first byte that is not part of well-formed UTF-8, or -1. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    if (b < 0x80) {
      i += 1;
      continue;
    }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) (need = 1), (min = 0x80);
    else if (b >= 0xe0 && b <= 0xef) (need = 2), (min = 0x800);
    else if (b >= 0xf0 && b <= 0xf4) (need = 3), (min = 0x10000);
    else return i;
    let cp = b & (0xff >> (need + 2));
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

/** Bytes to text, refusing what is too large or not UTF-8 text at all (binary files carry NUL bytes). */
export function decodeTasksBytes(bytes: Uint8Array, file: string): DecodeResult {
  if (bytes.byteLength > MAX_TASKS_FILE_BYTES) return { ok: false, problems: [tooLargeProblem(file, bytes.byteLength)] };
  const nul = bytes.indexOf(0);
  if (nul >= 0) return { ok: false, problems: [fileProblem(file, "the file is binary, not text (it holds a NUL byte); a tasks file is UTF-8 YAML", bytePosition(bytes, nul))] };
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    const bad = Math.max(0, firstInvalidUtf8(bytes));
    const hex = (bytes[bad] ?? 0).toString(16).padStart(2, "0");
    return { ok: false, problems: [fileProblem(file, `the file is not UTF-8 text (byte 0x${hex} at offset ${bad}); a tasks file is UTF-8 YAML`, bytePosition(bytes, bad))] };
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return { ok: true, text };
}

/** The same checks for a caller that already holds a string. */
export function checkTasksText(text: string, file: string): DecodeResult {
  return decodeTasksBytes(new TextEncoder().encode(text), file);
}

export type YamlResult = { ok: true; source: YamlSource; data: unknown } | { ok: false; problems: Problem[] };

/** Parses YAML 1.2 (core schema), refusing duplicate keys, several documents and alias bombs. */
export function parseYamlSource(text: string, file: string): YamlResult {
  const lines = new LineCounter();
  let doc: Document.Parsed;
  try {
    doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: true, schema: "core" });
  } catch (e) {
    return { ok: false, problems: [fileProblem(file, `YAML: ${overflowMessage(e) ?? (e as Error).message}`)] };
  }
  if (doc.errors.length) {
    // Only the first: after one syntax error the parser reads the rest of the file out of step, and the dozens
    // of errors it reports after it are echoes of that one, not problems of their own.
    const e = doc.errors[0];
    const at = e.linePos?.[0] ?? { line: 1, col: 1 };
    const message = e.code === "MULTIPLE_DOCS" ? "a second document starts here (---); a tasks file is one YAML document" : (overflowMessage(e) ?? yamlMessage(e.message));
    const later = doc.errors.length - 1;
    const more = later > 0 ? ` (fix this first: the parser stops making sense of the file here, and the ${later} error${later === 1 ? "" : "s"} it reports after it follow from it)` : "";
    return { ok: false, problems: [fileProblem(file, `YAML syntax: ${message}${more}`, { line: at.line, column: at.col })] };
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 50 });
  } catch (e) {
    return { ok: false, problems: [fileProblem(file, `YAML: ${overflowMessage(e) ?? (e as Error).message}`)] };
  }
  const source: YamlSource = { file, text, doc, lines };
  const unsafe = findTreeProblem(data, FILE_MAX_DEPTH);
  if (unsafe) return { ok: false, problems: [fileProblem(file, describeTreeProblem(unsafe), locate(source, unsafe.path, { key: unsafe.kind === "key" }))] };
  return { ok: true, source, data };
}

/** The parser recurses per nesting level; running out of stack means the text nests far too deep to be a tasks file. */
function overflowMessage(e: unknown): string | null {
  const message = e instanceof Error ? e.message : String(e);
  return /maximum call stack/i.test(message) ? `the document nests too deeply (a tasks file nests at most ${FILE_MAX_DEPTH} levels)` : null;
}

/** The yaml package appends " at line L, column C:" and a code excerpt; the position is printed separately. */
function yamlMessage(message: string): string {
  const cut = message.search(/ at line \d+, column \d+/);
  const first = (cut >= 0 ? message.slice(0, cut) : message.split("\n")[0]).trim();
  return first.charAt(0).toLowerCase() + first.slice(1);
}

function nodeAt(doc: Document.Parsed, path: ReadonlyArray<PathSegment>, wantKey: boolean): Node | null {
  let node: unknown = doc.contents;
  let last: Node | null = (doc.contents as Node | null) ?? null;
  for (let i = 0; i < path.length; i++) {
    const seg = path[i];
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(seg));
      if (!pair) return last;
      if (i === path.length - 1 && wantKey) return pair.key as Node;
      const value = pair.value as Node | null;
      if (!value || !value.range) return pair.key as Node;
      node = value;
      last = value;
    } else if (isSeq(node) && typeof seg === "number") {
      const item = node.items[seg] as Node | undefined;
      if (!item) return last;
      node = item;
      last = item;
    } else return last;
  }
  return last;
}

/** Where a path's value (or, with `key`, its key) sits in the file. Falls back to the nearest existing parent. */
export function locate(source: YamlSource, path: ReadonlyArray<PathSegment>, opts: { key?: boolean; offset?: number } = {}): Located {
  const node = nodeAt(source.doc, path, opts.key ?? false);
  if (!node?.range) return { line: 1, column: 1 };
  let start = node.range[0];
  // Point inside a one-line scalar at the token at fault, when the source spells the value verbatim.
  if (opts.offset && isScalar(node) && typeof node.value === "string") {
    const raw = source.text.slice(node.range[0], node.range[1]);
    const value = node.value;
    if (raw === value) start += opts.offset;
    else if ((raw === `"${value}"` || raw === `'${value}'`) && !value.includes("\n")) start += opts.offset + 1;
  }
  const pos = source.lines.linePos(start);
  return { line: pos.line, column: pos.col };
}
