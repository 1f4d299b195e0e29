// Users beyond list/search/show: several at once, the count, and the profile edits an agent makes (name, email,
// phone, notes, tags, organization...). An edit is a change to the requester's account, graded as such.
import { z } from "zod";
import { badRequest, recordInvalid } from "./errors";
import { fieldProblem, parseEnvelope, parseRecord, tagList, userId } from "./input";
import { userByEmail } from "./people";
import { countBody, ok, type Route } from "./route-kit";
import { isoSeconds, presentUser, type StoredUser } from "./shapes";
import { userArg } from "./ticket-lists";

const userEdit = z.looseObject({
  name: z.string().min(1).optional(),
  email: z.string().email().optional(),
  phone: z.string().nullable().optional(),
  alias: z.string().nullable().optional(),
  notes: z.string().nullable().optional(),
  details: z.string().nullable().optional(),
  external_id: z.string().nullable().optional(),
  time_zone: z.string().optional(),
  locale: z.string().optional(),
  tags: tagList.optional(),
  organization_id: userId.nullable().optional(),
});

const EDITABLE = ["name", "email", "phone", "alias", "notes", "details", "external_id", "time_zone", "locale", "tags", "organization_id"] as const;
/** Fields a user's profile carries that this twin does not let an edit change (reported, not silently dropped). */
const UNMODELED = ["role", "custom_role_id", "verified", "suspended", "user_fields", "signature", "default_group_id", "moderator", "ticket_restriction", "only_private_comments", "restricted_agent"];

export const USER_ROUTES: Route[] = [
  {
    method: "GET",
    pattern: ["users", "show_many"],
    handler: (ctx) => {
      const ids = (ctx.params.get("ids") ?? "").split(",").map((s) => s.trim()).filter((s) => /^\d+$/.test(s));
      if (ids.length > 100) throw badRequest("InvalidValue", "ids accepts at most 100 user ids");
      const users = ids.map((id) => ctx.store.get<StoredUser>("users", String(Number(id)))).filter((u): u is StoredUser => u !== null);
      return ok({ users: users.map((u) => presentUser(u, ctx.origin)), next_page: null, previous_page: null, count: users.length });
    },
  },
  { method: "GET", pattern: ["users", "count"], handler: (ctx) => ok(countBody(ctx.store.count("users"), ctx.store.now())) },
  {
    method: "PUT",
    pattern: ["users", ":user"],
    handler: (ctx, [arg]) => {
      const current = userArg(ctx, arg);
      const raw = parseEnvelope(ctx.body, "user");
      const edit = parseRecord(userEdit, raw);
      if (edit.email !== undefined) {
        const other = userByEmail(ctx.store, edit.email);
        if (other && other.id !== current.id) throw recordInvalid(fieldProblem("email", `${edit.email} is already being used by another user`, "DuplicateValue"));
      }
      if (edit.organization_id != null && !ctx.store.get("organizations", String(edit.organization_id)))
        throw recordInvalid(fieldProblem("organization_id", `organization ${edit.organization_id} does not exist`));
      const next: StoredUser = { ...current };
      for (const f of EDITABLE) if (edit[f] !== undefined) (next as Record<string, unknown>)[f] = f === "tags" ? [...new Set(edit.tags)] : edit[f];
      const unmodeled = UNMODELED.some((f) => f in raw && JSON.stringify(raw[f]) !== JSON.stringify((current as Record<string, unknown>)[f]));
      const changed = JSON.stringify(next) !== JSON.stringify(current);
      if (changed) {
        next.updated_at = isoSeconds(ctx.store.now());
        ctx.transact(() => ctx.store.update("users", current.id, next));
      }
      return ok({ user: presentUser(changed ? next : current, ctx.origin) }, unmodeled ? "unknown_parameter" : null);
    },
  },
];
