// Invariants: `<op>.<collection><cmp><count>`, e.g. deleted.customers==0 or created.refunds<=2. Each is a
// statement about the diff's counts that must hold in every world of a run; the grader checks them with
// checkInvariant, the compiler only parses them.
import { OBJECT_TYPES, type DiffCounts, type DiffOp, type ObjectType } from "../diff/types";
import { suggest } from "./words";

export const INVARIANT_OPS = ["created", "updated", "deleted"] as const;
export const INVARIANT_COMPARISONS = ["==", "!=", "<=", ">=", "<", ">"] as const;
export type InvariantComparison = (typeof INVARIANT_COMPARISONS)[number];

export interface Invariant {
  op: DiffOp;
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
  if (!m) return { ok: false, message: `'${src}' is not an invariant: write <created|updated|deleted>.<collection><comparison><count>, ${EXAMPLE}` };
  const [, op, collection, cmp, rest] = m;
  if (!(INVARIANT_OPS as readonly string[]).includes(op)) return { ok: false, message: `'${src}': must start with created., updated. or deleted. (got '${op}.')` };
  if (!(OBJECT_TYPES as readonly string[]).includes(collection)) {
    const near = suggest(collection, OBJECT_TYPES);
    return { ok: false, message: `'${src}': no collection '${collection}'${near ? ` (did you mean ${near}?)` : ` (collections: ${OBJECT_TYPES.join(", ")})`}` };
  }
  if (!cmp) return { ok: false, message: `'${src}': needs a comparison (==, !=, <=, >=, < or >) and a count, ${EXAMPLE}` };
  if (cmp === "=") return { ok: false, message: `'${src}': compare with ==, not =` };
  if (!/^[0-9]+$/.test(rest)) return { ok: false, message: `'${src}': the count after ${cmp} must be a whole number, ${EXAMPLE}` };
  const value = Number(rest);
  if (!Number.isSafeInteger(value)) return { ok: false, message: `'${src}': the count is too large` };
  return { ok: true, value: { op: op as DiffOp, collection: collection as ObjectType, cmp: cmp as InvariantComparison, value, text: `${op}.${collection}${cmp}${value}` } };
}

/** The count an invariant reads from a diff (absent = zero). */
export function invariantCount(inv: Invariant, counts: DiffCounts): number {
  return counts[inv.op]?.[inv.collection] ?? 0;
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
