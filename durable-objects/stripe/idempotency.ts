// Idempotent POSTs: the first response after execution begins is stored under the key with a fingerprint of
// the request (method, path, canonical parameters, so parameter order does not matter); a retry with the same
// key replays it, a different request with the same key is refused. Validation failures are never stored.
import { canonicalJson } from "../../src/core/util/canonical";
import type { IdempotencyRecord, Store } from "../store/store";
import { StripeError, type Params } from "./types";

export const MAX_KEY_LENGTH = 255;

export function endpointOf(method: string, path: string): string {
  return `${method} ${path}`;
}

export function fingerprintOf(params: Params): string {
  return canonicalJson(params);
}

export type IdempotencyCheck = { kind: "fresh" } | { kind: "replay"; record: IdempotencyRecord };

export function checkIdempotency(store: Store, key: string, endpoint: string, fingerprint: string): IdempotencyCheck {
  if (key.length > MAX_KEY_LENGTH)
    throw new StripeError(400, "invalid_request_error", `Idempotency-Key is too long: keys can be at most ${MAX_KEY_LENGTH} characters.`, undefined, undefined, true);
  const record = store.idempotencyRecord(key);
  if (!record) return { kind: "fresh" };
  if (record.endpoint !== endpoint) {
    const [, firstPath] = record.endpoint.split(" ");
    const [, thisPath] = endpoint.split(" ");
    throw new StripeError(
      400,
      "idempotency_error",
      `Keys for idempotent requests can only be used for the same endpoint they were first used for ('${firstPath}' vs '${thisPath}'). Try using a key other than '${key}' if you meant to execute a different request.`,
      undefined, undefined, true,
    );
  }
  if (record.fingerprint !== fingerprint)
    throw new StripeError(
      400,
      "idempotency_error",
      `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
      undefined, undefined, true,
    );
  return { kind: "replay", record };
}
