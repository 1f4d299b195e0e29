// A tool's answer schema made into one the simulator can draw from. Arguments keep the strict rules (rules.ts):
// an agent's values are checked against them exactly. An answer is only ever drawn, so the shapes real APIs
// answer with are taken as they are: `allOf` merged, the first object branch of `oneOf`/`anyOf`, `nullable`
// and `type: [T, null]` (a value is always drawn), lists and scalars answered inside `{"data": ...}`. Keywords
// a drawn answer cannot break (it holds only declared properties) are dropped; a recursive reference or a part
// nested too deep is left out where it is optional and refuses the tool where it is required.
import type { JsonObjectSchema } from "./definition";
import { isObject } from "./formats/raw";
import { CUT } from "./rules";

/** Levels of objects an answer may nest (the answer object is level 1; a list and its items are one level). */
export const MAX_ANSWER_NESTING = 6;

/** Keywords a drawn answer satisfies whatever they say: it holds declared properties only, each present. */
const DROPPED = ["additionalProperties", "patternProperties", "propertyNames", "unevaluatedProperties", "unevaluatedItems", "dependentRequired", "dependentSchemas", "discriminator", "nullable"];
/** Keywords a drawn answer could break, and the simulator does not draw to. */
const UNDRAWABLE = ["not", "if", "then", "else", "contains", "minProperties", "maxProperties"];

/** `wrapped`: the answer is not an object, so it is served inside `{"data": ...}`. */
export type AnswerShape = { ok: true; schema: JsonObjectSchema | undefined; notes: string[]; wrapped: boolean } | { ok: false; reason: string };

class Unanswerable extends Error {}

interface Walk {
  notes: string[];
  /** Optional parts left out, by why. */
  omitted: { recursive: number; deep: number; emptied: number };
  /** Where a oneOf/anyOf with more than one drawable branch was answered with its first object branch. */
  choices: string[];
}

/** The drawable form of an answer schema (undefined: the tool declares none), or why the tool is refused. */
export function answerSchemaOf(raw: unknown): AnswerShape {
  if (raw === undefined) return { ok: true, schema: undefined, notes: [], wrapped: false };
  const w: Walk = { notes: [], omitted: { recursive: 0, deep: 0, emptied: 0 }, choices: [] };
  try {
    const s = simplify(raw, "", 1, w);
    const isObj = typesOf(s).includes("object");
    const obj: Record<string, unknown> = isObj ? { ...s, type: "object", properties: isObject(s.properties) ? s.properties : {} } : { type: "object", properties: { data: s }, required: ["data"] };
    const notes = [...w.notes];
    if (w.choices.length) notes.push(`oneOf/anyOf at ${w.choices.slice(0, 3).join(", ")}${w.choices.length > 3 ? ` (and ${w.choices.length - 3} more)` : ""}: the first object branch is drawn`);
    if (w.omitted.recursive) notes.push(`${w.omitted.recursive} optional field${w.omitted.recursive === 1 ? " that refers" : "s that refer"} back to its own schema left out`);
    if (w.omitted.emptied) notes.push(`${w.omitted.emptied} list${w.omitted.emptied === 1 ? " whose items refer" : "s whose items refer"} back to their own schema (or nest too deep) answered empty`);
    if (w.omitted.deep) notes.push(`${w.omitted.deep} optional field${w.omitted.deep === 1 ? "" : "s"} nested deeper than ${MAX_ANSWER_NESTING} levels left out`);
    return { ok: true, schema: obj as JsonObjectSchema, notes, wrapped: !isObj };
  } catch (e) {
    if (e instanceof Unanswerable) return { ok: false, reason: e.message };
    throw e;
  }
}

function typesOf(s: Record<string, unknown>): string[] {
  if (typeof s.type === "string") return [s.type];
  if (Array.isArray(s.type)) return s.type.filter((t): t is string => typeof t === "string");
  if (isObject(s.properties)) return ["object"];
  if (isObject(s.items)) return ["array"];
  return [];
}

const where = (path: string) => (path ? ` at ${path}` : "");

function simplify(node: unknown, path: string, level: number, w: Walk): Record<string, unknown> {
  if (!isObject(node)) {
    if (node === true || node === undefined) return {};
    throw new Unanswerable(`its answer schema${where(path)} is not a schema`);
  }
  if (typeof node.$ref === "string")
    throw new Unanswerable(node[CUT] === true ? `its answer nests deeper than ${MAX_ANSWER_NESTING} levels${where(path)}` : `its answer has a recursive reference${where(path)} (${node.$ref})`);
  const merged = mergeAllOf(node, path);
  const kw = Array.isArray(merged.oneOf) ? "oneOf" : Array.isArray(merged.anyOf) ? "anyOf" : null;
  if (kw) return chooseBranch(merged, kw, path, level, w);
  return simplifyOne(merged, path, level, w);
}

/**
 * A oneOf/anyOf answered with one branch: object branches first, then the rest, null last; the first that can
 * be drawn whole wins (an object branch that recurs gives way to an id string beside it).
 */
function chooseBranch(s: Record<string, unknown>, kw: "oneOf" | "anyOf", path: string, level: number, w: Walk): Record<string, unknown> {
  const { [kw]: branches, ...rest } = s;
  const all = (branches as unknown[]).filter(isObject);
  const shallow = (b: Record<string, unknown>) => tryFlatten(b, path);
  const isNull = (b: Record<string, unknown>) => typesOf(shallow(b) ?? {}).join() === "null";
  const objects = all.filter((b) => typeof b.$ref !== "string" && typesOf(shallow(b) ?? {}).includes("object"));
  const order = [...objects, ...all.filter((b) => !objects.includes(b) && !isNull(b)), ...all.filter(isNull)];
  let first: Unanswerable | null = null;
  for (const b of order) {
    const trial: Walk = { notes: [...w.notes], omitted: { ...w.omitted }, choices: [...w.choices] };
    try {
      const out = simplify({ ...rest, ...b }, path, level, trial);
      if (all.filter((x) => !isNull(x)).length > 1) trial.choices.push(path || "the answer");
      Object.assign(w, trial);
      return out;
    } catch (e) {
      if (!(e instanceof Unanswerable)) throw e;
      first ??= e;
    }
  }
  throw first ?? new Unanswerable(`its answer's ${kw}${where(path)} has no branch the simulator can draw`);
}

function simplifyOne(node: Record<string, unknown>, path: string, level: number, w: Walk): Record<string, unknown> {
  let s = node;
  for (const k of UNDRAWABLE) if (Object.hasOwn(s, k)) throw new Unanswerable(`its answer schema uses ${k}${where(path)}, which the simulator does not draw to`);
  const out: Record<string, unknown> = Object.create(null);
  for (const [k, v] of Object.entries(s)) if (!DROPPED.includes(k)) out[k] = v;
  s = out;
  const types = typesOf(s);
  if (Array.isArray(s.type)) {
    const real = types.filter((t) => t !== "null");
    s.type = real.length === 1 ? real[0] : real.length ? real : "null";
  }
  if ((types.includes("object") || types.includes("array")) && level > MAX_ANSWER_NESTING) throw new Unanswerable(`its answer nests deeper than ${MAX_ANSWER_NESTING} levels${where(path)}`);
  if (isObject(s.properties)) {
    const required = new Set(Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === "string") : []);
    const props: Record<string, unknown> = Object.create(null);
    for (const [name, child] of Object.entries(s.properties)) {
      const at = path ? `${path}.${name}` : name;
      try {
        props[name] = simplify(child, at, level + 1, w);
      } catch (e) {
        if (!(e instanceof Unanswerable) || required.has(name)) throw e;
        // An optional field the simulator cannot draw is one an answer may leave out.
        if (/recursive/.test(e.message)) w.omitted.recursive++;
        else if (/deeper/.test(e.message)) w.omitted.deep++;
        else throw e;
      }
    }
    s.properties = props;
    if (required.size) s.required = [...required].filter((r) => Object.hasOwn(props, r));
  }
  if (Array.isArray(s.items) || s.prefixItems !== undefined) throw new Unanswerable(`its answer schema uses tuple items${where(path)}, which the simulator does not draw to`);
  if (s.items !== undefined) {
    try {
      s.items = simplify(s.items, `${path}[]`, level, w);
    } catch (e) {
      // A list of items that refer back to their own schema may be answered empty, when it may be empty.
      if (!(e instanceof Unanswerable) || !/recursive|deeper/.test(e.message) || (typeof s.minItems === "number" && s.minItems > 0)) throw e;
      s.items = {};
      s.maxItems = 0;
      w.omitted.emptied++;
    }
  }
  return s;
}

/** `allOf` merged at this node (a branch's own oneOf/anyOf resolved to one branch before it is merged). */
function mergeAllOf(node: Record<string, unknown>, path: string): Record<string, unknown> {
  let s = node;
  for (let guard = 0; Array.isArray(s.allOf); guard++) {
    if (guard > 64) throw new Unanswerable(`its answer schema${where(path)} nests allOf too deeply`);
    const { allOf, ...rest } = s;
    s = (allOf as unknown[]).reduce<Record<string, unknown>>((acc, branch) => merge(acc, branch, path), rest);
  }
  return s;
}

/** `allOf` merged and `oneOf`/`anyOf` resolved to one branch, at this node only (its children come after). */
function flatten(node: Record<string, unknown>, path: string): Record<string, unknown> {
  let s: Record<string, unknown> = node;
  for (let guard = 0; guard < 64; guard++) {
    if (Array.isArray(s.allOf)) {
      const { allOf, ...rest } = s;
      s = (allOf as unknown[]).reduce<Record<string, unknown>>((acc, branch) => merge(acc, branch, path), rest);
      continue;
    }
    const kw = Array.isArray(s.oneOf) ? "oneOf" : Array.isArray(s.anyOf) ? "anyOf" : null;
    if (!kw) return s;
    const { [kw]: branches, ...rest } = s;
    s = { ...rest, ...pick(branches as unknown[], kw, path) };
  }
  throw new Unanswerable(`its answer schema${where(path)} nests allOf, oneOf and anyOf too deeply`);
}

/** The first branch that is an object (else the first that is not only null); recursive branches are passed over. */
function pick(branches: unknown[], kw: string, path: string): Record<string, unknown> {
  const usable = branches.filter((b): b is Record<string, unknown> => isObject(b) && typeof b.$ref !== "string");
  const objects = usable.filter((b) => {
    const f = tryFlatten(b, path);
    return f !== null && typesOf(f).includes("object");
  });
  const chosen = objects[0] ?? usable.find((b) => {
    const f = tryFlatten(b, path);
    return f !== null && !(typesOf(f).length === 1 && typesOf(f)[0] === "null");
  });
  if (!chosen) throw new Unanswerable(`its answer's ${kw}${where(path)} has no branch the simulator can draw (every one refers back to its own schema or is null)`);
  return chosen;
}

function tryFlatten(b: Record<string, unknown>, path: string): Record<string, unknown> | null {
  try {
    return flatten(b, path);
  } catch (e) {
    if (e instanceof Unanswerable) return null;
    throw e;
  }
}

/** One `allOf` branch into the schema so far: properties and required united; clashing types refuse the tool. */
function merge(acc: Record<string, unknown>, branch: unknown, path: string): Record<string, unknown> {
  if (!isObject(branch)) throw new Unanswerable(`its answer's allOf${where(path)} holds something that is not a schema`);
  if (typeof branch.$ref === "string") throw new Unanswerable(`its answer has a recursive reference${where(path)} (${branch.$ref})`);
  const b = flatten(branch, path);
  const out: Record<string, unknown> = Object.create(null);
  Object.assign(out, b, acc);
  const ta = typesOf(acc);
  const tb = typesOf(b);
  if (ta.length && tb.length) {
    const both = ta.filter((t) => tb.includes(t) || (t === "integer" && tb.includes("number")) || (t === "number" && tb.includes("integer")));
    if (!both.length) throw new Unanswerable(`its answer's allOf${where(path)} asks for ${ta.join(" or ")} in one branch and ${tb.join(" or ")} in another`);
    const narrowed = both.map((t) => (t === "number" && (ta.includes("integer") || tb.includes("integer")) ? "integer" : t));
    out.type = narrowed.length === 1 ? narrowed[0] : [...new Set(narrowed)];
  }
  if (isObject(acc.properties) || isObject(b.properties)) {
    const props: Record<string, unknown> = Object.create(null);
    const pa = isObject(acc.properties) ? acc.properties : {};
    const pb = isObject(b.properties) ? b.properties : {};
    for (const [k, v] of Object.entries(pa)) props[k] = Object.hasOwn(pb, k) ? { allOf: [v, pb[k]] } : v;
    for (const [k, v] of Object.entries(pb)) if (!Object.hasOwn(pa, k)) props[k] = v;
    out.properties = props;
  }
  const req = [...(Array.isArray(acc.required) ? acc.required : []), ...(Array.isArray(b.required) ? b.required : [])].filter((r): r is string => typeof r === "string");
  if (req.length) out.required = [...new Set(req)];
  return out;
}
