// The help desk's two pagination styles. Offset (`page`, `per_page`) answers {next_page, previous_page, count};
// cursor (any `page[...]` parameter) answers {meta: {has_more, after_cursor, before_cursor}, links: {next, prev}}.
// Links are absolute and built from the URL the client called, so clients that follow them verbatim (node-zendesk
// checks that the link starts with its configured base) stay on this world. links.next is null on the last page:
// some clients follow links.next without looking at has_more.
import { badRequest } from "./errors";

export const MAX_PAGE_SIZE = 100;
/** Zendesk refuses offset pagination past 100 pages; cursor pagination has no such limit. */
export const MAX_OFFSET_PAGES = 100;

export type SortKey = Array<string | number>;

export interface Ordering<T> {
  key: (item: T) => SortKey;
  desc: boolean;
}

export interface PageRequest {
  /** Path as the client sent it, e.g. /api/v2/tickets.json */
  path: string;
  origin: string;
  params: URLSearchParams;
}

export function isCursorRequest(params: URLSearchParams): boolean {
  for (const k of params.keys()) if (k.startsWith("page[")) return true;
  return false;
}

function compareKeys(a: SortKey, b: SortKey): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? "";
    const y = b[i] ?? "";
    if (x === y) continue;
    if (typeof x === "number" && typeof y === "number") return x < y ? -1 : 1;
    return String(x) < String(y) ? -1 : 1;
  }
  return 0;
}

export function sortItems<T>(items: T[], ordering: Ordering<T>): T[] {
  const sign = ordering.desc ? -1 : 1;
  return [...items].sort((a, b) => sign * compareKeys(ordering.key(a), ordering.key(b)));
}

function positiveInt(raw: string | null, fallback: number): number {
  if (raw === null || !/^\d+$/.test(raw.trim())) return fallback;
  const n = Number(raw.trim());
  return n >= 1 ? n : fallback;
}

function link(req: PageRequest, set: Record<string, string>, drop: string[] = []): string {
  const params = new URLSearchParams(req.params);
  for (const k of drop) params.delete(k);
  for (const [k, v] of Object.entries(set)) params.set(k, v);
  return `${req.origin}${req.path}?${params.toString()}`;
}

/** Offset pagination over already sorted items. */
export function offsetPage<T>(items: T[], req: PageRequest, opts: { maxResults?: number } = {}): { page: T[]; next_page: string | null; previous_page: string | null; count: number } {
  const perPage = Math.min(positiveInt(req.params.get("per_page"), MAX_PAGE_SIZE), MAX_PAGE_SIZE);
  const page = positiveInt(req.params.get("page"), 1);
  if (page > MAX_OFFSET_PAGES)
    throw badRequest("InvalidPaginationParameter", `Offset pagination is limited to the first ${MAX_OFFSET_PAGES} pages. Use cursor pagination (page[size], page[after]) instead.`);
  const total = opts.maxResults !== undefined ? Math.min(items.length, opts.maxResults) : items.length;
  const start = (page - 1) * perPage;
  const slice = items.slice(start, Math.min(start + perPage, total));
  return {
    page: slice,
    next_page: start + perPage < total ? link(req, { page: String(page + 1), per_page: String(perPage) }) : null,
    previous_page: page > 1 ? link(req, { page: String(page - 1), per_page: String(perPage) }) : null,
    count: items.length,
  };
}

function encodeCursor(key: SortKey): string {
  const bytes = new TextEncoder().encode(JSON.stringify(key));
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function decodeCursor(raw: string, name: string): SortKey {
  try {
    const bin = atob(raw.replace(/-/g, "+").replace(/_/g, "/"));
    const key: unknown = JSON.parse(new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0))));
    if (Array.isArray(key) && key.every((k) => typeof k === "string" || typeof k === "number")) return key;
  } catch {
    // fall through to the error below
  }
  throw badRequest("InvalidPaginationParameter", `${name} is not a cursor this API issued; take cursors from meta.after_cursor / meta.before_cursor or follow links.next.`);
}

export interface CursorPage<T> {
  page: T[];
  meta: { has_more: boolean; after_cursor: string | null; before_cursor: string | null };
  links: { prev: string | null; next: string | null };
}

/** Cursor pagination over already sorted items (sorted with the same ordering). */
export function cursorPage<T>(items: T[], ordering: Ordering<T>, req: PageRequest): CursorPage<T> {
  const size = Math.min(positiveInt(req.params.get("page[size]"), MAX_PAGE_SIZE), MAX_PAGE_SIZE);
  const after = req.params.get("page[after]");
  const before = req.params.get("page[before]");
  const sign = ordering.desc ? -1 : 1;
  const cmp = (item: T, key: SortKey) => sign * compareKeys(ordering.key(item), key);
  let start: number;
  let end: number;
  let hasMore: boolean;
  if (before) {
    const key = decodeCursor(before, "page[before]");
    end = items.findIndex((it) => cmp(it, key) >= 0);
    if (end < 0) end = items.length;
    start = Math.max(0, end - size);
    hasMore = start > 0;
  } else {
    if (after) {
      const key = decodeCursor(after, "page[after]");
      start = items.findIndex((it) => cmp(it, key) > 0);
      if (start < 0) start = items.length;
    } else start = 0;
    end = Math.min(items.length, start + size);
    hasMore = end < items.length;
  }
  const page = items.slice(start, end);
  const afterCursor = page.length ? encodeCursor(ordering.key(page[page.length - 1])) : null;
  const beforeCursor = page.length ? encodeCursor(ordering.key(page[0])) : null;
  const drop = ["page[after]", "page[before]"];
  return {
    page,
    meta: { has_more: hasMore, after_cursor: afterCursor, before_cursor: beforeCursor },
    links: {
      next: afterCursor && end < items.length ? link(req, { "page[size]": String(size), "page[after]": afterCursor }, drop) : null,
      prev: beforeCursor && start > 0 ? link(req, { "page[size]": String(size), "page[before]": beforeCursor }, drop) : null,
    },
  };
}

/** One list endpoint: cursor when the client asked for it, offset otherwise. */
export function paginate<T>(
  key: string,
  items: T[],
  ordering: Ordering<T>,
  req: PageRequest,
  present: (item: T) => unknown,
): Record<string, unknown> {
  const sorted = sortItems(items, ordering);
  if (isCursorRequest(req.params)) {
    const p = cursorPage(sorted, ordering, req);
    return { [key]: p.page.map(present), meta: p.meta, links: p.links };
  }
  const p = offsetPage(sorted, req);
  return { [key]: p.page.map(present), next_page: p.next_page, previous_page: p.previous_page, count: p.count };
}
