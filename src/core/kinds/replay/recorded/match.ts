// How a replay world finds the recorded result for a call (docs/replay.md, "Exact and near"). Exact: the same
// arguments as production, byte for byte once keys are sorted. Near: the same question asked in a different
// spelling, or with extra arguments production did not send; never a different question, because answering
// order A-1002 with A-1001's record would invent a fact. The end-state checks compare arguments the same way.
import { canonicalJson } from "../../../util/canonical";
import { dict } from "../../../util/safe-tree";

export type Normal = boolean | number | string | null | Normal[] | { [k: string]: Normal };

/** Task files are bounded at 64 levels where they enter; this is a guard for values that did not come from one. */
const MAX_DEPTH = 64;
const NUMBER_TEXT = /^-?(0|[1-9]\d*)(\.\d+)?$/;

/**
 * A value as the matcher compares it: text folded (Unicode NFKC, trimmed, runs of whitespace as one space, lower
 * case); text that spells a number or a boolean read as one; null, empty text, empty lists and empty objects
 * read as absent (undefined). List order is kept: it can carry meaning.
 */
export function normalValue(v: unknown, depth = 0): Normal | undefined {
  if (depth > MAX_DEPTH) throw new RangeError(`arguments nest deeper than ${MAX_DEPTH} levels`);
  if (v === null || v === undefined) return undefined;
  if (typeof v === "string") {
    const s = v.normalize("NFKC").trim().replace(/\s+/g, " ").toLowerCase();
    if (s === "") return undefined;
    if (NUMBER_TEXT.test(s)) return Number(s);
    if (s === "true" || s === "false") return s === "true";
    return s;
  }
  if (typeof v === "number") return Number.isFinite(v) ? v : String(v);
  if (typeof v === "boolean") return v;
  if (Array.isArray(v)) {
    if (v.length === 0) return undefined;
    return v.map((x) => normalValue(x, depth + 1) ?? null);
  }
  if (typeof v === "object") {
    const out = dict<Normal>();
    for (const k of Object.keys(v as object).sort()) {
      const n = normalValue((v as Record<string, unknown>)[k], depth + 1);
      if (n !== undefined) out[k] = n;
    }
    return Object.keys(out).length ? out : undefined;
  }
  return String(v);
}

/** The top-level arguments, normalised, absent ones dropped. */
export function normalArgs(args: Record<string, unknown>): Record<string, Normal> {
  const n = normalValue(args);
  return n && typeof n === "object" && !Array.isArray(n) ? n : dict<Normal>();
}

const same = (a: Normal, b: Normal) => canonicalJson(a) === canonicalJson(b);

/**
 * The keys of `call` beyond `wanted` when `call` holds every entry of `wanted` (normalised, equal values), or
 * null when it does not. Both are already normalised.
 */
export function extraKeys(call: Record<string, Normal>, wanted: Record<string, Normal>): string[] | null {
  for (const k of Object.keys(wanted)) if (!Object.hasOwn(call, k) || !same(call[k], wanted[k])) return null;
  return Object.keys(call).filter((k) => !Object.hasOwn(wanted, k));
}

/** Whether arguments hold every entry of `wanted`, compared as the matcher compares (an end-state check's rule). */
export function holdsArguments(args: Record<string, unknown>, wanted: Record<string, unknown>): boolean {
  return extraKeys(normalArgs(args), normalArgs(wanted)) !== null;
}

export interface Recorded {
  tool: string;
  arguments: Record<string, unknown>;
}

export type Match =
  | { kind: "exact"; index: number }
  /** `ignored`: the call's arguments the recording did not have (empty when only the spelling differed). */
  | { kind: "near"; index: number; ignored: string[] }
  | { kind: "unrecorded" };

/**
 * The recorded call that answers this one. Exact first (the earliest such recording); then near: a recording of
 * the same tool whose every argument the call holds, after normalisation, with equal values. A recording with no
 * arguments is near only to a call with none after normalisation (its answer is the unfiltered one; a call that
 * narrows it asks something else). Of several near ones the closest ignores the fewest of the call's arguments,
 * then the earliest recorded.
 */
export function matchCall(recorded: readonly Recorded[], tool: string, args: Record<string, unknown>): Match {
  const exact = canonicalJson(args);
  let best: { index: number; ignored: string[] } | null = null;
  const call = normalArgs(args);
  for (let i = 0; i < recorded.length; i++) {
    const r = recorded[i];
    if (r.tool !== tool) continue;
    if (canonicalJson(r.arguments) === exact) return { kind: "exact", index: i };
    const wanted = normalArgs(r.arguments);
    const ignored = extraKeys(call, wanted);
    if (ignored === null) continue;
    if (Object.keys(wanted).length === 0 && ignored.length > 0) continue;
    if (!best || ignored.length < best.ignored.length) best = { index: i, ignored };
  }
  return best ? { kind: "near", ...best } : { kind: "unrecorded" };
}
