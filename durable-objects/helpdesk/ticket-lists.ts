// Listing tickets (ordering, filters) and resolving a user path argument: shared by every route table that lists
// a person's or an organization's tickets.
import type { TwinNote } from "../twin";
import { recordNotFound } from "./errors";
import { paginate, type Ordering } from "./pagination";
import { agentId, getUser } from "./people";
import { ok, type RouteContext, type RouteResult } from "./route-kit";
import { presentTicket, TICKET_STATUSES, type StoredTicket, type StoredUser } from "./shapes";

/** Ticket list ordering: `sort_by`/`sort_order` (offset) or `sort` with an optional leading "-" (cursor). */
function ticketOrdering(params: URLSearchParams): { ordering: Ordering<StoredTicket>; note: TwinNote } {
  let field: string | null = params.get("sort_by");
  let desc = params.get("sort_order") === "desc";
  const sort = params.get("sort");
  if (sort) {
    desc = sort.startsWith("-");
    field = sort.replace(/^-/, "");
  }
  const keys: Record<string, (t: StoredTicket) => Array<string | number>> = {
    id: (t) => [Number(t.id)],
    created_at: (t) => [t.created_at, Number(t.id)],
    updated_at: (t) => [t.updated_at, Number(t.id)],
    status: (t) => [TICKET_STATUSES.indexOf(t.status), Number(t.id)],
    priority: (t) => [t.priority ?? "", Number(t.id)],
    subject: (t) => [t.subject.toLowerCase(), Number(t.id)],
  };
  if (field && !(field in keys)) return { ordering: { key: keys.id, desc }, note: "unknown_parameter" };
  return { ordering: { key: keys[field ?? "id"], desc }, note: null };
}

export function listTickets(ctx: RouteContext, filter: (t: StoredTicket) => boolean = () => true): RouteResult {
  const { ordering, note } = ticketOrdering(ctx.params);
  const externalId = ctx.params.get("external_id");
  const tickets = ctx.store.list<StoredTicket>("tickets").filter((t) => filter(t) && (externalId === null || t.external_id === externalId));
  return ok(paginate("tickets", tickets, ordering, ctx.page, (t) => presentTicket(t, ctx.origin)), note);
}

export function userArg(ctx: RouteContext, arg: string): StoredUser {
  const id = arg === "me" ? agentId(ctx.store) : /^\d+$/.test(arg) ? Number(arg) : NaN;
  const u = Number.isNaN(id) ? null : getUser(ctx.store, id);
  if (!u) throw recordNotFound();
  return u;
}

