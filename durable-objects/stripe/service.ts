import type { ServiceHandler } from "../twin";
// PLACEHOLDER being replaced by the billing twin work.
export const stripeService: ServiceHandler = {
  handle: () => ({ status: 404, headers: { "content-type": "application/json" }, body: JSON.stringify({ error: { type: "invalid_request_error", message: "Unrecognized request URL" } }), note: "unknown_route" }),
};
