import type { Service, TwinResponse } from "./twin";

/** A key that does not open this world gets each service's own 401, never a hint that the world exists. */
export function unauthorized(service: Service): TwinResponse {
  if (service === "stripe")
    return {
      status: 401,
      headers: { "content-type": "application/json", "www-authenticate": 'Basic realm="Stripe"' },
      body: JSON.stringify({
        error: { type: "invalid_request_error", message: "Invalid API Key provided. Each world has its own key; use the key returned when the world was created." },
      }),
    };
  return {
    status: 401,
    headers: { "content-type": "application/json; charset=utf-8" },
    body: JSON.stringify({ error: "Couldn't authenticate you" }),
  };
}
