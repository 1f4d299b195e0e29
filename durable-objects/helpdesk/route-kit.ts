// What every help desk route module shares: the request context a handler gets, its result, and the route table's
// row. Routes are data (method, path pattern, handler) so each resource declares its own table.
import type { Store } from "../store/store";
import type { TwinNote } from "../twin";
import type { Ordering, PageRequest } from "./pagination";

export interface RouteContext {
  store: Store;
  method: string;
  params: URLSearchParams;
  body: string;
  page: PageRequest;
  origin: string;
  /** Runs a write as one transaction. */
  transact: <T>(fn: () => T) => T;
}

export interface RouteResult {
  status: number;
  body: unknown;
  note?: TwinNote;
}

export type Handler = (ctx: RouteContext, args: string[]) => RouteResult;

export interface Route {
  method: string;
  /** Path segments after /api/v2; `:id` matches a numeric id, `:user` a numeric id or `me`. */
  pattern: string[];
  handler: Handler;
}

export const ok = (body: unknown, note: TwinNote = null): RouteResult => ({ status: 200, body, note });

export const byId: Ordering<{ id: string }> = { key: (o) => [Number(o.id)], desc: false };

/** The {count: {value, refreshed_at}} answer of the help desk's count endpoints. */
export function countBody(value: number, now: number): { count: { value: number; refreshed_at: string } } {
  return { count: { value, refreshed_at: new Date(now * 1000).toISOString().replace(/\.\d{3}Z$/, "Z") } };
}
