// The verify grammar: one line per check on a world's end state. It is the tasks file's invariant grammar
// (`deleted.customers==0`, counted over the diff) extended with object predicates: a field of one object, an
// object that must or must not exist, a count or a sum over a filtered collection, and whether the agent replied.
// Lines are data: they are parsed here and evaluated by evaluate.ts, never executed. Reference: docs/families.md.
import { OBJECT_TYPES, type ObjectType } from "../../world/diff/types";
import { INVARIANT_OPS, parseInvariant, type Invariant } from "../../kinds/account/tasks/invariants";
import { suggest } from "../../kinds/account/tasks/words";

export const VERIFY_COMPARISONS = ["==", "!=", "<=", ">=", "<", ">"] as const;
export type Comparison = (typeof VERIFY_COMPARISONS)[number];
export type Scalar = string | number | boolean | null;

/** Where a set of objects comes from: the world's end (`end`) or the diff's entries of one op. */
export type SetSource = "end" | "created" | "updated" | "deleted" | "changed";

export interface Filter {
  field: string[];
  cmp: Comparison;
  value: Scalar;
}

export interface ObjectSet {
  source: SetSource;
  collection: ObjectType;
  filters: Filter[];
}

export type Check =
  | { kind: "invariant"; text: string; invariant: Invariant }
  | { kind: "field"; text: string; collection: ObjectType; id: string; field: string[]; cmp: Comparison; value: Scalar }
  | { kind: "exists"; text: string; collection: ObjectType; id: string; present: boolean }
  | { kind: "count"; text: string; set: ObjectSet; cmp: Comparison; value: number }
  | { kind: "sum"; text: string; set: ObjectSet; field: string[]; cmp: Comparison; value: number }
  | { kind: "replied"; text: string };

export type CheckParse = { ok: true; check: Check } | { ok: false; message: string; column: number };

/** Most filters one set may carry and longest field path: bounds on what a line makes the evaluator do. */
const MAX_FILTERS = 8;
const MAX_PATH = 8;
const MAX_LINE = 500;

class Fail extends Error {
  constructor(
    message: string,
    readonly column: number,
  ) {
    super(message);
  }
}

/** A tiny cursor over one line: every error carries the 1-based column it points at. */
class Cursor {
  i = 0;
  constructor(readonly s: string) {}
  ws(): void {
    while (this.i < this.s.length && /\s/.test(this.s[this.i])) this.i++;
  }
  done(): boolean {
    this.ws();
    return this.i >= this.s.length;
  }
  peek(t: string): boolean {
    this.ws();
    return this.s.startsWith(t, this.i);
  }
  eat(t: string): boolean {
    if (!this.peek(t)) return false;
    this.i += t.length;
    return true;
  }
  expect(t: string, what: string): void {
    if (!this.eat(t)) throw this.fail(`expected ${what}`);
  }
  fail(message: string): Fail {
    const at = this.s.slice(this.i, this.i + 12);
    return new Fail(at ? `${message} at '${at}'` : `${message} at the end of the line`, this.i + 1);
  }
  word(re = /^[A-Za-z0-9_@$-]+/): string | null {
    this.ws();
    const m = re.exec(this.s.slice(this.i));
    if (!m) return null;
    this.i += m[0].length;
    return m[0];
  }
}

export function parseCheck(input: string): CheckParse {
  const text = input.trim();
  if (!text) return { ok: false, message: "a check must not be empty", column: 1 };
  if (text.length > MAX_LINE) return { ok: false, message: `a check is at most ${MAX_LINE} characters`, column: 1 };
  try {
    return { ok: true, check: parse(text) };
  } catch (e) {
    if (e instanceof Fail) return { ok: false, message: e.message, column: e.column };
    throw e;
  }
}

function parse(text: string): Check {
  if (text === "replied") return { kind: "replied", text };
  const c = new Cursor(text);
  const head = c.word(/^[A-Za-z_]+/);
  if (head === "count" || head === "sum") {
    if (!c.peek("(")) throw c.fail(`expected '(' after ${head}`);
    return aggregate(c, head);
  }
  if (head !== null && (INVARIANT_OPS as readonly string[]).includes(head)) {
    const inv = parseInvariant(text);
    if (!inv.ok) throw new Fail(inv.message, 1);
    return { kind: "invariant", text: inv.value.text, invariant: inv.value };
  }
  const collection = collectionName(c, head, 1);
  c.expect(".", "'.' and an object id after the collection");
  const id = c.word(/^[A-Za-z0-9_-]+/);
  if (!id) throw c.fail("expected an object id");
  if (c.peek("exists") || c.peek("absent")) {
    const present = c.eat("exists") || !c.eat("absent");
    if (!c.done()) throw c.fail("nothing may follow exists/absent");
    return { kind: "exists", text: `${collection}.${id} ${present ? "exists" : "absent"}`, collection, id, present };
  }
  c.expect(".", "'.' and a field, or exists/absent, after the object id");
  const field = path(c);
  const cmp = comparison(c);
  const value = scalar(c);
  if (!c.done()) throw c.fail("unexpected text after the value");
  return { kind: "field", text: `${collection}.${id}.${field.join(".")}${cmp}${show(value)}`, collection, id, field, cmp, value };
}

function aggregate(c: Cursor, fn: "count" | "sum"): Check {
  c.expect("(", "'('");
  const set = objectSet(c);
  let field: string[] = [];
  if (fn === "sum") {
    c.expect(".", "'.' and the field to add up (sum(refunds[charge=ch_X].amount))");
    field = path(c);
  }
  c.expect(")", "')'");
  const cmp = comparison(c);
  const value = scalar(c);
  if (typeof value !== "number") throw c.fail(`${fn}(...) compares with a number`);
  if (!c.done()) throw c.fail("unexpected text after the value");
  const shown = `${fn}(${showSet(set)}${fn === "sum" ? `.${field.join(".")}` : ""})${cmp}${value}`;
  return fn === "count" ? { kind: "count", text: shown, set, cmp, value } : { kind: "sum", text: shown, set, field, cmp, value };
}

function objectSet(c: Cursor): ObjectSet {
  const start = c.i;
  let first = c.word(/^[A-Za-z_]+/);
  let source: SetSource = "end";
  if (first !== null && (INVARIANT_OPS as readonly string[]).includes(first)) {
    source = first as SetSource;
    c.expect(".", `'.' and a collection after ${first}`);
    first = c.word(/^[A-Za-z_]+/);
  }
  const collection = collectionName(c, first, start + 1);
  const filters: Filter[] = [];
  if (c.eat("[")) {
    do {
      if (filters.length >= MAX_FILTERS) throw c.fail(`at most ${MAX_FILTERS} filters`);
      const field = path(c);
      const cmp = comparison(c, true);
      filters.push({ field, cmp, value: scalar(c) });
    } while (c.eat(","));
    c.expect("]", "']' closing the filters");
  }
  return { source, collection, filters };
}

function collectionName(c: Cursor, word: string | null, column: number): ObjectType {
  if (word === null) throw c.fail("expected a collection, count(...), sum(...), an invariant or replied");
  if ((OBJECT_TYPES as readonly string[]).includes(word)) return word as ObjectType;
  const near = suggest(word, OBJECT_TYPES);
  throw new Fail(`no collection '${word}'${near ? ` (did you mean ${near}?)` : ` (collections: ${OBJECT_TYPES.join(", ")})`}`, column);
}

function path(c: Cursor): string[] {
  const parts: string[] = [];
  do {
    c.ws();
    const start = c.i;
    const p = c.word(/^[A-Za-z0-9_]+/);
    if (!p) throw c.fail("expected a field name");
    if (p === "__proto__" || p === "constructor" || p === "prototype") throw new Fail(`'${p}' is not a field`, start + 1);
    parts.push(p);
    if (parts.length > MAX_PATH) throw c.fail(`a field path has at most ${MAX_PATH} parts`);
    // A dot followed by a field continues the path; `).` and `].` belong to the caller.
  } while (/^\.[A-Za-z0-9_]/.test(c.s.slice(c.i)) && c.eat("."));
  return parts;
}

/** Inside [filters] a single `=` reads as `==` (charge=ch_X); a check's own comparison must be written `==`. */
function comparison(c: Cursor, filter = false): Comparison {
  for (const op of VERIFY_COMPARISONS) if (c.eat(op)) return op;
  if (filter && c.eat("=")) return "==";
  if (c.peek("=")) throw c.fail("compare with ==, not =");
  throw c.fail("expected a comparison (==, !=, <=, >=, < or >)");
}

function scalar(c: Cursor): Scalar {
  c.ws();
  if (c.s[c.i] === '"') {
    let out = "";
    let j = c.i + 1;
    for (; j < c.s.length && c.s[j] !== '"'; j++) {
      if (c.s[j] === "\\" && j + 1 < c.s.length) j++;
      out += c.s[j];
    }
    if (j >= c.s.length) throw c.fail("a quoted value needs its closing quote");
    c.i = j + 1;
    return out;
  }
  const w = c.word(/^-?[A-Za-z0-9_.@+:-]+/);
  if (w === null) throw c.fail("expected a value (a number, true, false, null, a word or a quoted text)");
  if (w === "true") return true;
  if (w === "false") return false;
  if (w === "null") return null;
  if (/^-?\d+(\.\d+)?$/.test(w)) return Number(w);
  return w;
}

function show(v: Scalar): string {
  return typeof v === "string" && !/^[A-Za-z0-9_.@+:-]+$/.test(v) ? JSON.stringify(v) : String(v);
}

export function showSet(s: ObjectSet): string {
  const head = s.source === "end" ? s.collection : `${s.source}.${s.collection}`;
  return s.filters.length ? `${head}[${s.filters.map((f) => `${f.field.join(".")}${f.cmp}${show(f.value)}`).join(",")}]` : head;
}

/** The collections a check reads from the world's end (the diff alone answers invariants and op sets). */
export function collectionsRead(check: Check): ObjectType[] {
  switch (check.kind) {
    case "field":
    case "exists":
      return [check.collection];
    case "count":
    case "sum":
      return check.set.source === "end" ? [check.set.collection] : [];
    default:
      return [];
  }
}
