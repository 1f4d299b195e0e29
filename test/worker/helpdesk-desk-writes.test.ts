// The help desk writes beyond replies: tags (PUT adds, POST replaces, DELETE removes), ticket delete, group and
// organization on a ticket, user and organization edits. Each is audited where the desk audits it and lands in the
// world's diff, attributed to the requester's billing customer.
import { describe, expect, it } from "vitest";
import { adminGet, createWorld, desk, DIRECTORY_SEED, json } from "./helpdesk-world";

type DiffEntry = { type: string; id: string; op: string; customer: string | null; fields?: Record<string, { before: unknown; after: unknown }> };

describe("help desk: tag writes", () => {
  it("adds with PUT, replaces with POST and removes with DELETE, answering the tags the ticket ends with", async () => {
    const w = await createWorld(DIRECTORY_SEED);
    expect(await json(await desk(w, "GET", "tickets/101/tags.json"))).toEqual({ tags: ["billing", "refund"] });
    const added = await desk(w, "PUT", "tickets/101/tags.json", { tags: ["vip", "billing"] });
    expect(added.status).toBe(200);
    expect(await added.json()).toEqual({ tags: ["billing", "refund", "vip"] });
    const set = await desk(w, "POST", "tickets/101/tags.json", { tags: ["triaged"] });
    expect(set.status).toBe(201);
    expect(await set.json()).toEqual({ tags: ["triaged"] });
    expect(await json(await desk(w, "DELETE", "tickets/101/tags.json", { tags: ["triaged"] }))).toEqual({ tags: [] });
    await desk(w, "PUT", "tickets/101/tags.json", { tags: "a b" });
    expect(await json(await desk(w, "DELETE", "tickets/101/tags.json?tags=a"))).toEqual({ tags: ["b"] });
    const audits = await json<{ audits: Array<{ events: Array<{ type: string; field_name?: string; value?: unknown; previous_value?: unknown }> }> }>(await desk(w, "GET", "tickets/101/audits.json"));
    expect(audits.audits.slice(1).map((a) => a.events[0])).toMatchObject([
      { type: "Change", field_name: "tags", value: ["billing", "refund", "vip"], previous_value: ["billing", "refund"] },
      { type: "Change", field_name: "tags", value: ["triaged"] },
      { type: "Change", field_name: "tags", value: [] },
      { type: "Change", field_name: "tags", value: ["a", "b"] },
      { type: "Change", field_name: "tags", value: ["b"] },
    ]);
    const diff = await adminGet<{ entries: DiffEntry[] }>(`/admin/worlds/${w.id}/diff`);
    expect(diff.entries).toHaveLength(1);
    expect(diff.entries[0]).toMatchObject({ type: "tickets", id: "101", op: "updated", customer: "cus_C" });
  });

  it("refuses tag writes on a closed ticket, without tags, or with a stale updated_stamp", async () => {
    const w = await createWorld(DIRECTORY_SEED);
    const closed = await desk(w, "PUT", "tickets/103/tags.json", { tags: ["x"] });
    expect(closed.status).toBe(422);
    expect(await closed.json()).toMatchObject({ error: "RecordInvalid" });
    expect((await desk(w, "PUT", "tickets/101/tags.json", { labels: ["x"] })).status).toBe(400);
    expect((await desk(w, "PUT", "tickets/999/tags.json", { tags: ["x"] })).status).toBe(404);
    const stale = await desk(w, "PUT", "tickets/101/tags.json", { tags: ["x"], safe_update: true, updated_stamp: "2020-01-01T00:00:00Z" });
    expect(stale.status).toBe(409);
    expect(await json(await desk(w, "GET", "tickets/101/tags.json"))).toEqual({ tags: ["billing", "refund"] });
  });
});

describe("help desk: deleting a ticket", () => {
  it("answers 204, then 404 everywhere, lists it in deleted_tickets and shows it deleted in the diff", async () => {
    const w = await createWorld(DIRECTORY_SEED);
    const res = await desk(w, "DELETE", "tickets/102.json");
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    expect((await desk(w, "GET", "tickets/102.json")).status).toBe(404);
    expect((await desk(w, "PUT", "tickets/102.json", { ticket: { status: "open" } })).status).toBe(404);
    expect((await desk(w, "DELETE", "tickets/102.json")).status).toBe(404);
    const list = await json<{ tickets: Array<{ id: number }> }>(await desk(w, "GET", "tickets.json"));
    expect(list.tickets.map((t) => t.id)).toEqual([101, 103, 104, 105]);
    expect(await json(await desk(w, "GET", "search/count.json?query=type%3Aticket"))).toEqual({ count: 4 });
    expect(await json(await desk(w, "GET", "deleted_tickets.json"))).toMatchObject({
      deleted_tickets: [{ id: 102, subject: "Cancel my plan", actor: { id: 1, name: "Ada Agent" }, previous_state: "new", deleted_at: "2026-09-15T12:00:00Z" }],
      count: 1,
    });
    const diff = await adminGet<{ entries: DiffEntry[] }>(`/admin/worlds/${w.id}/diff`);
    expect(diff.entries).toMatchObject([{ type: "tickets", id: "102", op: "deleted", customer: "cus_A" }]);
  });
});

describe("help desk: groups, organizations and profiles", () => {
  it("moves a ticket to a group (audited) and refuses groups and organizations that do not exist", async () => {
    const w = await createWorld(DIRECTORY_SEED);
    const moved = await json<{ ticket: { group_id: number }; audit: { events: Array<{ field_name: string; value: unknown; previous_value: unknown }> } }>(
      await desk(w, "PUT", "tickets/101.json", { ticket: { group_id: 8 } }),
    );
    expect(moved.ticket.group_id).toBe(8);
    expect(moved.audit.events).toMatchObject([{ field_name: "group_id", value: "8", previous_value: null }]);
    for (const ticket of [{ group_id: 77 }, { organization_id: 77 }]) {
      const res = await desk(w, "PUT", "tickets/101.json", { ticket });
      expect(res.status).toBe(422);
      expect(await res.json()).toMatchObject({ error: "RecordInvalid", details: { [Object.keys(ticket)[0]]: [{ error: "InvalidValue" }] } });
    }
    const created = await json<{ ticket: { organization_id: number | null } }>(
      await desk(w, "POST", "tickets.json", { ticket: { comment: { body: "Hello" }, requester_id: 2 } }),
    );
    expect(created.ticket.organization_id).toBe(11);
  });

  it("edits a user's and an organization's profile; both land in the diff on the requester's customer", async () => {
    const w = await createWorld(DIRECTORY_SEED);
    const user = await desk(w, "PUT", "users/2.json", { user: { phone: "+1 555 0100", notes: "Prefers email.", tags: ["vip"] } });
    expect(user.status).toBe(200);
    expect(await user.json()).toMatchObject({ user: { id: 2, phone: "+1 555 0100", notes: "Prefers email.", tags: ["vip"], updated_at: "2026-09-15T12:00:00Z" } });
    const taken = await desk(w, "PUT", "users/2.json", { user: { email: "ada@acme.example.com" } });
    expect(taken.status).toBe(422);
    expect(await taken.json()).toMatchObject({ details: { email: [{ error: "DuplicateValue" }] } });
    expect((await desk(w, "PUT", "users/99.json", { user: { name: "X" } })).status).toBe(404);
    const org = await desk(w, "PUT", "organizations/12.json", { organization: { details: "Two accounts.", tags: ["shared"] } });
    expect(await org.json()).toMatchObject({ organization: { id: 12, details: "Two accounts.", tags: ["shared"] } });
    const dup = await desk(w, "PUT", "organizations/12.json", { organization: { name: "jane co" } });
    expect(dup.status).toBe(422);
    expect((await desk(w, "PUT", "organizations/12.json", { org: {} })).status).toBe(400);
    const diff = await adminGet<{ entries: DiffEntry[] }>(`/admin/worlds/${w.id}/diff`);
    expect(diff.entries.map((e) => [e.type, e.id, e.op, e.customer, Object.keys(e.fields ?? {}).sort().join(",")])).toEqual([
      ["users", "2", "updated", "cus_C", "notes,phone,tags"],
      ["organizations", "12", "updated", "cus_A", "details,tags"],
    ]);
  });
});
