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
  users: { auth(): Promise<{ result: { id: number; role: string } }>; show(id: number): Promise<{ result: { email: string } }> };
  search: { query(q: string): Promise<{ result: Array<{ id: number; result_type: string }> }> };
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
        data: { users: [{ id: 1, name: "Ada Agent", email: "ada@example.com", role: "agent" }], tickets },
      },
    }),
  });
  expect(res.status).toBe(201);
  world = (await res.json()) as typeof world;
});

afterAll(async () => {
  await server?.stop();
});

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
