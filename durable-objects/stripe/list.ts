// Cursor pagination over a collection already filtered and ordered newest first (created desc, then insertion
// desc, as Store.list returns it): limit, starting_after (older page), ending_before (newer page).
import type { ObjectType } from "../../src/core/world/diff/types";
import type { Store, StoredObject } from "../store/store";
import { exclusiveParams, noSuchParam } from "./errors";
import { inRange, type ListArgs, type RangeParam } from "./params";
import type { ListResult } from "./types";

export const DEFAULT_LIMIT = 10;

/**
 * `what` names the object for the unknown-cursor error ("No such customer: 'cus_x'"); `lookup` finds a cursor
 * that is not in the filtered list but exists (the page then starts at its position by creation time).
 */
export function paginate(items: StoredObject[], args: ListArgs, url: string, what: string, lookup?: (id: string) => StoredObject | null): ListResult {
  const limit = args.limit ?? DEFAULT_LIMIT;
  if (args.starting_after !== undefined && args.ending_before !== undefined) throw exclusiveParams(["ending_before", "starting_after"]);
  if (args.starting_after !== undefined) {
    const start = cursorIndex(items, args.starting_after, "starting_after", what, lookup, "after");
    const data = items.slice(start, start + limit);
    return { object: "list", data, has_more: start + limit < items.length, url };
  }
  if (args.ending_before !== undefined) {
    const end = cursorIndex(items, args.ending_before, "ending_before", what, lookup, "before");
    const from = Math.max(0, end - limit);
    return { object: "list", data: items.slice(from, end), has_more: from > 0, url };
  }
  return { object: "list", data: items.slice(0, limit), has_more: items.length > limit, url };
}

/**
 * The list route of a collection filtered only by its own fields (each param, when given, equal to the field of
 * the same name) and by `created`: refunds and disputes list so, by charge and payment intent.
 */
export function listByFields<K extends string>(type: ObjectType, url: string, what: string, fields: readonly K[]) {
  return (ctx: { store: Store }, a: ListArgs & { created?: RangeParam } & { [F in K]?: string }): ListResult => {
    const items = ctx.store.list(type).filter((o) => fields.every((f) => a[f] === undefined || o[f] === a[f]) && inRange(o.created, a.created));
    return paginate(items, a, url, what, (id) => ctx.store.get(type, id));
  };
}

/** For "after": index of the first item past the cursor. For "before": index of the cursor (items before it are newer). */
function cursorIndex(
  items: StoredObject[],
  id: string,
  param: string,
  what: string,
  lookup: ((id: string) => StoredObject | null) | undefined,
  side: "after" | "before",
): number {
  const i = items.findIndex((o) => o.id === id);
  if (i >= 0) return side === "after" ? i + 1 : i;
  const cursor = lookup?.(id);
  if (!cursor || typeof cursor.created !== "number") throw noSuchParam(what, id, param);
  const created = cursor.created;
  // The cursor is outside this filter: older items are those created strictly before it.
  const firstOlder = items.findIndex((o) => (o.created as number) < created);
  return firstOlder < 0 ? items.length : firstOlder;
}

/** A nested list as embedded objects carry it (subscription.items, invoice.lines). */
export function embeddedList(data: StoredObject[], url: string): ListResult & { total_count: number } {
  return { object: "list", data, has_more: false, total_count: data.length, url };
}
