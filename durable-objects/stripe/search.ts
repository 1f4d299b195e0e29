// The search query language subset: field:"v" (exact), field~"sub" (substring), > < >= <= on numbers,
// -clause (negation), metadata["k"]:"v", null, clauses joined by AND or OR (not both, at most 10).
// Results are newest first; the page token is an opaque, deterministic encoding of the offset bound to the query.
import type { StoredObject } from "../store/store";
import { invalidParam } from "./errors";
import type { SearchArgs } from "./params";
import { DEFAULT_LIMIT } from "./list";
import type { SearchField, SearchResult } from "./types";

type Op = ":" | "~" | ">" | "<" | ">=" | "<=";
interface Clause {
  negate: boolean;
  field: string;
  metadataKey: string | null;
  op: Op;
  value: string | number | null;
}

const queryError = (message: string) => invalidParam(message, "query");

export function parseQuery(query: string): { clauses: Clause[]; joiner: "AND" | "OR" } {
  const src = query.trim();
  if (!src) throw queryError("The search query must not be empty.");
  let pos = 0;
  const clauses: Clause[] = [];
  const joiners = new Set<"AND" | "OR">();
  const ws = () => {
    while (pos < src.length && /\s/.test(src[pos])) pos++;
  };
  const fail = (what: string): never => {
    throw queryError(`Invalid search query at position ${pos}: ${what}. Clauses look like email:"jane@example.com", amount>1000 or metadata["key"]:"value".`);
  };
  const quoted = (): string => {
    const q = src[pos];
    pos++;
    let out = "";
    while (pos < src.length && src[pos] !== q) {
      if (src[pos] === "\\" && pos + 1 < src.length) pos++;
      out += src[pos++];
    }
    if (pos >= src.length) fail("unterminated quoted value");
    pos++;
    return out;
  };
  for (;;) {
    ws();
    const negate = src[pos] === "-";
    if (negate) pos++;
    const fm = /^[A-Za-z_][A-Za-z0-9_.]*/.exec(src.slice(pos));
    if (!fm) fail("expected a field name");
    const field = fm![0];
    pos += field.length;
    let metadataKey: string | null = null;
    if (field === "metadata") {
      if (src[pos] !== "[") fail('metadata needs a key, as in metadata["key"]');
      pos++;
      if (src[pos] !== '"' && src[pos] !== "'") fail("metadata keys are quoted");
      metadataKey = quoted();
      if (src[pos] !== "]") fail("expected ]");
      pos++;
    }
    const om = /^(>=|<=|:|~|>|<)/.exec(src.slice(pos));
    if (!om) fail("expected one of : ~ > < >= <=");
    const op = om![1] as Op;
    pos += op.length;
    let value: string | number | null;
    if (src[pos] === '"' || src[pos] === "'") value = quoted();
    else {
      const vm = /^[^\s"')]+/.exec(src.slice(pos));
      if (!vm) fail("expected a value");
      pos += vm![0].length;
      const raw = vm![0];
      value = raw === "null" ? null : /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw;
    }
    clauses.push({ negate, field, metadataKey, op, value });
    ws();
    if (pos >= src.length) break;
    const jm = /^(AND|OR)\s+/.exec(src.slice(pos));
    if (jm) {
      joiners.add(jm[1] as "AND" | "OR");
      pos += jm[0].length;
    } else joiners.add("AND"); // clauses separated by whitespace alone are conjunctive
  }
  if (joiners.size > 1) throw queryError("A search query cannot combine AND and OR; use one of them throughout.");
  if (clauses.length > 10) throw queryError("A search query can have at most 10 clauses.");
  return { clauses, joiner: joiners.has("OR") ? "OR" : "AND" };
}

export function compileQuery(query: string, fields: Record<string, SearchField>, objectName: string): (o: StoredObject) => boolean {
  const { clauses, joiner } = parseQuery(query);
  const tests = clauses.map((c) => compileClause(c, fields, objectName));
  return joiner === "OR" ? (o) => tests.some((t) => t(o)) : (o) => tests.every((t) => t(o));
}

function compileClause(c: Clause, fields: Record<string, SearchField>, objectName: string): (o: StoredObject) => boolean {
  let get: (o: StoredObject) => unknown;
  let kind: SearchField["kind"];
  if (c.metadataKey !== null) {
    const k = c.metadataKey;
    get = (o) => (o.metadata as Record<string, string> | undefined)?.[k] ?? null;
    kind = "token";
  } else {
    const f = fields[c.field];
    if (!f) {
      const names = [...Object.keys(fields), "metadata"].sort().join(", ");
      throw queryError(`Field '${c.field}' is an unsupported search field for ${objectName}. Supported fields: ${names}.`);
    }
    get = f.get ?? ((o) => o[c.field]);
    kind = f.kind;
  }
  if (c.op === "~" && kind !== "string") throw queryError(`The ~ (substring) operator is not supported for '${c.field}'.`);
  if (c.op === "~" && (typeof c.value !== "string" || c.value.length < 3)) throw queryError("Substring matches (~) need a value of at least 3 characters.");
  if ([">", "<", ">=", "<="].includes(c.op) && kind !== "number") throw queryError(`Comparison operators are only supported for numeric fields; '${c.field}' is not numeric.`);
  if (kind === "number" && c.value !== null && typeof c.value !== "number") throw queryError(`'${c.field}' is numeric; '${c.value}' is not a number.`);

  const one = (v: unknown): boolean => {
    if (c.value === null) return v === null || v === undefined || v === "";
    if (v === null || v === undefined) return false;
    switch (c.op) {
      case ":":
        if (kind === "number") return Number(v) === c.value;
        if (kind === "string") return String(v).toLowerCase() === String(c.value).toLowerCase();
        return String(v) === String(c.value);
      case "~":
        return String(v).toLowerCase().includes(String(c.value).toLowerCase());
      case ">":
        return Number(v) > (c.value as number);
      case "<":
        return Number(v) < (c.value as number);
      case ">=":
        return Number(v) >= (c.value as number);
      case "<=":
        return Number(v) <= (c.value as number);
    }
  };
  const test = (o: StoredObject) => {
    const v = get(o);
    return Array.isArray(v) ? v.some(one) : one(v);
  };
  return c.negate ? (o) => !test(o) : test;
}

/** FNV-1a, enough to bind a page token to its query. */
function fnv(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(36);
}

function encodePage(offset: number, query: string): string {
  return `page_${btoa(`${offset}:${fnv(query)}`).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_")}`;
}

function decodePage(token: string, query: string): number {
  const bad = () => invalidParam(`Invalid page token '${token}'. Use the next_page value from the previous search result with the same query.`, "page");
  if (!token.startsWith("page_")) throw bad();
  let text: string;
  try {
    text = atob(token.slice(5).replace(/-/g, "+").replace(/_/g, "/"));
  } catch {
    throw bad();
  }
  const m = /^(\d+):([0-9a-z]+)$/.exec(text);
  if (!m || m[2] !== fnv(query)) throw bad();
  return Number(m[1]);
}

/** Filters newest-first `items` by the query and returns one page. */
export function searchPage(items: StoredObject[], args: SearchArgs, url: string, fields: Record<string, SearchField>, objectName: string): SearchResult {
  const matches = items.filter(compileQuery(args.query, fields, objectName));
  const limit = args.limit ?? DEFAULT_LIMIT;
  const offset = args.page ? decodePage(args.page, args.query) : 0;
  const data = matches.slice(offset, offset + limit);
  const hasMore = offset + limit < matches.length;
  return { object: "search_result", data, has_more: hasMore, url, next_page: hasMore ? encodePage(offset + limit, args.query) : null, total_count: matches.length };
}
