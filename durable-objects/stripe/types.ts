// Contracts inside the billing twin: resources declare routes and seeding; the HTTP layer (service.ts) parses
// form encoding, runs idempotency, expansion, version shaping and maps StripeError to the API's error envelope.
import type { z } from "zod";
import type { ObjectType } from "../../src/core/world/diff/types";
import type { SeedDocument } from "../../src/core/world/seed/schema";
import type { SeedContext, SeedRow } from "../seed/rows";
import type { Store, StoredObject } from "../store/store";

/** A decoded form/query parameter tree: `a[b][0]=x` becomes {a: {b: {"0": "x"}}} (array helpers in params.ts
 *  turn integer-keyed objects into arrays). Form values are strings; JSON bodies are normalised to strings too. */
export type ParamValue = string | Params | ParamValue[];
export interface Params {
  [key: string]: ParamValue;
}

export type ErrorType = "invalid_request_error" | "api_error" | "card_error" | "idempotency_error" | "rate_limit_error";

/** A domain or validation failure, rendered as {error: {type, code, message, param}} with its HTTP status. */
export class StripeError extends Error {
  constructor(
    readonly status: number,
    readonly type: ErrorType,
    message: string,
    readonly code?: string,
    readonly param?: string,
    /** Validation failures (bad params) are not stored for idempotent replay; execution failures are. */
    readonly validation = false,
  ) {
    super(message);
  }
}

export interface StripeContext {
  store: Store;
  /** The raw decoded parameters (query and body merged, `expand` included). Handlers use their typed args. */
  params: Params;
  /** The API version this request is served in (request header, else the world's default, else current). */
  apiVersion: string;
  requestId: string;
  method: "GET" | "POST" | "DELETE";
  /** The route's validated parameters (its `params` schema's output); undefined for routes without a schema. */
  args?: unknown;
  /** Presents any stored object in `version` (default: the request's), as its resource shows it: event payloads use it. */
  present: (obj: StoredObject, version?: string) => StoredObject;
  /** Runs fn and rolls back everything it wrote, returning what it returned: previews compute a write's result this way. */
  dryRun: <T>(fn: () => T) => T;
}

export interface ListResult {
  object: "list";
  data: StoredObject[];
  has_more: boolean;
  url: string;
}

export interface SearchResult {
  object: "search_result";
  data: StoredObject[];
  has_more: boolean;
  url: string;
  next_page: string | null;
  total_count?: number;
}

/** What a handler returns: one stored object (shaped and expanded by the HTTP layer) or a list/search page. */
export type HandlerResult = StoredObject | ListResult | SearchResult;

export interface Route {
  method: "GET" | "POST" | "DELETE";
  /** Express-style pattern, e.g. /v1/customers/:id/balance_transactions */
  path: string;
  /**
   * The parameters the route accepts (query and body merged, `expand` removed: the HTTP layer owns it), as a zod
   * schema over the decoded Params. Build it with params.ts (`strict({...})`, `int()`, `bool()`, `metadata()`...):
   * unknown keys become parameter_unknown, missing ones parameter_missing, bad integers parameter_invalid_integer.
   * The validated output is ctx.args. Without a schema the handler must validate ctx.params itself.
   */
  params?: z.ZodType;
  handler: (ctx: StripeContext, pathParams: Record<string, string>) => HandlerResult;
}

/** Declares a route whose handler receives its schema's typed output (ctx.args) as the second argument. */
export function route<S extends z.ZodType>(
  method: Route["method"],
  path: string,
  params: S,
  handler: (ctx: StripeContext, args: z.output<S>, pathParams: Record<string, string>) => HandlerResult,
): Route {
  return { method, path, params, handler: (ctx, pathParams) => handler(ctx, ctx.args as z.output<S>, pathParams) };
}

export interface Resource {
  /** Store collection; absent for objects derived from others rather than stored (balance transactions; events, read from the change log). */
  type?: ObjectType;
  /** Finds a derived object by id (expansion, cursors); stored objects are found in their collection. */
  find?: (id: string, ctx: StripeContext) => StoredObject | null;
  /** The `object` value, e.g. "customer". */
  object: string;
  /** Id prefix, e.g. "cus"; used to resolve ids for expansion. */
  prefix: string;
  routes: Route[];
  /** Normalises the seed's objects of this collection into stored API shapes. */
  seed?: (doc: SeedDocument, ctx: SeedContext) => SeedRow[];
  /** Fields (dotted for nested hashes, e.g. invoice_settings.default_payment_method) whose id values expand[] replaces by the object. */
  expandable?: string[];
  /** Fields absent by default that expand[] includes, computed on demand (e.g. charge.refunds, customer.subscriptions). */
  includable?: Record<string, (obj: StoredObject, ctx: StripeContext) => unknown>;
  /** Fields the search query language accepts for this resource (metadata["k"] is always accepted). */
  searchFields?: Record<string, SearchField>;
  /** Presents a stored (current-version) object in the request's API version; default: as stored. */
  present?: (obj: StoredObject, ctx: StripeContext) => StoredObject;
}

/** string: case-insensitive exact match and `~` substring; token: case-sensitive exact; number: exact and comparisons. */
export interface SearchField {
  kind: "string" | "token" | "number";
  /** Reads the value from the stored object; default obj[name]. Arrays match when any element matches. */
  get?: (obj: StoredObject) => unknown;
}
