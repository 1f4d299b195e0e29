// The help desk's directory and read-only helpers, in Zendesk's shapes: organizations, groups, ticket fields,
// macros (apply is a preview: nothing changes), requests, counts, audits and generated_timestamp.
import { describe, expect, it } from "vitest";
import { adminGet, createWorld, desk, DIRECTORY_SEED, json, ORIGIN } from "./helpdesk-world";

type Obj = Record<string, unknown>;

describe("help desk: directory", () => {
  it("lists and shows organizations, their users and tickets, by offset and by cursor", async () => {
    const w = await createWorld(DIRECTORY_SEED);
    const list = await json<{ organizations: Obj[]; count: number; next_page: string | null }>(await desk(w, "GET", "organizations.json"));
    expect(list.count).toBe(2);
    expect(list.organizations[0]).toMatchObject({ id: 11, url: `${ORIGIN}/api/v2/organizations/11.json`, name: "Jane Co", domain_names: ["jane.example.com"], tags: ["vip"], group_id: 7, shared_tickets: false });
    const cursor = await json<{ organizations: Obj[]; meta: { has_more: boolean }; links: { next: string | null } }>(await desk(w, "GET", "organizations.json?page[size]=1"));
    expect(cursor.organizations.map((o) => o.id)).toEqual([11]);
    expect(cursor.meta.has_more).toBe(true);
    expect(await json(await desk(w, "GET", "organizations/12.json"))).toMatchObject({ organization: { id: 12, name: "Shared Ops" } });
    expect((await desk(w, "GET", "organizations/99.json")).status).toBe(404);
    const users = await json<{ users: Obj[] }>(await desk(w, "GET", "organizations/11/users.json"));
    expect(users.users.map((u) => u.id)).toEqual([2]);
    // A ticket takes its requester's organization.
    const tickets = await json<{ tickets: Obj[] }>(await desk(w, "GET", "organizations/11/tickets.json"));
    expect(tickets.tickets.map((t) => t.id)).toEqual([101, 103, 105]);
    expect(await json(await desk(w, "GET", "organizations/count.json"))).toEqual({ count: { value: 2, refreshed_at: "2026-09-15T12:00:00Z" } });
    expect(await json(await desk(w, "GET", "organizations/search.json?external_id=acct-12"))).toMatchObject({ organizations: [{ id: 12 }] });
    expect(await json(await desk(w, "GET", "users/2/organizations.json"))).toMatchObject({ organizations: [{ id: 11 }] });
    expect(await json(await desk(w, "GET", "organizations/show_many.json?ids=12,99,11"))).toMatchObject({ organizations: [{ id: 12 }, { id: 11 }], count: 2 });
  });

  it("serves groups and ticket fields: the system fields first, then the custom ones", async () => {
    const w = await createWorld(DIRECTORY_SEED);
    expect(await json(await desk(w, "GET", "groups.json"))).toMatchObject({ groups: [{ id: 7, name: "Billing", default: false, deleted: false, url: `${ORIGIN}/api/v2/groups/7.json` }, { id: 8, name: "Tier 2" }], count: 2 });
    expect(await json(await desk(w, "GET", "groups/8.json"))).toMatchObject({ group: { id: 8, description: "Escalations" } });
    expect(await json(await desk(w, "GET", "groups/count.json"))).toMatchObject({ count: { value: 2 } });
    const fields = await json<{ ticket_fields: Obj[] }>(await desk(w, "GET", "ticket_fields.json"));
    expect(fields.ticket_fields.map((f) => f.type)).toEqual(["subject", "description", "status", "tickettype", "priority", "group", "assignee", "tagger"]);
    const plan = fields.ticket_fields[7];
    expect(plan).toMatchObject({ id: 900, title: "Plan", removable: true, custom_field_options: [{ name: "Starter", value: "plan_starter" }, { name: "Growth", value: "plan_growth" }] });
    expect(fields.ticket_fields[2]).toMatchObject({ removable: false, system_field_options: expect.arrayContaining([{ name: "Open", value: "open" }]) });
    expect(await json(await desk(w, "GET", "ticket_fields/900.json"))).toMatchObject({ ticket_field: { id: 900, url: `${ORIGIN}/api/v2/ticket_fields/900.json` } });
  });

  it("previews a macro's changes without writing anything", async () => {
    const w = await createWorld(DIRECTORY_SEED);
    const list = await json<{ macros: Obj[]; count: number }>(await desk(w, "GET", "macros.json"));
    expect(list.macros.map((m) => m.id)).toEqual([31, 32]);
    expect(await json(await desk(w, "GET", "macros/active.json"))).toMatchObject({ macros: [{ id: 31 }], count: 1 });
    expect(await json(await desk(w, "GET", "macros/search.json?query=refund"))).toMatchObject({ macros: [{ id: 31 }] });
    expect(await json(await desk(w, "GET", "macros/31.json"))).toMatchObject({ macro: { id: 31, title: "Refund issued", active: true, actions: expect.arrayContaining([{ field: "status", value: "solved" }]) } });
    const changes = await json<{ result: { ticket: Obj } }>(await desk(w, "GET", "macros/31/apply.json"));
    expect(changes.result.ticket).toEqual({
      status: "solved",
      group_id: 7,
      additional_tags: ["refunded"],
      comment: { body: "Hi {{ticket.requester.first_name}}, your refund is on its way.", public: true, scoped_body: [["channel:all", "Hi {{ticket.requester.first_name}}, your refund is on its way."]] },
    });
    const after = await json<{ result: { ticket: Obj } }>(await desk(w, "GET", "tickets/101/macros/31/apply.json"));
    expect(after.result.ticket).toMatchObject({ id: 101, url: `${ORIGIN}/api/v2/tickets/101.json`, status: "solved", group_id: 7, tags: ["billing", "refund", "refunded"], comment: { body: "Hi Jane, your refund is on its way.", public: true } });
    const before = await json<{ ticket: Obj }>(await desk(w, "GET", "tickets/101.json"));
    expect(before.ticket).toMatchObject({ status: "open", group_id: null, tags: ["billing", "refund"] });
    const diff = await adminGet<{ entries: unknown[] }>(`/admin/worlds/${w.id}/diff`);
    expect(diff.entries).toEqual([]);
    expect((await desk(w, "GET", "macros/99/apply.json")).status).toBe(404);
    expect((await desk(w, "GET", "tickets/999/macros/31/apply.json")).status).toBe(404);
  });

  it("shows tickets as requests and a request's public comments", async () => {
    const w = await createWorld(DIRECTORY_SEED);
    const req = await json<{ request: Obj }>(await desk(w, "GET", "requests/104.json"));
    expect(req.request).toMatchObject({ id: 104, url: `${ORIGIN}/api/v2/requests/104.json`, status: "pending", solved: false, can_be_solved_by_me: false, subject: "Invoice question" });
    const comments = await json<{ comments: Array<{ body: string; request_id: number }> }>(await desk(w, "GET", "requests/104/comments.json"));
    expect(comments.comments.map((c) => c.body)).toEqual(["Why is my invoice higher?", "Let me check."]);
    expect(comments.comments[0].request_id).toBe(104);
    const janes = await json<{ requests: Obj[] }>(await desk(w, "GET", "users/2/requests.json?status=open,solved"));
    expect(janes.requests.map((r) => r.id)).toEqual([101, 105]);
    expect(await json(await desk(w, "GET", "requests.json"))).toMatchObject({ requests: [], count: 0 });
  });

  it("counts tickets and carries generated_timestamp on every ticket", async () => {
    const w = await createWorld(DIRECTORY_SEED);
    expect(await json(await desk(w, "GET", "tickets/count.json"))).toEqual({ count: { value: 5, refreshed_at: "2026-09-15T12:00:00Z" } });
    const t = await json<{ ticket: { updated_at: string; generated_timestamp: number } }>(await desk(w, "GET", "tickets/104.json"));
    expect(t.ticket.generated_timestamp).toBe(Date.parse(t.ticket.updated_at) / 1000);
  });

  it("lists a seeded ticket's audits: its creation, then one per later comment", async () => {
    const w = await createWorld(DIRECTORY_SEED);
    const { audits } = await json<{ audits: Array<{ id: number; ticket_id: number; author_id: number; events: Obj[] }> }>(await desk(w, "GET", "tickets/104/audits.json"));
    expect(audits).toHaveLength(3);
    expect(audits[0].events.map((e) => e.type)).toEqual(["Comment", "Create", "Create", "Create", "Create"]);
    expect(audits[0].events.slice(1).map((e) => e.field_name)).toEqual(["subject", "status", "priority", "requester_id"]);
    expect(audits[2].events).toMatchObject([{ type: "Comment", public: false, body: "Internal: looks like proration." }]);
    const comments = await json<{ comments: Array<{ audit_id: number }> }>(await desk(w, "GET", "tickets/104/comments.json"));
    expect(comments.comments.map((c) => c.audit_id)).toEqual(audits.map((a) => a.id));
    expect(await json(await desk(w, "GET", `tickets/104/audits/${audits[1].id}.json`))).toMatchObject({ audit: { id: audits[1].id, ticket_id: 104 } });
    expect(await json(await desk(w, "GET", "tickets/104/audits/count.json"))).toMatchObject({ count: { value: 3 } });
    expect((await desk(w, "GET", "tickets/104/audits/1.json")).status).toBe(404);
  });
});
