import { describe, expect, it } from "vitest";
import { createWorld, desk, json, ORIGIN } from "./helpdesk-world";

type Ticket = { id: number; status: string };

function manyTickets(n: number) {
  return Array.from({ length: n }, (_, i) => ({
    id: 1000 + i,
    subject: `Ticket ${i}`,
    description: `Body ${i}`,
    requester: { email: `user${i % 7}@example.com` },
    status: (["new", "open", "pending", "solved"] as const)[i % 4],
    created_offset: -100 * (n - i),
  }));
}

const bigSeed = (n: number) => ({ version: 1, name: "desk-many", clock: "2026-09-15T12:00:00Z", currency: "usd", data: { tickets: manyTickets(n) } });

describe("help desk: pagination", () => {
  it("pages by offset with absolute next/previous links and a total count", async () => {
    const w = await createWorld(bigSeed(5));
    const first = await json<{ tickets: Ticket[]; next_page: string | null; previous_page: string | null; count: number }>(await desk(w, "GET", "tickets.json?per_page=2"));
    expect(first.tickets.map((t) => t.id)).toEqual([1000, 1001]);
    expect(first.count).toBe(5);
    expect(first.previous_page).toBeNull();
    expect(first.next_page).toBe(`${ORIGIN}/api/v2/tickets.json?per_page=2&page=2`);
    const last = await json<{ tickets: Ticket[]; next_page: string | null; previous_page: string | null }>(await desk(w, "GET", "tickets.json?per_page=2&page=3"));
    expect(last.tickets.map((t) => t.id)).toEqual([1004]);
    expect(last.next_page).toBeNull();
    expect(last.previous_page).toBe(`${ORIGIN}/api/v2/tickets.json?per_page=2&page=2`);
    const sorted = await json<{ tickets: Ticket[] }>(await desk(w, "GET", "tickets.json?sort_by=created_at&sort_order=desc"));
    expect(sorted.tickets.map((t) => t.id)).toEqual([1004, 1003, 1002, 1001, 1000]);
  });

  it("refuses offset pages past the hundredth", async () => {
    const w = await createWorld(bigSeed(1));
    const res = await desk(w, "GET", "tickets.json?page=101");
    expect(res.status).toBe(400);
  });

  it("pages by cursor until links.next is null, and back with page[before]", async () => {
    const w = await createWorld(bigSeed(7));
    const seen: number[] = [];
    let url: string | null = `${ORIGIN}/api/v2/tickets.json?page[size]=3`;
    type CursorPage = { tickets: Ticket[]; meta: { has_more: boolean; after_cursor: string | null; before_cursor: string | null }; links: { next: string | null; prev: string | null } };
    const pages: CursorPage[] = [];
    while (url) {
      const path: string = url.slice(`${ORIGIN}/api/v2/`.length);
      const page: CursorPage = await json<CursorPage>(await desk(w, "GET", path));
      seen.push(...page.tickets.map((t) => t.id));
      pages.push(page);
      url = page.links.next;
      expect(pages.length).toBeLessThan(10);
    }
    expect(seen).toEqual([1000, 1001, 1002, 1003, 1004, 1005, 1006]);
    expect(pages.map((p) => p.meta.has_more)).toEqual([true, true, false]);
    expect(pages[0].links.prev).toBeNull();
    expect(pages[2].links.next).toBeNull();
    expect(pages[0].links.next).toMatch(new RegExp(`^${ORIGIN}/api/v2/tickets\\.json\\?`));
    // Back from the last page.
    const back = await json<{ tickets: Ticket[]; meta: { has_more: boolean } }>(
      await desk(w, "GET", `tickets.json?page[size]=3&page[before]=${pages[2].meta.before_cursor}`),
    );
    expect(back.tickets.map((t) => t.id)).toEqual([1003, 1004, 1005]);
    expect(back.meta.has_more).toBe(true);
  });

  it("answers an empty cursor page without links and refuses forged cursors", async () => {
    const w = await createWorld({ version: 1, name: "empty", clock: "2026-09-15T12:00:00Z", currency: "usd", data: {} });
    const page = await json<{ tickets: Ticket[]; meta: unknown; links: unknown }>(await desk(w, "GET", "tickets.json?page%5Bsize%5D=100"));
    expect(page).toEqual({ tickets: [], meta: { has_more: false, after_cursor: null, before_cursor: null }, links: { next: null, prev: null } });
    const forged = await desk(w, "GET", "tickets.json?page[size]=2&page[after]=not-a-cursor!");
    expect(forged.status).toBe(400);
  });
});

describe("help desk: search", () => {
  const ids = async (w: Awaited<ReturnType<typeof createWorld>>, query: string) => {
    const res = await desk(w, "GET", `search.json?query=${encodeURIComponent(query)}`);
    expect(res.status, query).toBe(200);
    const body = await json<{ results: Array<{ id: number; result_type: string }>; count: number; facets: unknown }>(res);
    return body.results.map((r) => `${r.result_type}:${r.id}`);
  };

  it("filters tickets by status, comparisons, requester, tags and free text", async () => {
    const w = await createWorld();
    expect(await ids(w, "type:ticket status:open")).toEqual(["ticket:101"]);
    expect(await ids(w, "type:ticket status:open status:new")).toEqual(["ticket:101", "ticket:102"]);
    expect(await ids(w, "type:ticket status<solved")).toEqual(["ticket:101", "ticket:102", "ticket:104"]);
    expect(await ids(w, "type:ticket status>=solved")).toEqual(["ticket:103", "ticket:105"]);
    expect(await ids(w, "type:ticket requester:jane@jane.example.com")).toEqual(["ticket:101", "ticket:103", "ticket:105"]);
    expect(await ids(w, "type:ticket requester:JANE@jane.example.com status:open")).toEqual(["ticket:101"]);
    expect(await ids(w, "type:ticket tags:billing")).toEqual(["ticket:101", "ticket:105"]);
    expect(await ids(w, "type:ticket tags:billing -status:solved")).toEqual(["ticket:101"]);
    expect(await ids(w, "type:ticket priority>normal")).toEqual(["ticket:101"]);
    expect(await ids(w, "type:ticket assignee:none status<closed")).toEqual(["ticket:101", "ticket:102", "ticket:104"]);
    expect(await ids(w, "type:ticket assignee:me")).toEqual(["ticket:105"]);
    expect(await ids(w, 'type:ticket "charged twice"')).toEqual(["ticket:101"]);
    expect(await ids(w, "type:ticket proration")).toEqual(["ticket:104"]);
    expect(await ids(w, "type:ticket created>2026-09-14")).toEqual(["ticket:101", "ticket:104", "ticket:105"]);
    expect(await ids(w, "type:ticket created>3hours")).toEqual(["ticket:101", "ticket:104", "ticket:105"]);
    expect(await ids(w, "type:ticket order_by:created_at sort:desc")).toEqual(["ticket:105", "ticket:104", "ticket:101", "ticket:102", "ticket:103"]);
  });

  it("finds users and mixes result types without type:", async () => {
    const w = await createWorld();
    expect(await ids(w, "type:user email:jane@jane.example.com")).toEqual(["user:2"]);
    expect(await ids(w, "jane")).toEqual(["user:2"]);
    expect(await ids(w, "refund")).toEqual(["ticket:101"]);
  });

  it("pages search by offset only, and notes unknown properties", async () => {
    const w = await createWorld();
    const res = await json<{ results: unknown[]; next_page: string | null; count: number }>(await desk(w, "GET", "search.json?query=type%3Aticket&per_page=2"));
    expect(res.count).toBe(5);
    expect(res.results).toHaveLength(2);
    expect(res.next_page).toBe(`${ORIGIN}/api/v2/search.json?query=type%3Aticket&per_page=2&page=2`);
    const cursor = await desk(w, "GET", "search.json?query=type%3Aticket&page[size]=2");
    expect(cursor.status).toBe(400);
    expect(await cursor.json()).toMatchObject({ error: { title: "Invalid attribute" } });
    const unknown = await desk(w, "GET", "search.json?query=type%3Aticket%20organization%3Aacme");
    expect(((await unknown.json()) as { results: unknown[] }).results).toEqual([]);
    // Search's count is a bare number ({"count": N}), unlike the other count endpoints.
    const count = await json<{ count: number }>(await desk(w, "GET", "search/count.json?query=status%3Aopen"));
    expect(count).toEqual({ count: 1 });
  });
});

describe("help desk: users", () => {
  it("presents the agent the world's key acts as, users by id, and lists", async () => {
    const w = await createWorld();
    const me = await json<{ user: Record<string, unknown> }>(await desk(w, "GET", "users/me.json"));
    expect(me.user).toMatchObject({ id: 1, url: `${ORIGIN}/api/v2/users/1.json`, name: "Ada Agent", email: "ada@acme.example.com", role: "agent", active: true });
    const list = await json<{ users: Array<{ id: number; role: string }>; count: number }>(await desk(w, "GET", "users.json"));
    expect(list.users.map((u) => u.id)).toEqual([1, 2, 3, 4]);
    const agents = await json<{ users: Array<{ id: number }> }>(await desk(w, "GET", "users.json?role=agent"));
    expect(agents.users.map((u) => u.id)).toEqual([1]);
    const found = await json<{ users: Array<{ id: number }> }>(await desk(w, "GET", "users/search.json?query=jane%40jane.example.com"));
    expect(found.users.map((u) => u.id)).toEqual([2]);
    const requested = await json<{ tickets: Array<{ id: number }> }>(await desk(w, "GET", "users/2/tickets/requested.json"));
    expect(requested.tickets.map((t) => t.id)).toEqual([101, 103, 105]);
  });

  it("mints an agent named after the account when the seed has none", async () => {
    const w = await createWorld({
      version: 1,
      name: "no-agent",
      clock: "2026-09-15T12:00:00Z",
      currency: "usd",
      account: { name: "Globex", support_email: "help@globex.example.com" },
      data: { users: [{ id: 7, name: "Pat", email: "pat@example.com" }], tickets: [{ id: 1, subject: "Hi", description: "Hello", requester: { email: "sam@example.com", name: "Sam" } }] },
    });
    const me = await json<{ user: { id: number; name: string; email: string; role: string } }>(await desk(w, "GET", "users/me"));
    expect(me.user).toMatchObject({ id: 8, name: "Globex Support", email: "help@globex.example.com", role: "agent" });
    const t = await json<{ ticket: { requester_id: number } }>(await desk(w, "GET", "tickets/1"));
    expect(t.ticket.requester_id).toBe(9);
  });
});
