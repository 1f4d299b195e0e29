// The help desk's endpoints (Zendesk Support API v2 subset). Each handler reads or writes the store and returns
// the JSON body and status; service.ts turns errors into the API's envelopes and records notes.
import type { TwinNote } from "../twin";
import { AUDIT_ROUTES } from "./audit-routes";
import { badRequest, invalidAttribute, recordNotFound, unknownRoute } from "./errors";
import { DIRECTORY_ROUTES } from "./directory-routes";
import { parseTicketWrite } from "./input";
import { MACRO_ROUTES } from "./macros";
import { isCursorRequest, offsetPage, paginate, type Ordering } from "./pagination";
import { agentId, getUser, userByEmail } from "./people";
import { REQUEST_ROUTES } from "./requests";
import { byId, countBody, ok, type Route, type RouteContext, type RouteResult } from "./route-kit";
import { parseQuery, runSearch } from "./search";
import { presentComment, presentTicket, presentUser, TICKET_STATUSES, type StoredComment, type StoredTicket, type StoredUser } from "./shapes";
import { TAG_ROUTES } from "./tags";
import { listTickets, userArg } from "./ticket-lists";
import { commentsOf, createTicket, deleteTicket, deletedTickets, getTicket, updateTicket } from "./tickets";
import { USER_ROUTES } from "./users";

export type { RouteContext, RouteResult } from "./route-kit";

function ticketWrite(ctx: RouteContext, write: () => ReturnType<typeof updateTicket>, status: number): RouteResult {
  const { ticket, audit, unmodeled } = ctx.transact(write);
  return { status, body: { ticket: presentTicket(ticket, ctx.origin), audit }, note: unmodeled ? "unknown_parameter" : null };
}

function search(ctx: RouteContext, countOnly: boolean): RouteResult {
  if (isCursorRequest(ctx.params))
    throw invalidAttribute(400, "page must be an integer; search supports offset pagination only (page, per_page). Use /api/v2/search/export for cursor pagination.");
  const query = ctx.params.get("query") ?? "";
  if (query.trim() === "") throw invalidAttribute(400, "query must be present");
  const q = parseQuery(query);
  const store = ctx.store;
  const outcome = runSearch(q, {
    tickets: store.list<StoredTicket>("tickets"),
    users: store.list<StoredUser>("users"),
    comments: store.list<StoredComment>("ticket_comments"),
    agentId: agentId(store),
    now: store.now(),
  });
  const note: TwinNote = outcome.unknownKeys.length ? "unknown_parameter" : null;
  // Search's count is a bare number, unlike the {count: {value, refreshed_at}} of the other count endpoints.
  if (countOnly) return ok({ count: outcome.hits.length }, note);
  const perPage = Math.min(Number(ctx.params.get("per_page") ?? 100) || 100, 100);
  const pageNo = Math.max(1, Number(ctx.params.get("page") ?? 1) || 1);
  // Search serves at most 1,000 results per query; asking past them is refused.
  if ((pageNo - 1) * perPage >= 1000) throw invalidAttribute(422, "Search results are limited to 1000; narrow the query instead of paging further.");
  const page = offsetPage(outcome.hits, ctx.page, { maxResults: 1000 });
  const results = page.page.map((h) =>
    h.kind === "ticket" ? { ...presentTicket(h.obj as StoredTicket, ctx.origin), result_type: "ticket" } : { ...presentUser(h.obj as StoredUser, ctx.origin), result_type: "user" },
  );
  return ok({ results, facets: null, next_page: page.next_page, previous_page: page.previous_page, count: page.count }, note);
}

const TICKET_ROUTES: Route[] = [
  { method: "GET", pattern: ["tickets"], handler: (ctx) => listTickets(ctx) },
  { method: "GET", pattern: ["tickets", "count"], handler: (ctx) => ok(countBody(ctx.store.count("tickets"), ctx.store.now())) },
  {
    method: "GET",
    pattern: ["deleted_tickets"],
    handler: (ctx) => ok(paginate("deleted_tickets", deletedTickets(ctx.store), byId, ctx.page, (t) => ({ ...t, id: Number(t.id) }))),
  },
  {
    method: "POST",
    pattern: ["tickets"],
    handler: (ctx) => {
      const input = parseTicketWrite(ctx.body);
      return ticketWrite(ctx, () => createTicket(ctx.store, input), 201);
    },
  },
  {
    method: "GET",
    pattern: ["tickets", "show_many"],
    handler: (ctx) => {
      const ids = (ctx.params.get("ids") ?? "").split(",").map((s) => s.trim()).filter((s) => /^\d+$/.test(s));
      if (ids.length > 100) throw badRequest("InvalidValue", "ids accepts at most 100 ticket ids");
      const tickets = ids.map((id) => ctx.store.get<StoredTicket>("tickets", String(Number(id)))).filter((t): t is StoredTicket => t !== null);
      return ok({ tickets: tickets.map((t) => presentTicket(t, ctx.origin)), next_page: null, previous_page: null, count: tickets.length });
    },
  },
  { method: "GET", pattern: ["tickets", ":id"], handler: (ctx, [id]) => ok({ ticket: presentTicket(getTicket(ctx.store, id), ctx.origin) }) },
  {
    method: "PUT",
    pattern: ["tickets", ":id"],
    handler: (ctx, [id]) => {
      getTicket(ctx.store, id); // 404 before any body complaint, as the help desk answers
      const input = parseTicketWrite(ctx.body);
      return ticketWrite(ctx, () => updateTicket(ctx.store, id, input), 200);
    },
  },
  {
    method: "DELETE",
    pattern: ["tickets", ":id"],
    handler: (ctx, [id]) => {
      ctx.transact(() => deleteTicket(ctx.store, id));
      return { status: 204, body: null };
    },
  },
  {
    method: "GET",
    pattern: ["tickets", ":id", "comments"],
    handler: (ctx, [id]) => {
      const ticket = getTicket(ctx.store, id);
      const ordering: Ordering<StoredComment> = { key: (c) => [c.created_at, Number(c.id)], desc: ctx.params.get("sort_order") === "desc" };
      return ok(paginate("comments", commentsOf(ctx.store, Number(ticket.id)), ordering, ctx.page, presentComment));
    },
  },
  {
    method: "GET",
    pattern: ["users"],
    handler: (ctx) => {
      const roles = [...ctx.params.getAll("role"), ...ctx.params.getAll("role[]")];
      const users = ctx.store.list<StoredUser>("users").filter((u) => roles.length === 0 || roles.includes(u.role));
      return ok(paginate("users", users, byId, ctx.page, (u) => presentUser(u, ctx.origin)));
    },
  },
  {
    method: "GET",
    pattern: ["users", "search"],
    handler: (ctx) => {
      const email = ctx.params.get("email");
      const query = (ctx.params.get("query") ?? "").trim().toLowerCase();
      let users: StoredUser[];
      if (email !== null) users = [userByEmail(ctx.store, email)].filter((u): u is StoredUser => u !== null);
      else if (query) users = ctx.store.list<StoredUser>("users").filter((u) => u.email.toLowerCase() === query || u.name.toLowerCase().includes(query));
      else throw badRequest("InvalidValue", "users/search needs query or email");
      return ok(paginate("users", users, byId, ctx.page, (u) => presentUser(u, ctx.origin)));
    },
  },
  { method: "GET", pattern: ["users", ":user"], handler: (ctx, [id]) => ok({ user: presentUser(userArg(ctx, id), ctx.origin) }) },
  {
    method: "GET",
    pattern: ["users", ":user", "tickets", "requested"],
    handler: (ctx, [id]) => {
      const u = userArg(ctx, id);
      return listTickets(ctx, (t) => t.requester_id === Number(u.id));
    },
  },
  {
    method: "GET",
    pattern: ["users", ":user", "tickets", "assigned"],
    handler: (ctx, [id]) => {
      const u = userArg(ctx, id);
      return listTickets(ctx, (t) => t.assignee_id === Number(u.id));
    },
  },
  { method: "GET", pattern: ["search"], handler: (ctx) => search(ctx, false) },
  { method: "GET", pattern: ["search", "count"], handler: (ctx) => search(ctx, true) },
];

const ROUTES: Route[] = [...TICKET_ROUTES, ...AUDIT_ROUTES, ...TAG_ROUTES, ...USER_ROUTES, ...DIRECTORY_ROUTES, ...MACRO_ROUTES, ...REQUEST_ROUTES];

/** Path after /api/v2 as segments, with the optional .json suffix and trailing slash removed. */
export function pathSegments(path: string): string[] | null {
  const m = /^\/api\/v2\/(.*)$/.exec(path);
  if (!m) return null;
  let rest: string;
  try {
    rest = decodeURIComponent(m[1]);
  } catch {
    throw badRequest("InvalidPath", "The request path is not valid percent-encoding.");
  }
  rest = rest.replace(/\/+$/, "").replace(/\.json$/, "");
  return rest === "" ? [] : rest.split("/");
}

export function route(ctx: RouteContext, path: string): RouteResult {
  const segs = pathSegments(path);
  if (!segs) throw unknownRoute();
  for (const r of ROUTES) {
    if (r.pattern.length !== segs.length) continue;
    const args: string[] = [];
    const match = r.pattern.every((p, i) => {
      if (p === ":id" || p === ":user") {
        if (!(p === ":id" ? /^\d+$/ : /^(\d+|me)$/).test(segs[i])) return false;
        args.push(segs[i]);
        return true;
      }
      return p === segs[i];
    });
    if (!match) continue;
    if (r.method === ctx.method || (r.method === "GET" && ctx.method === "HEAD")) return r.handler(ctx, args);
  }
  // Known paths with a method this twin does not serve (DELETE /tickets/1...) are unknown routes too.
  throw unknownRoute();
}
