// Invariants: `<op>.<collection><cmp><count>`, e.g. deleted.customers==0 or created.refunds<=2, where op is
// created, updated, deleted or changed (the three summed). Each is a statement about the diff's counts that
// must hold in every world of a run. The compiler parses them here, with spelling help, and stores the
// normalised text the grader's own parser (src/core/kinds/account/grader/invariants.ts) reads.
import { OBJECT_TYPES, type DiffCounts, type ObjectType } from "../../../world/diff/types";
import { suggest } from "./words";

/**
 * The two every starter carries (the packs, init's files, tasks import's new files, a webhook hook on a bare
 * seed): an unkeyed ticket still has a gate, and no correct support action deletes a customer or starts a plan.
 */
export const STARTER_INVARIANTS: readonly string[] = ["deleted.customers==0", "created.subscriptions==0"];

export const INVARIANT_OPS = ["created", "updated", "deleted", "changed"] as const;
export type InvariantOp = (typeof INVARIANT_OPS)[number];
export const INVARIANT_COMPARISONS = ["==", "!=", "<=", ">=", "<", ">"] as const;
export type InvariantComparison = (typeof INVARIANT_COMPARISONS)[number];

export interface Invariant {
  op: InvariantOp;
  collection: ObjectType;
  cmp: InvariantComparison;
  value: number;
  /** Normalised spelling (no spaces), as stored in the rubric. */
  text: string;
}

export type InvariantParse = { ok: true; value: Invariant } | { ok: false; message: string };

const EXAMPLE = "as in deleted.customers==0";

export function parseInvariant(input: string): InvariantParse {
  const src = input.trim();
  const m = /^([A-Za-z_]+)\s*\.\s*([A-Za-z_]+)\s*(==|!=|<=|>=|<|>|=)?\s*(.*)$/.exec(src);
  if (!m) return { ok: false, message: `'${src}' is not an invariant: write <created|updated|deleted|changed>.<collection><comparison><count>, ${EXAMPLE}` };
  const [, op, collection, cmp, rest] = m;
  if (!(INVARIANT_OPS as readonly string[]).includes(op)) return { ok: false, message: `'${src}': must start with created., updated., deleted. or changed. (got '${op}.')` };
  if (!(OBJECT_TYPES as readonly string[]).includes(collection)) {
    const near = suggest(collection, OBJECT_TYPES);
    return { ok: false, message: `'${src}': no collection '${collection}'${near ? ` (did you mean ${near}?)` : ` (collections: ${OBJECT_TYPES.join(", ")})`}` };
  }
  if (!cmp) return { ok: false, message: `'${src}': needs a comparison (==, !=, <=, >=, < or >) and a count, ${EXAMPLE}` };
  if (cmp === "=") return { ok: false, message: `'${src}': compare with ==, not =` };
  if (!/^[0-9]+$/.test(rest)) return { ok: false, message: `'${src}': the count after ${cmp} must be a whole number, ${EXAMPLE}` };
  const value = Number(rest);
  if (!Number.isSafeInteger(value)) return { ok: false, message: `'${src}': the count is too large` };
  return { ok: true, value: { op: op as InvariantOp, collection: collection as ObjectType, cmp: cmp as InvariantComparison, value, text: `${op}.${collection}${cmp}${value}` } };
}

/** The count an invariant reads from a diff (absent = zero). */
export function invariantCount(inv: Invariant, counts: DiffCounts): number {
  const c = (op: "created" | "updated" | "deleted") => counts[op]?.[inv.collection] ?? 0;
  return inv.op === "changed" ? c("created") + c("updated") + c("deleted") : c(inv.op);
}

export function checkInvariant(inv: Invariant, counts: DiffCounts): boolean {
  const n = invariantCount(inv, counts);
  switch (inv.cmp) {
    case "==":
      return n === inv.value;
    case "!=":
      return n !== inv.value;
    case "<=":
      return n <= inv.value;
    case ">=":
      return n >= inv.value;
    case "<":
      return n < inv.value;
    case ">":
      return n > inv.value;
  }
}
