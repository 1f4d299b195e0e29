// Expansion: expand[]=customer replaces an id by its object, dotted paths walk into what was expanded
// (latest_invoice.customer), lists take a data. prefix, and includable fields (charge.refunds) are computed on
// demand. Only fields a resource declares are expandable; at most four levels, as the real API allows.
import type { StoredObject } from "../store/store";
import { isForbiddenKey } from "../../src/core/util/safe-tree";
import { invalidParam } from "./errors";
import type { Registry } from "./registry";
import type { HandlerResult, Resource, StripeContext } from "./types";

const MAX_DEPTH = 4;

const cannot = (path: string, hint?: string) =>
  invalidParam(`This property cannot be expanded (${path}).${hint ? ` ${hint}` : ""}`, "expand");

/** Presents an object in the request's API version (its resource's present, else as stored). */
export function shape(obj: StoredObject, ctx: StripeContext, registry: Registry): StoredObject {
  const res = registry.forObject(obj.object);
  return res?.present ? res.present(obj, ctx) : obj;
}

export function expandResult(result: HandlerResult, paths: string[], ctx: StripeContext, registry: Registry): HandlerResult {
  const unique = [...new Set(paths.filter((p) => p !== ""))];
  const isList = result.object === "list" || result.object === "search_result";
  for (const path of unique) {
    const segments = path.split(".");
    // A walk over `__proto__` would write the expanded object into the isolate-wide prototype.
    if (segments.some(isForbiddenKey)) throw cannot(path);
    if (isList) {
      if (result.object === "search_result" && path === "total_count") continue;
      if (segments[0] !== "data") throw cannot(path, `You may want to try expanding 'data.${path}' instead.`);
      if (segments.length - 1 > MAX_DEPTH) throw invalidParam(`You cannot expand more than ${MAX_DEPTH} levels of a property. Property: ${path}`, "expand");
      const data = (result as { data: StoredObject[] }).data;
      for (const item of data) walk(item, segments.slice(1), registry.forObject(item.object), "", path, ctx, registry);
    } else {
      if (segments.length > MAX_DEPTH) throw invalidParam(`You cannot expand more than ${MAX_DEPTH} levels of a property. Property: ${path}`, "expand");
      const obj = result as StoredObject;
      walk(obj, segments, registry.forObject(obj.object), "", path, ctx, registry);
    }
  }
  if (result.object === "search_result" && !unique.includes("total_count")) delete (result as { total_count?: number }).total_count;
  return result;
}

/** The object an id names: derived resources find their own, stored ones are read (deleted stubs included). */
function lookup(target: Resource | undefined, id: string, ctx: StripeContext): StoredObject | null {
  if (!target) return null;
  if (target.find) return target.find(id, ctx);
  return target.type ? ctx.store.get(target.type, id, { includeDeleted: true }) : null;
}

/**
 * Expands `segments` inside `holder`. `res` is the resource whose declaration governs the holder (the holder
 * itself, or an enclosing object when the holder is a plain nested hash, with `prefix` the path inside it).
 */
function walk(
  holder: Record<string, unknown>,
  segments: string[],
  res: Resource | undefined,
  prefix: string,
  fullPath: string,
  ctx: StripeContext,
  registry: Registry,
): void {
  if (!segments.length) return;
  const [field, ...rest] = segments;
  const declared = prefix ? `${prefix}.${field}` : field;
  const include = res?.includable?.[declared];
  if (include && holder[field] === undefined) {
    const included = include(holder as StoredObject, ctx) as Record<string, unknown> | null;
    // Included lists hold resources: present them in the request's version like any other object.
    if (included && included.object === "list" && Array.isArray(included.data))
      included.data = (included.data as StoredObject[]).map((o) => shape(o, ctx, registry));
    holder[field] = included;
  }
  let value = holder[field];
  if (typeof value === "string") {
    if (!res?.expandable?.includes(declared)) throw cannot(fullPath);
    const target = registry.forId(value);
    const found = lookup(target, value, ctx);
    if (!found || !target) return; // a dangling id stays an id
    value = shape(found, ctx, registry);
    holder[field] = value;
    walk(value as StoredObject, rest, target, "", fullPath, ctx, registry);
    return;
  }
  if (value === null) {
    if (!res?.expandable?.includes(declared) && !include) throw cannot(fullPath);
    return;
  }
  if (Array.isArray(value) && res?.expandable?.includes(declared)) {
    // A list of ids (subscription.discounts): each id becomes its object, and the rest of the path walks each.
    holder[field] = value.map((v) => {
      if (typeof v !== "string") return v;
      const target = registry.forId(v);
      const found = lookup(target, v, ctx);
      if (!found || !target) return v;
      const obj = shape(found, ctx, registry);
      walk(obj, rest, target, "", fullPath, ctx, registry);
      return obj;
    });
    return;
  }
  if (value === undefined || typeof value !== "object") throw cannot(fullPath);
  if (!rest.length) return; // already an object (embedded or expanded by an earlier path): nothing to do
  const obj = value as Record<string, unknown>;
  if (obj.object === "list") {
    if (rest[0] !== "data") throw cannot(fullPath);
    for (const item of (obj.data as StoredObject[]) ?? []) walk(item, rest.slice(1), registry.forObject(item.object), "", fullPath, ctx, registry);
    return;
  }
  const inner = registry.forObject(obj.object);
  if (inner) walk(obj, rest, inner, "", fullPath, ctx, registry);
  else if (typeof obj.object === "string") walk(obj, rest, undefined, "", fullPath, ctx, registry);
  else walk(obj, rest, res, declared, fullPath, ctx, registry);
}
