// Parameter schemas: every route declares what it accepts as a zod schema over the decoded Params, and these
// helpers coerce the strings the form encoding delivers (integers, booleans, arrays, empty-string unsets).
// parseArgs turns zod's issues into the billing API's own validation errors.
import { z } from "zod";
import { bracketPath, invalidParam, missingParam, unknownParam } from "./errors";
import type { StripeError } from "./types";

/** A strict hash: unknown keys are refused, as the real API does. */
export const strict = <T extends z.ZodRawShape>(shape: T) => z.strictObject(shape);

const fail = (ctx: z.RefinementCtx, message: string, code?: string) => {
  ctx.addIssue({ code: "custom", message, params: code ? { stripeCode: code } : undefined });
  return z.NEVER;
};

export const str = () => z.string();

/** A non-empty id-like string. */
export const idStr = () =>
  z.string().transform((v, ctx) => (v === "" ? fail(ctx, "Invalid string: an empty string is not a valid value for this parameter.", "parameter_invalid_empty") : v));

export const int = (opts: { min?: number; max?: number } = {}) =>
  z.string().transform((v, ctx) => {
    if (!/^-?\d+$/.test(v.trim())) return fail(ctx, `Invalid integer: ${v}`, "parameter_invalid_integer");
    const n = Number(v.trim());
    if (!Number.isSafeInteger(n)) return fail(ctx, `Invalid integer: ${v}`, "parameter_invalid_integer");
    if (opts.min !== undefined && n < opts.min) return fail(ctx, `This value must be greater than or equal to ${opts.min}.`);
    if (opts.max !== undefined && n > opts.max) return fail(ctx, `This value must be less than or equal to ${opts.max}.`);
    return n;
  });

/** A decimal number such as a coupon's percent_off (`12.5`). */
export const decimal = (opts: { min?: number; max?: number } = {}) =>
  z.string().transform((v, ctx) => {
    if (!/^-?\d+(\.\d+)?$/.test(v.trim())) return fail(ctx, `Invalid decimal: ${v}`, "parameter_invalid_decimal");
    const n = Number(v.trim());
    if (opts.min !== undefined && n < opts.min) return fail(ctx, `This value must be greater than or equal to ${opts.min}.`);
    if (opts.max !== undefined && n > opts.max) return fail(ctx, `This value must be less than or equal to ${opts.max}.`);
    return n;
  });

/** `True`/`False` too: stripe-python before 12 sent Python's spelling for years, and the real API took it. */
export const bool = () =>
  z.string().transform((v, ctx) => {
    if (v === "true" || v === "True") return true;
    if (v === "false" || v === "False") return false;
    return fail(ctx, `Invalid boolean: ${v}`);
  });

export const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.string().transform((v, ctx) => {
    if ((values as readonly string[]).includes(v)) return v as T[number];
    const list = values.length > 1 ? `${values.slice(0, -1).join(", ")}, or ${values[values.length - 1]}` : values[0];
    return fail(ctx, `Invalid {param}: must be one of ${list}`);
  });

/** `''` means "unset this field" and becomes null; anything else goes through `inner`. */
export const emptyable = <T extends z.ZodType>(inner: T) =>
  z.union([z.literal("").transform(() => null), inner]);

/** Integer-keyed hashes (`items[0][..]`, `expand[]`) and JSON arrays both become arrays, ordered by index. */
export const array = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => {
    if (typeof v === "string") return v === "" ? [] : [v];
    if (v && typeof v === "object" && !Array.isArray(v)) {
      const keys = Object.keys(v);
      if (keys.every((k) => /^\d+$/.test(k))) return keys.sort((a, b) => Number(a) - Number(b)).map((k) => (v as Record<string, unknown>)[k]);
    }
    return v;
  }, z.array(item));

/** metadata: `metadata[k]=v` sets, `metadata[k]=` removes a key, `metadata=` clears all (null). */
export const metadata = () =>
  z.union([
    z.literal("").transform(() => null),
    z.record(z.string(), z.string()).superRefine((m, ctx) => {
      const keys = Object.keys(m);
      if (keys.length > 50) ctx.addIssue({ code: "custom", message: "Invalid metadata: metadata can have up to 50 keys." });
      for (const k of keys) {
        if (k.length > 40) ctx.addIssue({ code: "custom", message: `Invalid metadata: keys can be up to 40 characters long (${k}).`, path: [k] });
        if (m[k].length > 500) ctx.addIssue({ code: "custom", message: `Invalid metadata: values can be up to 500 characters long (${k}).`, path: [k] });
      }
    }),
  ]);
export type MetadataParam = Record<string, string> | null;

/** Applies a metadata parameter to an object's metadata: merge, '' deletes a key, null clears all. */
export function applyMetadata(current: Record<string, string> | undefined, param: MetadataParam | undefined): Record<string, string> {
  if (param === undefined) return { ...(current ?? {}) };
  if (param === null) return {};
  const out = { ...(current ?? {}) };
  for (const [k, v] of Object.entries(param)) {
    if (v === "") delete out[k];
    else out[k] = v;
  }
  return out;
}

/** `created=123` or `created[gte]=..&created[lt]=..`. */
export const range = () =>
  z.union([
    int().transform((n) => ({ gte: n, lte: n })),
    strict({ gt: int().optional(), gte: int().optional(), lt: int().optional(), lte: int().optional() }),
  ]);
export type RangeParam = { gt?: number; gte?: number; lt?: number; lte?: number };

export function inRange(n: unknown, r: RangeParam | undefined): boolean {
  if (!r) return true;
  if (typeof n !== "number") return false;
  return (r.gt === undefined || n > r.gt) && (r.gte === undefined || n >= r.gte) && (r.lt === undefined || n < r.lt) && (r.lte === undefined || n <= r.lte);
}

/** Pagination parameters every list route takes. */
export const listShape = {
  limit: int({ min: 1, max: 100 }).optional(),
  starting_after: z.string().optional(),
  ending_before: z.string().optional(),
};
export type ListArgs = { limit?: number; starting_after?: string; ending_before?: string };

/** Parameters every search route takes. */
export const searchShape = {
  query: z.string(),
  limit: int({ min: 1, max: 100 }).optional(),
  page: z.string().optional(),
};
export type SearchArgs = { query: string; limit?: number; page?: string };

/** Validates decoded params against a route's schema; the first problem becomes the API's validation error. */
export function parseArgs(schema: z.ZodType, params: unknown): unknown {
  const r = schema.safeParse(params, { reportInput: true });
  if (r.success) return r.data;
  throw issueToError(pickIssue(r.error.issues));
}

/** Unknown parameters first (an agent's typo matters most), then missing ones, then the rest in order. */
function pickIssue(issues: z.core.$ZodIssue[]): z.core.$ZodIssue {
  const flat = issues.flatMap((i) => (i.code === "invalid_union" && i.errors.length ? [i, ...i.errors.flat().map((e) => ({ ...e, path: [...i.path, ...e.path] }))] : [i]));
  const unknown = flat.find((i) => i.code === "unrecognized_keys");
  if (unknown) return unknown;
  const missing = flat.find((i) => i.code === "invalid_type" && i.input === undefined);
  if (missing) return missing;
  // Prefer a leaf issue from inside a union (its message is specific) over the union's own summary.
  return flat.find((i) => i.code === "custom") ?? flat.find((i) => i.code !== "invalid_union") ?? issues[0];
}

function issueToError(issue: z.core.$ZodIssue): StripeError {
  const param = bracketPath(issue.path);
  if (issue.code === "unrecognized_keys") return unknownParam(param ? `${param}[${issue.keys[0]}]` : issue.keys[0]);
  if (issue.code === "invalid_type" && issue.input === undefined) return missingParam(param);
  if (issue.code === "custom") {
    const code = (issue.params as { stripeCode?: string } | undefined)?.stripeCode;
    return invalidParam(issue.message.replace("{param}", param), param, code);
  }
  if (issue.code === "invalid_type") {
    const got = typeof issue.input === "object" ? "hash" : "string";
    const want = issue.expected === "object" || issue.expected === "record" ? "hash" : issue.expected === "array" ? "array" : issue.expected;
    return invalidParam(`Invalid ${want} for ${param}: received a ${got}.`, param);
  }
  if (issue.code === "invalid_union") return invalidParam(`Invalid value for ${param}.`, param);
  return invalidParam(`Invalid ${param}: ${issue.message}`, param);
}
