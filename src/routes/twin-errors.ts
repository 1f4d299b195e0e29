import type { Service, TwinResponse } from "../../durable-objects/twin";

/** 413 in the shape each service's clients parse. */
export function tooLarge(service: Service): TwinResponse {
  if (service === "stripe")
    return {
      status: 413,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ error: { type: "invalid_request_error", message: "Request body is larger than the 1 MB this API accepts." } }),
    };
  return {
    status: 413,
    headers: { "content-type": "application/json; charset=utf-8" },
    body: JSON.stringify({ error: "RequestTooLarge", description: "Request body is larger than the 1 MB this API accepts." }),
  };
}
