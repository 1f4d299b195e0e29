// The billing API's error vocabulary: constructors for the failures the twin raises, and the envelope clients parse.
import { StripeError } from "./types";

export function docUrl(code: string): string {
  return `https://stripe.com/docs/error-codes/${code.replace(/_/g, "-")}`;
}

/** {error: {code, doc_url, message, param, type}} with keys in the order the real API writes them. */
export function errorBody(e: StripeError): Record<string, unknown> {
  const error: Record<string, unknown> = {};
  if (e.code) {
    error.code = e.code;
    error.doc_url = docUrl(e.code);
  }
  error.message = e.message;
  if (e.param) error.param = e.param;
  error.type = e.type;
  return { error };
}

/** A path id that names nothing (404). `what` is the object's display name, e.g. "customer". */
export function noSuch(what: string, id: string, param = "id"): StripeError {
  return new StripeError(404, "invalid_request_error", `No such ${what}: '${id}'`, "resource_missing", param);
}

/** A parameter that references an object that does not exist (400, the request itself is at fault). */
export function noSuchParam(what: string, id: string, param: string): StripeError {
  return new StripeError(400, "invalid_request_error", `No such ${what}: '${id}'`, "resource_missing", param, true);
}

export function invalidParam(message: string, param?: string, code?: string): StripeError {
  return new StripeError(400, "invalid_request_error", message, code, param, true);
}

export function missingParam(param: string): StripeError {
  return new StripeError(400, "invalid_request_error", `Missing required param: ${param}.`, "parameter_missing", param, true);
}

export function unknownParam(param: string): StripeError {
  return new StripeError(400, "invalid_request_error", `Received unknown parameter: ${param}`, "parameter_unknown", param, true);
}

export function exclusiveParams(params: string[]): StripeError {
  return new StripeError(400, "invalid_request_error", `You may only specify one of these parameters: ${params.join(", ")}.`, "parameters_exclusive", params[0], true);
}

/** A request the domain rules refuse (state machine, amounts); stored for idempotent replay like the real API. */
export function domainError(message: string, code?: string, param?: string, status = 400): StripeError {
  return new StripeError(status, "invalid_request_error", message, code, param, false);
}

/** `items[0][price]` from a zod path. */
export function bracketPath(path: ReadonlyArray<PropertyKey>): string {
  let out = "";
  for (const p of path) out += out ? `[${String(p)}]` : String(p);
  return out;
}
