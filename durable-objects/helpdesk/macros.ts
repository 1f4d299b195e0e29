// Macros: listed, shown, searched, and applied the way the help desk applies them, which is a preview only:
// GET /macros/:id/apply answers the changes the macro would make ({result: {ticket: {...}, comment}}), and
// GET /tickets/:id/macros/:id/apply the ticket as it would be after them. Nothing is written; an agent that wants
// the changes sends them back with PUT /tickets/:id. Placeholders in a macro's comment ({{ticket.requester.name}}...)
// are filled in against the ticket by plain substitution; nothing in a macro is executed.
import { recordNotFound } from "./errors";
import { paginate, type Ordering } from "./pagination";
import { agentId, getUser } from "./people";
import { ok, type Route, type RouteContext } from "./route-kit";
import { htmlToText } from "./html";
import { presentMacro, presentTicket, type MacroAction, type StoredMacro, type StoredTicket } from "./shapes";
import { getTicket } from "./tickets";

export interface MacroComment {
  body?: string;
  html_body?: string;
  public: boolean;
  scoped_body: Array<[string, string]>;
}

/** The ticket fields a macro sets, in the Tickets API's own names, and the comment it adds. */
export interface MacroChanges {
  fields: Record<string, unknown>;
  tags: { set?: string[]; add: string[]; remove: string[] };
  comment: MacroComment | null;
}

const words = (v: MacroAction["value"]): string[] =>
  (Array.isArray(v) ? v.map(String) : String(v ?? "").split(/[\s,]+/)).map((t) => t.trim()).filter(Boolean);

function scalar(v: MacroAction["value"]): string {
  return Array.isArray(v) ? String(v[v.length - 1] ?? "") : String(v ?? "");
}

/** Reads a macro's actions into the changes they make; `current_user` is the agent the world's key acts as. */
export function macroChanges(macro: StoredMacro, actor: number): MacroChanges {
  const out: MacroChanges = { fields: {}, tags: { add: [], remove: [] }, comment: null };
  let body: string | undefined;
  let html: string | undefined;
  let isPublic = true;
  for (const a of macro.actions) {
    switch (a.field) {
      case "status":
      case "priority":
      case "type":
      case "subject":
        out.fields[a.field] = scalar(a.value) || null;
        break;
      case "assignee_id":
      case "group_id": {
        const v = scalar(a.value);
        out.fields[a.field] = v === "current_user" ? actor : v === "" ? null : /^\d+$/.test(v) ? Number(v) : v;
        break;
      }
      case "set_tags":
        out.tags.set = words(a.value);
        break;
      case "current_tags":
        out.tags.add.push(...words(a.value));
        break;
      case "remove_tags":
        out.tags.remove.push(...words(a.value));
        break;
      case "comment_value":
        // The help desk writes a comment action as [channel, text] or as plain text.
        body = scalar(a.value);
        break;
      case "comment_value_html":
        html = scalar(a.value);
        break;
      case "comment_mode_is_public":
        isPublic = !(a.value === false || a.value === "false");
        break;
    }
  }
  if (body !== undefined || html !== undefined) {
    const text = body ?? "";
    out.comment = { ...(body !== undefined ? { body } : {}), ...(html !== undefined ? { html_body: html } : {}), public: isPublic, scoped_body: [["channel:all", text]] };
  }
  return out;
}

/** Fills the common placeholders from the ticket and the acting agent; unknown ones stay as written. */
function render(text: string, ticket: StoredTicket, ctx: RouteContext): string {
  const requester = getUser(ctx.store, ticket.requester_id);
  const me = getUser(ctx.store, agentId(ctx.store));
  const assignee = ticket.assignee_id === null ? null : getUser(ctx.store, ticket.assignee_id);
  const first = (name: string | undefined) => (name ?? "").split(/\s+/)[0] ?? "";
  const values: Record<string, string> = {
    "ticket.id": ticket.id,
    "ticket.title": ticket.subject,
    "ticket.status": ticket.status,
    "ticket.requester.name": requester?.name ?? "",
    "ticket.requester.first_name": first(requester?.name),
    "ticket.requester.email": requester?.email ?? "",
    "ticket.assignee.name": assignee?.name ?? "",
    "ticket.assignee.first_name": first(assignee?.name),
    "current_user.name": me?.name ?? "",
    "current_user.first_name": first(me?.name),
    "current_user.email": me?.email ?? "",
  };
  return text.replace(/\{\{\s*([a-z_.]+)\s*\}\}/g, (m, key: string) => (Object.hasOwn(values, key) ? values[key] : m));
}

function ticketlessResult(ch: MacroChanges): Record<string, unknown> {
  const ticket: Record<string, unknown> = { ...ch.fields };
  if (ch.tags.set) ticket.tags = ch.tags.set;
  if (ch.tags.add.length) ticket.additional_tags = ch.tags.add;
  if (ch.tags.remove.length) ticket.remove_tags = ch.tags.remove;
  if (ch.comment) ticket.comment = ch.comment;
  return { ticket };
}

function afterResult(ch: MacroChanges, ticket: StoredTicket, ctx: RouteContext): Record<string, unknown> {
  let tags = ch.tags.set ?? [...ticket.tags];
  for (const t of ch.tags.add) if (!tags.includes(t)) tags = [...tags, t];
  tags = tags.filter((t) => !ch.tags.remove.includes(t));
  const after = { ...presentTicket(ticket, ctx.origin), ...ch.fields, tags };
  if (!ch.comment) return { ticket: after };
  const c = ch.comment;
  const body = c.body !== undefined ? render(c.body, ticket, ctx) : undefined;
  const html = c.html_body !== undefined ? render(c.html_body, ticket, ctx) : undefined;
  const comment: MacroComment = { ...(body !== undefined ? { body } : {}), ...(html !== undefined ? { html_body: html } : {}), public: c.public, scoped_body: [["channel:all", body ?? htmlToText(html ?? "")]] };
  return { ticket: { ...after, comment } };
}

function getMacro(ctx: RouteContext, id: string): StoredMacro {
  const m = ctx.store.get<StoredMacro>("macros", String(Number(id)));
  if (!m) throw recordNotFound();
  return m;
}

function macroOrdering(ctx: RouteContext): Ordering<StoredMacro> {
  const desc = ctx.params.get("sort_order") === "desc";
  switch (ctx.params.get("sort_by")) {
    case "alphabetical":
      return { key: (m) => [m.title.toLowerCase(), Number(m.id)], desc };
    case "created_at":
      return { key: (m) => [m.created_at, Number(m.id)], desc };
    case "updated_at":
      return { key: (m) => [m.updated_at, Number(m.id)], desc };
    default:
      return { key: (m) => [m.position, Number(m.id)], desc };
  }
}

function listMacros(ctx: RouteContext, filter: (m: StoredMacro) => boolean) {
  const active = ctx.params.get("active");
  const macros = ctx.store.list<StoredMacro>("macros").filter((m) => filter(m) && (active === null || String(m.active) === active));
  return ok(paginate("macros", macros, macroOrdering(ctx), ctx.page, (m) => presentMacro(m, ctx.origin)));
}

export const MACRO_ROUTES: Route[] = [
  { method: "GET", pattern: ["macros"], handler: (ctx) => listMacros(ctx, () => true) },
  { method: "GET", pattern: ["macros", "active"], handler: (ctx) => listMacros(ctx, (m) => m.active) },
  {
    method: "GET",
    pattern: ["macros", "search"],
    handler: (ctx) => {
      const q = (ctx.params.get("query") ?? "").trim().toLowerCase();
      return listMacros(ctx, (m) => q === "" || m.title.toLowerCase().includes(q));
    },
  },
  { method: "GET", pattern: ["macros", ":id"], handler: (ctx, [id]) => ok({ macro: presentMacro(getMacro(ctx, id), ctx.origin) }) },
  { method: "GET", pattern: ["macros", ":id", "apply"], handler: (ctx, [id]) => ok({ result: ticketlessResult(macroChanges(getMacro(ctx, id), agentId(ctx.store))) }) },
  {
    method: "GET",
    pattern: ["tickets", ":id", "macros", ":id", "apply"],
    handler: (ctx, [ticketId, id]) => {
      const ticket = getTicket(ctx.store, ticketId);
      return ok({ result: afterResult(macroChanges(getMacro(ctx, id), agentId(ctx.store)), ticket, ctx) });
    },
  },
];
