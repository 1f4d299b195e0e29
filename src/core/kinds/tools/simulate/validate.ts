// Checks arguments against a tool's schema exactly, for the subset of JSON Schema the import rules let through
// (no combinators, no schema-valued additionalProperties, three levels at most). Eval-free: the Worker runs it.
import { isObject } from "../formats/raw";
import { matchesFormat } from "./formats";

export interface ArgumentProblem {
  path: string;
  message: string;
}

const typeName = (v: unknown): string => (v === null ? "null" : Array.isArray(v) ? "array" : Number.isInteger(v) ? "integer" : typeof v);

function typeMatches(v: unknown, t: string): boolean {
  const actual = typeName(v);
  if (t === "number") return actual === "number" || actual === "integer";
  return actual === t;
}

export function validateArguments(schema: Record<string, unknown>, value: unknown): ArgumentProblem | null {
  return check(schema, value, "");
}

function check(s: Record<string, unknown>, v: unknown, path: string): ArgumentProblem | null {
  const at = path || "(arguments)";
  const fail = (message: string): ArgumentProblem => ({ path: at, message });
  const types = typeof s.type === "string" ? [s.type] : Array.isArray(s.type) ? (s.type as string[]) : isObject(s.properties) ? ["object"] : [];
  if (types.length && !types.some((t) => typeMatches(v, t))) return fail(`expected ${types.join(" or ")}, got ${typeName(v)}`);
  if (Array.isArray(s.enum) && !s.enum.some((e) => JSON.stringify(e) === JSON.stringify(v))) return fail(`must be one of ${s.enum.map((e) => JSON.stringify(e)).join(", ")}`);
  if (s.const !== undefined && JSON.stringify(s.const) !== JSON.stringify(v)) return fail(`must be ${JSON.stringify(s.const)}`);
  if (typeof v === "string") {
    if (typeof s.minLength === "number" && [...v].length < s.minLength) return fail(`must be at least ${s.minLength} characters`);
    if (typeof s.maxLength === "number" && [...v].length > s.maxLength) return fail(`must be at most ${s.maxLength} characters`);
    if (typeof s.pattern === "string" && !safeRegExp(s.pattern)?.test(v)) return fail(`must match ${s.pattern}`);
    if (typeof s.format === "string" && !matchesFormat(s.format, v)) return fail(`must be a ${s.format}`);
  }
  if (typeof v === "number") {
    if (typeof s.minimum === "number" && v < s.minimum) return fail(`must be >= ${s.minimum}`);
    if (typeof s.maximum === "number" && v > s.maximum) return fail(`must be <= ${s.maximum}`);
    if (typeof s.exclusiveMinimum === "number" && v <= s.exclusiveMinimum) return fail(`must be > ${s.exclusiveMinimum}`);
    if (typeof s.exclusiveMaximum === "number" && v >= s.exclusiveMaximum) return fail(`must be < ${s.exclusiveMaximum}`);
  }
  if (Array.isArray(v)) {
    if (typeof s.minItems === "number" && v.length < s.minItems) return fail(`must hold at least ${s.minItems} items`);
    if (typeof s.maxItems === "number" && v.length > s.maxItems) return fail(`must hold at most ${s.maxItems} items`);
    if (isObject(s.items)) {
      for (let i = 0; i < v.length; i++) {
        const p = check(s.items, v[i], `${path}[${i}]`);
        if (p) return p;
      }
    }
  }
  if (isObject(v)) {
    const props = isObject(s.properties) ? s.properties : {};
    for (const r of Array.isArray(s.required) ? s.required : []) if (typeof r === "string" && !Object.hasOwn(v, r)) return { path: path ? `${path}.${r}` : r, message: "is required" };
    for (const [k, x] of Object.entries(v)) {
      const child = Object.hasOwn(props, k) ? props[k] : undefined;
      if (child === undefined) {
        if (s.additionalProperties === false) return { path: path ? `${path}.${k}` : k, message: "is not a parameter of this tool" };
        continue;
      }
      if (isObject(child)) {
        const p = check(child, x, path ? `${path}.${k}` : k);
        if (p) return p;
      }
    }
  }
  return null;
}

/** A schema's pattern, or null when it is not a valid regular expression (then nothing matches it). */
export function safeRegExp(pattern: string): RegExp | null {
  try {
    return new RegExp(pattern, "u");
  } catch {
    return null;
  }
}
