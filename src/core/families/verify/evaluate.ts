// Evaluating verify checks on a world's end: the objects the world holds when the agent is done (its untouched
// objects with the diff laid over them) and the diff itself. A check states what must be true of the end, never
// which calls made it so, so every path to a right end passes. Pure: the same end gives the same results.
import type { DiffEntry, ObjectType, WorldDiff } from "../../world/diff/types";
import { checkInvariant, invariantCount } from "../../kinds/account/tasks/invariants";
import type { Check, Comparison, Filter, ObjectSet, Scalar } from "./grammar";

export type Obj = Record<string, unknown>;
export type Snapshot = Partial<Record<ObjectType, Obj[]>>;

export interface EndState {
  /** Every object of the collections the checks read, as the world ends: untouched ones, changed ones, created ones. */
  objects: Snapshot;
  diff: WorldDiff;
  /** The agent's reply (stdout, or a model's final text); null when it gave none. */
  reply: string | null;
}

export interface CheckResult {
  check: string;
  held: boolean;
  /** What was found, in words: `sum(refunds[charge=ch_X].amount) is 9900 (needs ==24300)`. */
  detail: string;
}

/** The world's end: a snapshot of the untouched world with each diff entry's after laid over (deleted removed). */
export function endState(untouched: Snapshot, diff: WorldDiff, reply: string | null): EndState {
  const byType = new Map<ObjectType, Map<string, Obj>>();
  for (const [type, list] of Object.entries(untouched) as Array<[ObjectType, Obj[]]>) {
    const m = new Map<string, Obj>();
    for (const o of list) m.set(String(o.id), o);
    byType.set(type, m);
  }
  for (const e of diff.entries) {
    const m = byType.get(e.type) ?? new Map<string, Obj>();
    if (e.op === "deleted" || !e.after) m.delete(e.id);
    else m.set(e.id, e.after);
    byType.set(e.type, m);
  }
  const objects: Snapshot = {};
  for (const [type, m] of byType) objects[type] = [...m.values()];
  return { objects, diff, reply };
}

export function evaluateChecks(checks: readonly Check[], end: EndState): CheckResult[] {
  return checks.map((c) => evaluate(c, end));
}

function evaluate(c: Check, end: EndState): CheckResult {
  switch (c.kind) {
    case "invariant": {
      const n = invariantCount(c.invariant, end.diff.counts);
      return { check: c.text, held: checkInvariant(c.invariant, end.diff.counts), detail: `${c.invariant.op}.${c.invariant.collection} is ${n}` };
    }
    case "replied": {
      const posted = end.diff.entries.some((e) => e.type === "ticket_comments" && e.op === "created" && e.after?.public === true);
      const said = (end.reply ?? "").trim() !== "";
      return { check: c.text, held: said || posted, detail: said ? "the agent replied" : posted ? "the agent posted a public comment" : "no reply and no public comment" };
    }
    case "exists": {
      const found = findObject(end, c.collection, c.id) !== null;
      return { check: c.text, held: found === c.present, detail: `${c.collection}.${c.id} ${found ? "exists" : "does not exist"} at the end` };
    }
    case "field": {
      const o = findObject(end, c.collection, c.id);
      if (!o) return { check: c.text, held: false, detail: `${c.collection}.${c.id} does not exist at the end` };
      const v = at(o, c.field);
      return { check: c.text, held: compare(v, c.cmp, c.value), detail: `${c.collection}.${c.id}.${c.field.join(".")} is ${shown(v)}` };
    }
    case "count": {
      const n = members(end, c.set).length;
      return { check: c.text, held: compare(n, c.cmp, c.value), detail: `the count is ${n}` };
    }
    case "sum": {
      const list = members(end, c.set);
      let total = 0;
      for (const o of list) {
        const v = at(o, c.field);
        if (typeof v === "number" && Number.isFinite(v)) total += v;
      }
      return { check: c.text, held: compare(total, c.cmp, c.value), detail: `the sum over ${list.length} object${list.length === 1 ? "" : "s"} is ${total}` };
    }
  }
}

function findObject(end: EndState, collection: ObjectType, id: string): Obj | null {
  return end.objects[collection]?.find((o) => String(o.id) === id) ?? null;
}

function members(end: EndState, set: ObjectSet): Obj[] {
  const list = set.source === "end" ? (end.objects[set.collection] ?? []) : end.diff.entries.filter((e) => e.type === set.collection && inSource(e, set.source)).map(entryObject);
  return list.filter((o) => set.filters.every((f) => matches(o, f)));
}

function inSource(e: DiffEntry, source: ObjectSet["source"]): boolean {
  return source === "changed" || e.op === source;
}

/** A deleted object is judged as it was; every other entry as it ended. */
function entryObject(e: DiffEntry): Obj {
  return (e.op === "deleted" ? e.before : e.after) ?? e.before ?? {};
}

function matches(o: Obj, f: Filter): boolean {
  return compare(at(o, f.field), f.cmp, f.value);
}

/** A field by dotted path; an expanded object compares by its id (a charge's `payment_intent` as id or object). */
function at(o: Obj, path: readonly string[]): unknown {
  let v: unknown = o;
  for (const p of path) {
    if (Array.isArray(v) && /^\d+$/.test(p)) v = v[Number(p)];
    else if (v && typeof v === "object" && Object.hasOwn(v, p)) v = (v as Obj)[p];
    else return undefined;
  }
  if (v && typeof v === "object" && !Array.isArray(v) && typeof (v as Obj).id === "string") return (v as Obj).id;
  return v;
}

function compare(v: unknown, cmp: Comparison, want: Scalar): boolean {
  const got = v === undefined ? null : v;
  if (cmp === "==" || cmp === "!=") {
    const eq = got === want || (typeof got === "number" && typeof want === "string" && String(got) === want) || (typeof got === "string" && typeof want === "number" && got === String(want));
    return cmp === "==" ? eq : !eq;
  }
  if (typeof got !== "number" || typeof want !== "number") return false;
  return cmp === "<" ? got < want : cmp === "<=" ? got <= want : cmp === ">" ? got > want : got >= want;
}

function shown(v: unknown): string {
  return v === undefined ? "absent" : JSON.stringify(v);
}
