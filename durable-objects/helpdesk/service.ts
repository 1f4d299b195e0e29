import type { ServiceHandler } from "../twin";
// PLACEHOLDER being replaced by the help desk twin work.
export const helpdeskService: ServiceHandler = {
  handle: () => ({ status: 404, headers: { "content-type": "application/json" }, body: JSON.stringify({ error: "InvalidEndpoint", description: "Not found" }), note: "unknown_route" }),
};
