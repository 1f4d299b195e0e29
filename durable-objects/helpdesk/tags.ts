// Tags: a ticket's tags (GET, and the three writes: PUT adds, POST replaces, DELETE removes, each answering the
// tags the ticket ends with) and the account's tags by use. Every write goes through the ticket update rules, so
// it is audited, refused on a closed ticket and honours safe_update like any update.
import { z } from "zod";
import { badRequest } from "./errors";
import { bool, parseRecord, tagList, type TicketWrite } from "./input";
import { paginate } from "./pagination";
import { countBody, ok, type Route, type RouteContext, type RouteResult } from "./route-kit";
import type { StoredTicket } from "./shapes";
import { getTicket, updateTicket } from "./tickets";

const tagsBody = z.looseObject({ tags: tagList, safe_update: bool.optional(), updated_stamp: z.string().optional() });

function tagsInput(ctx: RouteContext): z.infer<typeof tagsBody> {
  let json: unknown = {};
  if (ctx.body.trim() !== "") {
    try {
      json = JSON.parse(ctx.body);
    } catch (e) {
      throw badRequest("InvalidJSON", `The request body is not valid JSON (${(e as Error).message}). Send {"tags": ["..."]}.`);
    }
  }
  // DELETE may name the tags in the query instead (?tags=a,b).
  if (typeof json === "object" && json !== null && !Array.isArray(json) && !Object.hasOwn(json, "tags") && ctx.params.has("tags"))
    json = { ...json, tags: ctx.params.get("tags") };
  if (typeof json !== "object" || json === null || Array.isArray(json) || !Object.hasOwn(json, "tags")) throw badRequest("ParameterMissing", "param is missing or the value is empty: tags");
  return parseRecord(tagsBody, json);
}

function writeTags(ctx: RouteContext, id: string, status: number, build: (tags: string[]) => TicketWrite): RouteResult {
  getTicket(ctx.store, id);
  const input = tagsInput(ctx);
  const { ticket } = ctx.transact(() => updateTicket(ctx.store, id, { ...build(input.tags), safe_update: input.safe_update, updated_stamp: input.updated_stamp }));
  return { status, body: { tags: ticket.tags } };
}

/** Tags by how many live tickets carry them, most used first, then by name. */
function accountTags(tickets: StoredTicket[]): Array<{ id: string; name: string; count: number }> {
  const counts = new Map<string, number>();
  for (const t of tickets) for (const tag of t.tags) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  const sorted = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  // The position is the sort key cursor pages resume from.
  return sorted.map(([name, count], i) => ({ id: String(i + 1), name, count }));
}

export const TAG_ROUTES: Route[] = [
  { method: "GET", pattern: ["tickets", ":id", "tags"], handler: (ctx, [id]) => ok({ tags: getTicket(ctx.store, id).tags }) },
  { method: "PUT", pattern: ["tickets", ":id", "tags"], handler: (ctx, [id]) => writeTags(ctx, id, 200, (tags) => ({ additional_tags: tags })) },
  { method: "POST", pattern: ["tickets", ":id", "tags"], handler: (ctx, [id]) => writeTags(ctx, id, 201, (tags) => ({ tags })) },
  { method: "DELETE", pattern: ["tickets", ":id", "tags"], handler: (ctx, [id]) => writeTags(ctx, id, 200, (tags) => ({ remove_tags: tags })) },
  {
    method: "GET",
    pattern: ["tags"],
    handler: (ctx) => {
      const tags = accountTags(ctx.store.list<StoredTicket>("tickets"));
      return ok(paginate("tags", tags, { key: (t) => [Number(t.id)], desc: false }, ctx.page, ({ name, count }) => ({ name, count })));
    },
  },
  { method: "GET", pattern: ["tags", "count"], handler: (ctx) => ok(countBody(accountTags(ctx.store.list<StoredTicket>("tickets")).length, ctx.store.now())) },
];
