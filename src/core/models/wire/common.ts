// What both wire formats share: reading a JSON body safely (bounded nesting, no prototype keys) and the
// defaults every request carries.
import { findTreeProblem, describeTreeProblem } from "../../util/safe-tree";

export const DEFAULT_MAX_TOKENS = 1024;
/** Model answers nest a few levels; tool arguments a few more. Anything deeper is not an honest answer. */
const ANSWER_MAX_DEPTH = 48;

export type Decoded<T> = { ok: true; value: T } | { ok: false; message: string };

/** JSON.parse with the tree rule every outside document gets. */
export function parseJson(text: string): Decoded<unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { ok: false, message: `not JSON (${(e as Error).message})` };
  }
  const problem = findTreeProblem(value, ANSWER_MAX_DEPTH);
  if (problem) return { ok: false, message: describeTreeProblem(problem) };
  return { ok: true, value };
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

export function count(v: unknown): number {
  return typeof v === "number" && Number.isFinite(v) && v >= 0 ? Math.round(v) : 0;
}

/** The message in either provider's error envelope ({error: {message}} / {type: "error", error: {message}}). */
export function errorMessage(body: string): string | null {
  const parsed = parseJson(body);
  if (!parsed.ok || !isRecord(parsed.value)) return null;
  const err = parsed.value.error;
  if (isRecord(err) && typeof err.message === "string") return err.message;
  if (typeof err === "string") return err;
  return null;
}
