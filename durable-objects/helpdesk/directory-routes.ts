// Organizations, groups and ticket fields: read as the help desk lists them (cursor or offset pages), plus the
// organization edits an agent makes (notes, details, tags, name...), which the grader reads as account changes.
import { z } from "zod";
import { badRequest, recordInvalid, recordNotFound } from "./errors";
import { bool, fieldProblem, parseEnvelope, parseRecord, tagList, userId } from "./input";
import { paginate } from "./pagination";
import { byId, countBody, ok, type Route, type RouteContext } from "./route-kit";
import { isoSeconds, presentGroup, presentOrganization, presentTicketField, presentUser, type StoredGroup, type StoredOrganization, type StoredTicketField, type StoredUser } from "./shapes";
import { listTickets, userArg } from "./ticket-lists";

function getById<T extends { id: string }>(ctx: RouteContext, type: "organizations" | "groups" | "ticket_fields", id: string): T {
  const o = ctx.store.get(type, String(Number(id)));
  if (!o) throw recordNotFound();
  return o as unknown as T;
}

const orgEdit = z.looseObject({
  name: z.string().min(1).optional(),
  details: z.string().nullable().optional(),
  notes: z.string().nullable().optional(),
  external_id: z.string().nullable().optional(),
  domain_names: z.array(z.string()).optional(),
  tags: tagList.optional(),
  group_id: userId.nullable().optional(),
  shared_tickets: bool.optional(),
  shared_comments: bool.optional(),
});
const ORG_EDITABLE = ["name", "details", "notes", "external_id", "domain_names", "tags", "group_id", "shared_tickets", "shared_comments"] as const;

function showMany<T extends { id: string }>(ctx: RouteContext, type: "organizations", present: (o: T) => unknown): Record<string, unknown> {
  const ids = (ctx.params.get("ids") ?? "").split(",").map((s) => s.trim()).filter((s) => /^\d+$/.test(s));
  if (ids.length > 100) throw badRequest("InvalidValue", "ids accepts at most 100 ids");
  const found = ids.map((id) => ctx.store.get(type, String(Number(id)))).filter((o) => o !== null) as unknown as T[];
  return { [type]: found.map(present), next_page: null, previous_page: null, count: found.length };
}

const organizations = (ctx: RouteContext) => ctx.store.list<StoredOrganization>("organizations");

export const DIRECTORY_ROUTES: Route[] = [
  {
    method: "GET",
    pattern: ["organizations"],
    handler: (ctx) => ok(paginate("organizations", organizations(ctx), byId, ctx.page, (o) => presentOrganization(o, ctx.origin))),
  },
  { method: "GET", pattern: ["organizations", "count"], handler: (ctx) => ok(countBody(ctx.store.count("organizations"), ctx.store.now())) },
  { method: "GET", pattern: ["organizations", "show_many"], handler: (ctx) => ok(showMany<StoredOrganization>(ctx, "organizations", (o) => presentOrganization(o, ctx.origin))) },
  {
    method: "GET",
    pattern: ["organizations", "search"],
    handler: (ctx) => {
      const externalId = ctx.params.get("external_id");
      const name = ctx.params.get("name");
      if (externalId === null && name === null) throw badRequest("InvalidValue", "organizations/search needs external_id or name");
      const hits = organizations(ctx).filter((o) => (externalId === null || o.external_id === externalId) && (name === null || o.name.toLowerCase() === name.toLowerCase()));
      return ok(paginate("organizations", hits, byId, ctx.page, (o) => presentOrganization(o, ctx.origin)));
    },
  },
  {
    method: "GET",
    pattern: ["organizations", "autocomplete"],
    handler: (ctx) => {
      const name = (ctx.params.get("name") ?? "").trim().toLowerCase();
      if (name.length < 2) throw badRequest("InvalidValue", "name must have at least 2 characters");
      const hits = organizations(ctx).filter((o) => o.name.toLowerCase().startsWith(name));
      return ok(paginate("organizations", hits, byId, ctx.page, (o) => presentOrganization(o, ctx.origin)));
    },
  },
  { method: "GET", pattern: ["organizations", ":id"], handler: (ctx, [id]) => ok({ organization: presentOrganization(getById<StoredOrganization>(ctx, "organizations", id), ctx.origin) }) },
  {
    method: "PUT",
    pattern: ["organizations", ":id"],
    handler: (ctx, [id]) => {
      const current = getById<StoredOrganization>(ctx, "organizations", id);
      const edit = parseRecord(orgEdit, parseEnvelope(ctx.body, "organization"));
      if (edit.name !== undefined && organizations(ctx).some((o) => o.id !== current.id && o.name.toLowerCase() === edit.name!.toLowerCase()))
        throw recordInvalid(fieldProblem("name", "has already been taken", "DuplicateValue"));
      if (edit.group_id != null && !ctx.store.get("groups", String(edit.group_id))) throw recordInvalid(fieldProblem("group_id", `group ${edit.group_id} does not exist`));
      const next: StoredOrganization = { ...current };
      for (const f of ORG_EDITABLE) if (edit[f] !== undefined) (next as Record<string, unknown>)[f] = f === "tags" ? [...new Set(edit.tags)] : edit[f];
      if (JSON.stringify(next) === JSON.stringify(current)) return ok({ organization: presentOrganization(current, ctx.origin) });
      next.updated_at = isoSeconds(ctx.store.now());
      ctx.transact(() => ctx.store.update("organizations", current.id, next));
      return ok({ organization: presentOrganization(next, ctx.origin) });
    },
  },
  {
    method: "GET",
    pattern: ["organizations", ":id", "tickets"],
    handler: (ctx, [id]) => {
      const org = getById<StoredOrganization>(ctx, "organizations", id);
      return listTickets(ctx, (t) => t.organization_id === Number(org.id));
    },
  },
  {
    method: "GET",
    pattern: ["organizations", ":id", "users"],
    handler: (ctx, [id]) => {
      const org = getById<StoredOrganization>(ctx, "organizations", id);
      const users = ctx.store.list<StoredUser>("users").filter((u) => u.organization_id === Number(org.id));
      return ok(paginate("users", users, byId, ctx.page, (u) => presentUser(u, ctx.origin)));
    },
  },
  {
    method: "GET",
    pattern: ["users", ":user", "organizations"],
    handler: (ctx, [arg]) => {
      const u = userArg(ctx, arg);
      const orgs = u.organization_id === null ? [] : organizations(ctx).filter((o) => Number(o.id) === u.organization_id);
      return ok(paginate("organizations", orgs, byId, ctx.page, (o) => presentOrganization(o, ctx.origin)));
    },
  },
  {
    method: "GET",
    pattern: ["groups"],
    handler: (ctx) => ok(paginate("groups", ctx.store.list<StoredGroup>("groups"), byId, ctx.page, (g) => presentGroup(g, ctx.origin))),
  },
  // Every group takes tickets here: the twin keeps no group memberships to narrow it by.
  {
    method: "GET",
    pattern: ["groups", "assignable"],
    handler: (ctx) => ok(paginate("groups", ctx.store.list<StoredGroup>("groups"), byId, ctx.page, (g) => presentGroup(g, ctx.origin))),
  },
  { method: "GET", pattern: ["groups", "count"], handler: (ctx) => ok(countBody(ctx.store.count("groups"), ctx.store.now())) },
  { method: "GET", pattern: ["groups", ":id"], handler: (ctx, [id]) => ok({ group: presentGroup(getById<StoredGroup>(ctx, "groups", id), ctx.origin) }) },
  {
    method: "GET",
    pattern: ["ticket_fields"],
    handler: (ctx) => {
      const fields = ctx.store.list<StoredTicketField>("ticket_fields");
      return ok(paginate("ticket_fields", fields, { key: (f) => [f.position, Number(f.id)], desc: false }, ctx.page, (f) => presentTicketField(f, ctx.origin)));
    },
  },
  { method: "GET", pattern: ["ticket_fields", "count"], handler: (ctx) => ok(countBody(ctx.store.count("ticket_fields"), ctx.store.now())) },
  { method: "GET", pattern: ["ticket_fields", ":id"], handler: (ctx, [id]) => ok({ ticket_field: presentTicketField(getById<StoredTicketField>(ctx, "ticket_fields", id), ctx.origin) }) },
];
