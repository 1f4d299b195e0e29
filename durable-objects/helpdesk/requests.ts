// Requests: tickets as their requester sees them. The world's key acts as an agent, so GET /requests lists the
// requests that agent made; any ticket can be shown as a request, and a request's comments are its public ones.
import { paginate, type Ordering } from "./pagination";
import { agentId } from "./people";
import { ok, type Route, type RouteContext } from "./route-kit";
import { apiBase, type StoredComment, type StoredTicket } from "./shapes";
import { commentsOf, getTicket } from "./tickets";
import { userArg } from "./ticket-lists";

const SOLVED = new Set(["solved", "closed"]);

export function presentRequest(t: StoredTicket, origin: string, viewer: number): Record<string, unknown> {
  return {
    id: Number(t.id),
    url: `${apiBase(origin)}/requests/${t.id}.json`,
    subject: t.subject,
    description: t.description,
    status: t.status,
    priority: t.priority,
    type: t.type,
    requester_id: t.requester_id,
    assignee_id: t.assignee_id,
    organization_id: t.organization_id,
    group_id: t.group_id,
    collaborator_ids: t.collaborator_ids ?? [],
    email_cc_ids: t.email_cc_ids ?? [],
    custom_fields: t.custom_fields ?? [],
    fields: t.fields ?? [],
    custom_status_id: t.custom_status_id ?? null,
    ticket_form_id: t.ticket_form_id ?? null,
    recipient: t.recipient ?? null,
    due_at: t.due_at ?? null,
    followup_source_id: null,
    is_public: t.is_public,
    via: t.via,
    // Only the requester (or a collaborator) can mark their own request solved.
    can_be_solved_by_me: t.requester_id === viewer && !SOLVED.has(t.status),
    solved: SOLVED.has(t.status),
    created_at: t.created_at,
    updated_at: t.updated_at,
  };
}

const ordering = (ctx: RouteContext): Ordering<StoredTicket> => {
  const desc = ctx.params.get("sort_order") === "desc";
  return ctx.params.get("sort_by") === "updated_at" ? { key: (t) => [t.updated_at, Number(t.id)], desc } : { key: (t) => [t.created_at, Number(t.id)], desc };
};

function listRequests(ctx: RouteContext, requester: number) {
  const statuses = (ctx.params.get("status") ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  const tickets = ctx.store.list<StoredTicket>("tickets").filter((t) => t.requester_id === requester && (statuses.length === 0 || statuses.includes(t.status)));
  const viewer = agentId(ctx.store);
  return ok(paginate("requests", tickets, ordering(ctx), ctx.page, (t) => presentRequest(t, ctx.origin, viewer)));
}

function presentRequestComment(c: StoredComment): Record<string, unknown> {
  return { id: Number(c.id), type: c.type, request_id: c.ticket_id, body: c.body, html_body: c.html_body, plain_body: c.plain_body, public: c.public, author_id: c.author_id, attachments: c.attachments, created_at: c.created_at };
}

export const REQUEST_ROUTES: Route[] = [
  { method: "GET", pattern: ["requests"], handler: (ctx) => listRequests(ctx, agentId(ctx.store)) },
  { method: "GET", pattern: ["requests", ":id"], handler: (ctx, [id]) => ok({ request: presentRequest(getTicket(ctx.store, id), ctx.origin, agentId(ctx.store)) }) },
  {
    method: "GET",
    pattern: ["requests", ":id", "comments"],
    handler: (ctx, [id]) => {
      const ticket = getTicket(ctx.store, id);
      const comments = commentsOf(ctx.store, Number(ticket.id)).filter((c) => c.public);
      const order: Ordering<StoredComment> = { key: (c) => [c.created_at, Number(c.id)], desc: ctx.params.get("sort_order") === "desc" };
      return ok(paginate("comments", comments, order, ctx.page, presentRequestComment));
    },
  },
  { method: "GET", pattern: ["users", ":user", "requests"], handler: (ctx, [arg]) => listRequests(ctx, Number(userArg(ctx, arg).id)) },
];
