// GET /tickets/:id/audits (cursor or offset pages, oldest first), one audit, and their count.
import { recordNotFound } from "./errors";
import { auditsOf } from "./audits";
import { paginate } from "./pagination";
import { countBody, ok, type Route } from "./route-kit";
import { presentAudit } from "./shapes";
import { getTicket } from "./tickets";

export const AUDIT_ROUTES: Route[] = [
  {
    method: "GET",
    pattern: ["tickets", ":id", "audits"],
    handler: (ctx, [id]) => {
      const audits = auditsOf(ctx.store, getTicket(ctx.store, id));
      return ok(paginate("audits", audits, { key: (a) => [Number(a.id)], desc: ctx.params.get("sort_order") === "desc" }, ctx.page, presentAudit));
    },
  },
  { method: "GET", pattern: ["tickets", ":id", "audits", "count"], handler: (ctx, [id]) => ok(countBody(auditsOf(ctx.store, getTicket(ctx.store, id)).length, ctx.store.now())) },
  {
    method: "GET",
    pattern: ["tickets", ":id", "audits", ":id"],
    handler: (ctx, [id, auditId]) => {
      const audit = auditsOf(ctx.store, getTicket(ctx.store, id)).find((a) => a.id === String(Number(auditId)));
      if (!audit) throw recordNotFound();
      return ok({ audit: presentAudit(audit) });
    },
  },
];
