// Contracts inside the billing twin: resources declare routes and seeding; the HTTP layer (service.ts) parses
// form encoding, runs idempotency, expansion, version shaping and maps StripeError to the API's error envelope.
import type { ObjectType } from "../../src/core/diff/types";
import type { SeedDocument } from "../../src/core/seed/schema";
import type { SeedContext, SeedRow } from "../seed/rows";
import type { Store, StoredObject } from "../store/store";

/** A decoded form/query parameter tree: `a[b][0]=x` becomes {a: {b: ["x"]}}. Everything arrives as strings. */
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
  params: Params;
  /** The API version this request is served in (request header, else the world's default, else current). */
  apiVersion: string;
  requestId: string;
  method: "GET" | "POST" | "DELETE";
}

/** What a handler returns: one stored object (shaped and expanded by the HTTP layer) or a list/search page. */
export type HandlerResult =
  | StoredObject
  | { object: "list"; data: StoredObject[]; has_more: boolean; url: string }
  | { object: "search_result"; data: StoredObject[]; has_more: boolean; url: string; next_page: string | null; total_count?: number };

export interface Route {
  method: "GET" | "POST" | "DELETE";
  /** Express-style pattern, e.g. /v1/customers/:id/balance_transactions */
  path: string;
  handler: (ctx: StripeContext, pathParams: Record<string, string>) => HandlerResult;
}

export interface Resource {
  /** Store collection. */
  type: ObjectType;
  /** The `object` value, e.g. "customer". */
  object: string;
  /** Id prefix, e.g. "cus"; used to resolve ids for expansion. */
  prefix: string;
  routes: Route[];
  /** Normalises the seed's objects of this collection into stored API shapes. */
  seed?: (doc: SeedDocument, ctx: SeedContext) => SeedRow[];
  /** Fields whose id values can be replaced by the object with expand[]. */
  expandable?: string[];
  /** Presents a stored (current-version) object in the request's API version; default: as stored. */
  present?: (obj: StoredObject, ctx: StripeContext) => StoredObject;
}
