// The answers a scenario gives instead of the service's own, each in the idiom its real API and clients use:
// the billing API's error envelope with the headers stripe-node acts on (Stripe-Should-Retry makes it retry,
// keeping its idempotency key), and the help desk's 429/503 with Retry-After.
import type { Store } from "../store/store";
import type { TwinRequest, TwinResponse } from "../twin";
import { errorBody } from "../stripe/errors";
import { StripeError } from "../stripe/types";
import { isValidApiVersion, resolveApiVersion, CURRENT_API_VERSION } from "../stripe/versions";

function stripeHeaders(store: Store, req: TwinRequest, extra: Record<string, string>): Record<string, string> {
  const header = req.headers.stripeVersion?.trim() || null;
  const version = header && !isValidApiVersion(header) ? CURRENT_API_VERSION : resolveApiVersion(header, store.meta("stripe_version"));
  const headers: Record<string, string> = { "content-type": "application/json", "request-id": req.requestId, "stripe-version": version };
  if (req.headers.idempotencyKey) headers["idempotency-key"] = req.headers.idempotencyKey;
  return { ...headers, ...extra };
}

function helpdeskHeaders(req: TwinRequest, contentType: string, extra: Record<string, string>): Record<string, string> {
  return { "content-type": contentType, "x-zendesk-api-version": "v2", "x-request-id": req.requestId, ...extra };
}

/** 429: too many requests. `n` is the request's position in the service's sequence, for the message. */
export function rateLimited(store: Store, req: TwinRequest, retryAfter: number): TwinResponse {
  const wait = `${retryAfter} second${retryAfter === 1 ? "" : "s"}`;
  if (req.service === "stripe") {
    const err = new StripeError(429, "invalid_request_error", `Too many requests reached this account at once (rate limit). Wait ${wait} and retry with the same idempotency key; see https://stripe.com/docs/rate-limits.`, "rate_limit");
    return {
      status: 429,
      headers: stripeHeaders(store, req, { "retry-after": String(retryAfter), "stripe-should-retry": "true" }),
      body: JSON.stringify(errorBody(err), null, 2),
    };
  }
  // The help desk answers its rate limit in plain text, with the remaining budget at zero.
  return {
    status: 429,
    headers: helpdeskHeaders(req, "text/plain; charset=utf-8", { "retry-after": String(retryAfter), "x-rate-limit": "700", "x-rate-limit-remaining": "0" }),
    body: req.method === "HEAD" ? "" : `Too Many Requests: the API rate limit for this account was exceeded. Retry after ${wait}.\n`,
  };
}

/** 503 before the write executed: nothing changed, so retrying is safe. */
export function writeUnavailable(store: Store, req: TwinRequest): TwinResponse {
  if (req.service === "stripe") {
    const err = new StripeError(503, "api_error", "The billing API could not complete this request right now; nothing was changed. Retry it with the same idempotency key.");
    return { status: 503, headers: stripeHeaders(store, req, { "stripe-should-retry": "true" }), body: JSON.stringify(errorBody(err), null, 2) };
  }
  return {
    status: 503,
    headers: helpdeskHeaders(req, "application/json; charset=utf-8", { "retry-after": "1" }),
    body: JSON.stringify({ error: "ServiceUnavailable", description: "The help desk could not complete this request right now; nothing was changed. Retry it." }),
  };
}
