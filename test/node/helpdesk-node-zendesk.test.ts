// The unmodified node-zendesk client against a world on the real local server: it appends .json, asks for
// cursor pages (page[size]=100) on tickets and users, follows links.next verbatim when it starts with its
// endpointUri, and unwraps responses by resource key. A twin that breaks any of that breaks real agents.
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalServer, type LocalServer } from "../../src/cli/server/local";

const require = createRequire(import.meta.url);
// node-zendesk is CommonJS; its types are loose, so the few calls used here are typed locally.
interface ZendeskClient {
  tickets: {
    list(): Promise<Array<{ id: number; status: string }>>;
    show(id: number): Promise<{ result: { id: number; status: string; description: string } }>;
    update(id: number, body: unknown): Promise<{ result: { id: number; status: string } }>;
    getComments(id: number): Promise<Array<{ body: string; public: boolean }>>;
  };
  users: {
    auth(): Promise<{ result: { id: number; role: string } }>;
    show(id: number): Promise<{ result: { email: string; organization_id: number | null } }>;
    search(params: Record<string, string>): Promise<Array<{ id: number; email: string }>>;
    update(id: number, body: unknown): Promise<{ result: { id: number; notes: string } }>;
  };
  search: { query(q: string): Promise<{ result: Array<{ id: number; result_type: string }> }> };
}

// The rest of the desk as node-zendesk exposes it.
interface ZendeskDeskClient {
  tickets: {
    exportAudit(id: number): Promise<Array<{ id: number; events: Array<{ type: string; field_name?: string }> }>>;
    addTags(id: number, tags: unknown): Promise<unknown>;
    updateTags(id: number, tags: unknown): Promise<unknown>;
    show(id: number): Promise<{ result: { tags: string[]; generated_timestamp: number } }>;
    delete(id: number): Promise<unknown>;
  };
  ticketaudits: { list(id: number): Promise<Array<{ id: number }>>; count(id: number): Promise<{ result: { count: { value: number } } }> };
  macros: {
    list(): Promise<Array<{ id: number; title: string }>>;
    // The client unwraps by "macros" only, so a single macro comes back in its envelope.
    show(id: number): Promise<{ result: { macro: { id: number; title: string } } }>;
    apply(id: number): Promise<{ result: { result: { ticket: Record<string, unknown> } } }>;
    applyTicket(ticket: number, id: number): Promise<{ result: { result: { ticket: Record<string, unknown> } } }>;
  };
  // organizations.count is left out: the client reads .count off the array its getAll returns, so it is undefined
  // against any server; the count endpoint is tested over raw HTTP (test/worker/helpdesk-directory.test.ts).
  organizations: { list(): Promise<Array<{ id: number; name: string }>>; show(id: number): Promise<{ result: { name: string } }> };
  groups: { list(): Promise<Array<{ id: number; name: string }>>; show(id: number): Promise<{ result: { name: string } }> };
  ticketfields: { list(): Promise<Array<{ id: number; type: string }>>; show(id: number): Promise<{ result: { title: string } }> };
  requests: { show(id: number): Promise<{ result: { id: number; status: string } }> };
}
const zendesk = require("node-zendesk") as { createClient(opts: Record<string, unknown>): ZendeskClient };

let server: LocalServer;
let world: { id: string; key: string; zendesk_url: string };

const tickets = Array.from({ length: 130 }, (_, i) => ({
  id: 500 + i,
  subject: `Question ${i}`,
  description: `Body of question ${i}`,
  requester: { email: `person${i % 9}@example.com`, name: `Person ${i % 9}` },
  status: i === 3 ? ("closed" as const) : ("open" as const),
}));

beforeAll(async () => {
  server = await startLocalServer({});
  const res = await fetch(`${server.url}/admin/worlds`, {
    method: "POST",
    headers: { authorization: `Bearer ${server.token}`, "content-type": "application/json" },
    body: JSON.stringify({
      seed: {
        version: 1,
        name: "zd-client",
        clock: "2026-09-15T12:00:00Z",
        currency: "usd",
        data: {
          users: [
            { id: 1, name: "Ada Agent", email: "ada@example.com", role: "agent" },
            { id: 2, name: "Person Zero", email: "person0@example.com", organization_id: 70 },
          ],
          tickets,
          organizations: [{ id: 70, name: "Zero Corp", group_id: 60 }],
          groups: [{ id: 60, name: "Billing" }],
          macros: [{ id: 80, title: "Close it", actions: [{ field: "status", value: "solved" }, { field: "current_tags", value: "closed_by_macro" }, { field: "comment_value", value: "Hi {{ticket.requester.first_name}}, closing this." }] }],
          ticket_fields: [{ id: 90, type: "text", title: "Order number" }],
        },
      },
    }),
  });
  expect(res.status).toBe(201);
  world = (await res.json()) as typeof world;
});

afterAll(async () => {
  await server?.stop();
});

const deskClient = () => zendesk.createClient({ username: "ada@example.com", token: world.key, endpointUri: `${world.zendesk_url}/api/v2` }) as unknown as ZendeskDeskClient & ZendeskClient;

const client = () => zendesk.createClient({ username: "ada@example.com", token: world.key, endpointUri: `${world.zendesk_url}/api/v2` });

describe("node-zendesk against a world", () => {
  it("authenticates with email/token and lists every ticket across cursor pages", async () => {
    const c = client();
    const me = await c.users.auth();
    expect(me.result).toMatchObject({ id: 1, role: "agent" });
    const all = await c.tickets.list();
    expect(all).toHaveLength(130);
    expect(all[0].id).toBe(500);
    expect(all[129].id).toBe(629);
  });

  it("replies and solves a ticket, reads the comments back, and is refused on a closed ticket", async () => {
    const c = client();
    const updated = await c.tickets.update(510, { ticket: { comment: { body: "Done, thanks!", public: true }, status: "solved" } });
    expect(updated.result).toMatchObject({ id: 510, status: "solved" });
    const comments = await c.tickets.getComments(510);
    expect(comments.map((x) => x.body)).toEqual(["Body of question 10", "Done, thanks!"]);
    await expect(c.tickets.update(503, { ticket: { status: "open" } })).rejects.toThrow(/Zendesk Error \(422\)/);
    const search = await c.search.query("type:ticket status:solved");
    expect(search.result.map((r) => r.id)).toEqual([510]);
  });

  it("works with a Bearer token (oauth mode)", async () => {
    const c = zendesk.createClient({ token: world.key, oauth: true, endpointUri: `${world.zendesk_url}/api/v2` });
    const t = await c.tickets.show(500);
    expect(t.result).toMatchObject({ id: 500, status: "open", description: "Body of question 0" });
  });
});

describe("node-zendesk on the rest of the desk", () => {
  it("reads audits, writes tags with PUT (add) and POST (replace), and deletes a ticket", async () => {
    const c = deskClient();
    await c.tickets.addTags(520, { tags: ["vip"] });
    await c.tickets.updateTags(520, { tags: ["triaged", "vip"] });
    const t = await c.tickets.show(520);
    expect(t.result.tags).toEqual(["triaged", "vip"]);
    expect(typeof t.result.generated_timestamp).toBe("number");
    const audits = await c.tickets.exportAudit(520);
    expect(audits.map((a) => a.events.map((e) => e.field_name ?? e.type))).toEqual([["Comment", "subject", "status", "requester_id"], ["tags"], ["tags"]]);
    expect((await c.ticketaudits.list(520)).map((a) => a.id)).toEqual(audits.map((a) => a.id));
    expect((await c.ticketaudits.count(520)).result.count.value).toBe(3);
    await c.tickets.delete(521);
    await expect(c.tickets.show(521)).rejects.toThrow(/404/);
  });

  it("lists and previews macros, and reads organizations, groups, ticket fields, requests and users", async () => {
    const c = deskClient();
    expect((await c.macros.list()).map((m) => m.title)).toEqual(["Close it"]);
    expect((await c.macros.show(80)).result.macro.title).toBe("Close it");
    expect((await c.macros.apply(80)).result.result.ticket).toMatchObject({ status: "solved", additional_tags: ["closed_by_macro"] });
    const after = (await c.macros.applyTicket(500, 80)).result.result.ticket;
    expect(after).toMatchObject({ id: 500, status: "solved", comment: { body: "Hi Person, closing this.", public: true } });
    expect((await c.tickets.show(500)).result.tags).toEqual([]);
    expect((await c.organizations.list()).map((o) => o.name)).toEqual(["Zero Corp"]);
    expect((await c.organizations.show(70)).result.name).toBe("Zero Corp");
    expect((await c.groups.list()).map((g) => g.name)).toEqual(["Billing"]);
    expect((await c.groups.show(60)).result.name).toBe("Billing");
    const fields = await c.ticketfields.list();
    expect(fields.map((f) => f.type)).toEqual(["subject", "description", "status", "tickettype", "priority", "group", "assignee", "text"]);
    expect((await c.ticketfields.show(90)).result.title).toBe("Order number");
    expect((await c.requests.show(509)).result).toMatchObject({ id: 509, status: "open" });
    expect((await c.users.search({ query: "person0@example.com" })).map((u) => u.id)).toEqual([2]);
    expect((await c.users.show(2)).result.organization_id).toBe(70);
    expect((await c.users.update(2, { user: { notes: "Prefers email." } })).result).toMatchObject({ id: 2, notes: "Prefers email." });
  });
});
