// The help desk twin (Zendesk Support API v2 shapes) behind /api/v2. Routing and domain rules live in routes.ts
// and tickets.ts; this layer parses the request, maps failures to the API's error envelopes and sets the headers
// Zendesk clients look at (never Retry-After on a success: node-zendesk turns any response carrying it into a
// rate-limit error).
import type { ServiceHandler, TwinRequest, TwinResponse } from "../twin";
import { HelpdeskError } from "./errors";
import { route } from "./routes";

function respond(req: TwinRequest, status: number, body: unknown, note: TwinResponse["note"] = null): TwinResponse {
  const res: TwinResponse = {
    status,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "x-zendesk-api-version": "v2",
      "x-request-id": req.requestId,
      "x-rate-limit": "700",
      "x-rate-limit-remaining": "699",
    },
    // 204 No Content (a deleted ticket) carries no body at all.
    body: req.method === "HEAD" || status === 204 ? "" : JSON.stringify(body),
  };
  if (note) res.note = note;
  return res;
}

export const helpdeskService: ServiceHandler = {
  handle(store, req, transact) {
    try {
      const params = new URLSearchParams(req.query);
      const result = route(
        { store, method: req.method, params, body: req.body, origin: req.origin, page: { path: req.path, origin: req.origin, params }, transact },
        req.path,
      );
      return respond(req, result.status, result.body, result.note ?? null);
    } catch (e) {
      if (e instanceof HelpdeskError) return respond(req, e.status, e.body, e.note);
      // A bug in the twin, not the agent's fault: say so in the help desk's envelope rather than crash the world.
      return respond(req, 500, { error: "InternalError", description: `The help desk twin failed: ${(e as Error).message}` });
    }
  },
};
