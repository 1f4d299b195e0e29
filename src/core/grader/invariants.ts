// Invariants: count assertions over a world's diff, checked in every world of a run. Grammar (docs/grading.md):
//   <op>.<collection> <cmp> <integer>    op: created | updated | deleted | changed (the three summed)
//   cmp: == != <= >= < >                 e.g. created.subscriptions==0, deleted.customers == 0, updated.invoices<=2
import { OBJECT_TYPES, type ObjectType, type WorldDiff } from "../diff/types";
import type { InvariantResult } from "./types";

export const INVARIANT_OPS = ["created", "updated", "deleted", "changed"] as const;
export type InvariantOp = (typeof INVARIANT_OPS)[number];
export const COMPARATORS = ["==", "!=", "<=", ">=", "<", ">"] as const;
export type Comparator = (typeof COMPARATORS)[number];

export interface Invariant {
  source: string;
  op: InvariantOp;
  type: ObjectType;
  cmp: Comparator;
  value: number;
}

export type InvariantParse = { ok: true; invariant: Invariant } | { ok: false; message: string };

const FORM = /^\s*([a-z_]+)\.([a-z_]+)\s*(==|!=|<=|>=|<|>)\s*(\d+)\s*$/;

export function parseInvariant(source: string): InvariantParse {
  const m = FORM.exec(source);
  if (!m)
    return { ok: false, message: `invariant '${source}' must look like <created|updated|deleted|changed>.<collection> <==|!=|<=|>=|<|>> <integer>, e.g. created.subscriptions==0` };
  const [, op, type, cmp, value] = m;
  if (!(INVARIANT_OPS as readonly string[]).includes(op))
    return { ok: false, message: `invariant '${source}': '${op}' must be one of ${INVARIANT_OPS.join(", ")}` };
  if (!(OBJECT_TYPES as readonly string[]).includes(type))
    return { ok: false, message: `invariant '${source}': '${type}' is not a collection; use one of ${OBJECT_TYPES.join(", ")}` };
  return { ok: true, invariant: { source: source.trim(), op: op as InvariantOp, type: type as ObjectType, cmp: cmp as Comparator, value: Number(value) } };
}

export function countOf(diff: WorldDiff, op: InvariantOp, type: ObjectType): number {
  const c = (o: "created" | "updated" | "deleted") => diff.counts[o]?.[type] ?? 0;
  return op === "changed" ? c("created") + c("updated") + c("deleted") : c(op);
}

export function compare(actual: number, cmp: Comparator, value: number): boolean {
  switch (cmp) {
    case "==": return actual === value;
    case "!=": return actual !== value;
    case "<=": return actual <= value;
    case ">=": return actual >= value;
    case "<": return actual < value;
    case ">": return actual > value;
  }
}

/** Checks every invariant in one world. An invariant that does not parse throws: the rubric was not validated. */
export function checkInvariants(sources: readonly string[], diff: WorldDiff): InvariantResult[] {
  return sources.map((source) => {
    const parsed = parseInvariant(source);
    if (!parsed.ok) throw new InvalidInvariant(parsed.message);
    const { op, type, cmp, value } = parsed.invariant;
    const actual = countOf(diff, op, type);
    return { world: diff.world, invariant: parsed.invariant.source, actual, ok: compare(actual, cmp, value) };
  });
}

export class InvalidInvariant extends Error {}
