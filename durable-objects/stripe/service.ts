// The billing twin's HTTP layer for /v1/*: decodes parameters, routes to a resource handler, validates the
// route's declared parameters, runs the handler and its writes as one transaction, presents objects in the
// request's API version, expands, applies idempotency and renders the real API's error envelope and headers.
// Resources hold the domain rules (resources/*.ts); nothing here knows about customers or invoices.
import { z } from "zod";
import type { Store } from "../store/store";
import type { ServiceHandler, Transact, TwinNote, TwinRequest, TwinResponse } from "../twin";
import { errorBody } from "./errors";
import { expandResult, shape } from "./expand";
import { decodeParams, MalformedParams } from "./form";
import { checkIdempotency, endpointOf, fingerprintOf } from "./idempotency";
import { array, parseArgs } from "./params";
import { Registry } from "./registry";
import { RESOURCES } from "./resources/index";
import { Router } from "./router";
import { StripeError, type HandlerResult, type Params, type Resource, type StripeContext } from "./types";
import { CURRENT_API_VERSION, isValidApiVersion, resolveApiVersion } from "./versions";

const expandParam = array(z.string()).optional();
const ROLLBACK = new Error("dry run: roll back");

interface Rendered {
  status: number;
  body: string;
  note: TwinNote;
}

export function createStripeService(resources: Resource[]): ServiceHandler {
  const registry = new Registry(resources);
  const router = new Router(resources.flatMap((r) => r.routes));

  return {
    handle(store: Store, req: TwinRequest, transact: Transact): TwinResponse {
      const headers: Record<string, string> = { "content-type": "application/json", "request-id": req.requestId };
      const key = req.method === "POST" ? req.headers.idempotencyKey : null;
      if (req.headers.idempotencyKey) headers["idempotency-key"] = req.headers.idempotencyKey;
      const respond = (r: Rendered, version: string, replayed = false): TwinResponse => ({
        status: r.status,
        headers: { ...headers, "stripe-version": version },
        body: r.body,
        note: r.note,
        ...(replayed ? { replayed: true } : {}),
      });

      const header = req.headers.stripeVersion?.trim() || null;
      if (header && !isValidApiVersion(header))
        return respond(renderError(new StripeError(400, "invalid_request_error", `Invalid Stripe API version: ${header}. A version is a release date such as 2020-08-27 or ${CURRENT_API_VERSION}; this twin serves releases from 2011-01-01 to ${CURRENT_API_VERSION}.`, undefined, undefined, true)), CURRENT_API_VERSION);
      const apiVersion = resolveApiVersion(header, store.meta("stripe_version"));

      let params: Params;
      try {
        params = decodeParams(req.query, req.body, req.contentType);
      } catch (e) {
        if (e instanceof MalformedParams) return respond(renderError(new StripeError(400, "invalid_request_error", e.message, e.code, e.param, true)), apiVersion);
        throw e;
      }

      const match = router.match(req.method, req.path);
      if (!match) {
        const message = `Unrecognized request URL (${req.method}: ${req.path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`;
        return respond({ ...renderError(new StripeError(404, "invalid_request_error", message)), note: "unknown_route" }, apiVersion);
      }

      const endpoint = endpointOf(req.method, req.path);
      const fingerprint = key ? fingerprintOf(params) : "";
      if (key) {
        try {
          const check = checkIdempotency(store, key, endpoint, fingerprint);
          if (check.kind === "replay") {
            headers["idempotent-replayed"] = "true";
            headers["original-request"] = check.record.request_id;
            return respond({ status: check.record.status, body: check.record.body, note: null }, apiVersion, true);
          }
        } catch (e) {
          if (e instanceof StripeError) return respond(renderError(e), apiVersion);
          throw e;
        }
      }

      const dryRun = <T>(fn: () => T): T => {
        let out: { value: T } | null = null;
        try {
          transact(() => {
            out = { value: fn() };
            throw ROLLBACK;
          });
        } catch (e) {
          if (e !== ROLLBACK) throw e;
        }
        return (out as { value: T } | null)!.value;
      };
      const ctx: StripeContext = {
        store, params, apiVersion, requestId: req.requestId, method: match.route.method, dryRun,
        present: (obj, version) => shape(obj, version ? { ...ctx, apiVersion: version } : ctx, registry),
      };
      const save = (r: Rendered) => {
        if (key) store.saveIdempotencyRecord(key, { fingerprint, endpoint, status: r.status, body: r.body, request_id: req.requestId });
      };
      try {
        const rendered = transact(() => {
          const { expand, ...rest } = params;
          const paths = (parseArgs(expandParam, expand) as string[] | undefined) ?? [];
          if (match.route.params) ctx.args = parseArgs(match.route.params, rest);
          const result = present(match.route.handler(ctx, match.pathParams), ctx, registry);
          const r: Rendered = { status: 200, body: JSON.stringify(expandResult(result, paths, ctx, registry), null, 2), note: null };
          save(r);
          return r;
        });
        return respond(rendered, apiVersion);
      } catch (e) {
        const err = e instanceof StripeError ? e : internalError(e);
        const r = renderError(err);
        // Stored like the real API: the outcome once execution began, errors included; never a validation failure.
        if (!err.validation) transact(() => save(r));
        return respond(r, apiVersion);
      }
    },
  };
}

function present(result: HandlerResult, ctx: StripeContext, registry: Registry): HandlerResult {
  if (result.object === "list" || result.object === "search_result") {
    const page = result as { data: Array<Record<string, unknown> & { id: string }> };
    return { ...result, data: page.data.map((o) => shape(o, ctx, registry)) } as HandlerResult;
  }
  return shape(result as Record<string, unknown> & { id: string }, ctx, registry);
}

function renderError(e: StripeError): Rendered {
  const note: TwinNote = e.code === "parameter_unknown" ? "unknown_parameter" : null;
  return { status: e.status, body: JSON.stringify(errorBody(e), null, 2), note };
}

function internalError(e: unknown): StripeError {
  console.error("billing twin: unexpected error", e);
  const detail = e instanceof Error ? e.message : String(e);
  return new StripeError(500, "api_error", `An unexpected error occurred in the billing twin while handling this request (${detail}).`);
}

export const stripeService: ServiceHandler = createStripeService(RESOURCES);
