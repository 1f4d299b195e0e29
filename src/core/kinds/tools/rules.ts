// What makes a tool usable: a name providers accept (after one fixed renaming), an object argument schema made
// only of keywords the simulator checks exactly, no more than three levels of nesting, no files or streams.
// Each refusal is one line a team can act on; the rest of the set still runs.
import { isObject } from "./formats/raw";

/** JSON Schema keywords the simulator cannot check exactly (or would have to guess at). */
const UNCHECKABLE = [
  "anyOf", "oneOf", "allOf", "not", "patternProperties", "propertyNames", "if", "then", "else", "dependentSchemas",
  "dependentRequired", "contains", "uniqueItems", "multipleOf", "minProperties", "maxProperties", "unevaluatedItems",
  "unevaluatedProperties",
] as const;

export const MAX_SCHEMA_NESTING = 3;
/** Marks a $ref a reader left unexpanded because it sits deeper than any rule reads (not because it recurs). */
export const CUT = "x-worlds-cut";
export const NAME_RULE = /^[A-Za-z0-9_-]{1,64}$/;

/** Characters outside the providers' set become `_`; a name over 64 characters keeps 55 and 8 of its digest. */
export function renameTool(name: string, digestHex: string): string {
  const safe = name.replace(/[^A-Za-z0-9_-]/g, "_");
  return safe.length <= 64 ? safe : `${safe.slice(0, 55)}_${digestHex.slice(0, 8)}`;
}

/** Why an argument schema cannot be checked exactly, or null. Level 1 is the arguments object. (Answers are
 * drawn, not checked: answer-schema.ts.) */
export function schemaRefusal(schema: unknown): string | null {
  if (!isObject(schema)) return "its argument schema is not a JSON object schema";
  const types = typeOf(schema);
  if (!types.includes("object")) return `its argument schema is not a JSON object schema (type ${JSON.stringify(schema.type ?? null)})`;
  return walk(schema, 1, "");
}

function typeOf(s: Record<string, unknown>): string[] {
  if (typeof s.type === "string") return [s.type];
  if (Array.isArray(s.type)) return s.type.filter((t): t is string => typeof t === "string");
  if (isObject(s.properties)) return ["object"];
  return [];
}

function walk(s: Record<string, unknown>, level: number, path: string): string | null {
  const at = path ? ` (at ${path.replace(/\.$/, "")})` : "";
  for (const k of UNCHECKABLE) if (Object.hasOwn(s, k)) return `its schema uses ${k}${at}, which the simulator cannot check exactly`;
  if (typeof s.$ref === "string")
    return s[CUT] === true ? `its schema nests deeper than ${MAX_SCHEMA_NESTING} levels${at}` : `its schema has a recursive reference${at} (${s.$ref})`;
  if (isObject(s.additionalProperties)) return `its schema has a schema-valued additionalProperties${at}`;
  if (s.type === "file" || s.format === "binary" || s.format === "byte" || s.contentMediaType !== undefined || s.contentEncoding !== undefined)
    return `it takes a file or binary data${at}`;
  const types = typeOf(s);
  const nested = types.includes("object") || types.includes("array");
  if (nested && level > MAX_SCHEMA_NESTING) return `its schema nests deeper than ${MAX_SCHEMA_NESTING} levels${at}`;
  if (types.includes("object") && isObject(s.properties)) {
    for (const [name, child] of Object.entries(s.properties)) {
      if (!isObject(child)) return `its schema's property ${path}${name} is not a schema`;
      const problem = walk(child, level + 1, `${path}${name}.`);
      if (problem) return problem;
    }
  }
  if (types.includes("array")) {
    if (Array.isArray(s.items) || s.prefixItems !== undefined) return `its schema uses tuple items${at}, which the simulator cannot check exactly`;
    // A list and its items are one level: `orders[].id` nests as deep as `order.id`.
    if (isObject(s.items)) {
      const problem = walk(s.items, level, `${path.replace(/\.$/, "")}[].`);
      if (problem) return problem;
    }
  }
  return null;
}

/** A value whose exact content can be checked: anything but free text (a string with no format, enum or bound). */
export function isCheckable(schema: unknown): boolean {
  if (!isObject(schema)) return false;
  const types = typeOf(schema);
  if (schema.enum !== undefined || schema.const !== undefined) return true;
  if (types.length === 1 && types[0] === "string")
    return schema.format !== undefined || schema.pattern !== undefined || schema.minLength !== undefined || schema.maxLength !== undefined;
  return types.some((t) => t !== "null");
}

/** The argument names whose values a task can state and check exactly, in the schema's order. */
export function checkableParams(inputSchema: Record<string, unknown>): string[] {
  const p = isObject(inputSchema.properties) ? inputSchema.properties : {};
  return Object.keys(p).filter((k) => isCheckable(p[k]));
}

/** Only free-text arguments (a lone `query: string`): offered, but no task can require particular values. */
export function isFreeTextOnly(inputSchema: Record<string, unknown>): boolean {
  const p = isObject(inputSchema.properties) ? inputSchema.properties : {};
  const names = Object.keys(p);
  return names.length > 0 && names.every((k) => !isCheckable(p[k]));
}
