// Invariants: count assertions over a world's diff, checked in every world of a run. One grammar, one parser:
// the tasks compiler's (src/core/kinds/account/tasks/invariants.ts), which also spells out what is wrong when a rubric
// arrives from elsewhere (the grade endpoint takes inline rubrics). Forms: docs/grading.md.
import type { ObjectType, WorldDiff } from "../../../world/diff/types";
import {
  INVARIANT_COMPARISONS,
  INVARIANT_OPS,
  checkInvariant,
  invariantCount,
  parseInvariant as parseInvariantText,
  type InvariantComparison,
  type InvariantOp,
} from "../tasks/invariants";
import type { InvariantResult } from "./types";

export { INVARIANT_OPS };
export const COMPARATORS = INVARIANT_COMPARISONS;
export type Comparator = InvariantComparison;

export interface Invariant {
  source: string;
  op: InvariantOp;
  type: ObjectType;
  cmp: Comparator;
  value: number;
}

export type InvariantParse = { ok: true; invariant: Invariant } | { ok: false; message: string };

export function parseInvariant(source: string): InvariantParse {
  const parsed = parseInvariantText(source);
  if (!parsed.ok) return parsed;
  const { op, collection, cmp, value } = parsed.value;
  return { ok: true, invariant: { source: source.trim(), op, type: collection, cmp, value } };
}

export function countOf(diff: WorldDiff, op: InvariantOp, type: ObjectType): number {
  return invariantCount({ op, collection: type, cmp: "==", value: 0, text: "" }, diff.counts);
}

/** Checks every invariant in one world. An invariant that does not parse throws: the rubric was not validated. */
export function checkInvariants(sources: readonly string[], diff: WorldDiff): InvariantResult[] {
  return sources.map((source) => {
    const parsed = parseInvariantText(source);
    if (!parsed.ok) throw new InvalidInvariant(parsed.message);
    const actual = invariantCount(parsed.value, diff.counts);
    return { world: diff.world, invariant: source.trim(), actual, ok: checkInvariant(parsed.value, diff.counts) };
  });
}

export class InvalidInvariant extends Error {}
