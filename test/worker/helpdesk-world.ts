// A small help-desk world for the help desk twin's tests: four customers (two sharing a billing email), users,
// and tickets in every state an agent meets.
import { exports } from "cloudflare:workers";

export const ORIGIN = "http://twin.test";
const admin = { authorization: "Bearer test-token", "content-type": "application/json" };

export const HELPDESK_SEED = {
  version: 1,
  name: "desk-test",
  clock: "2026-09-15T12:00:00Z",
  currency: "usd",
  account: { name: "Acme", support_email: "support@acme.example.com" },
  data: {
    customers: [
      { id: "cus_B", email: "ops@shared.example.com", name: "Shared Two" },
      { id: "cus_A", email: "ops@shared.example.com", name: "Shared One" },
      { id: "cus_C", email: "jane@jane.example.com", name: "Jane Co" },
      { id: "cus_D", email: "nobody@else.example.com", name: "Other" },
    ],
    users: [
      { id: 1, name: "Ada Agent", email: "ada@acme.example.com", role: "agent" },
      { id: 2, name: "Jane Doe", email: "Jane@jane.example.com" },
    ],
    tickets: [
      { id: 101, subject: "Refund please", description: "I was charged twice.", requester_id: 2, status: "open", priority: "high", tags: ["billing", "refund"], created_offset: -7200 },
      { id: 102, subject: "Cancel my plan", description: "Please cancel at period end.", requester: { email: "ops@shared.example.com", name: "Ops Team" }, created_at: "2026-09-14T09:30:00Z", tags: ["cancel"] },
      { id: 103, subject: "Old issue", description: "Thanks, all good.", requester_id: 2, status: "closed", created_at: "2026-08-01T00:00:00Z" },
      {
        id: 104,
        subject: "Invoice question",
        description: "Why is my invoice higher?",
        requester: { email: "new.person@example.com" },
        status: "pending",
        priority: "low",
        created_offset: -3600,
        comments: [{ body: "Let me check.", author_id: 1, created_at: "2026-09-15T11:30:00Z" }, { body: "Internal: looks like proration.", author_id: 1, public: false }],
      },
      { id: 105, subject: "Solved one", description: "Works now", requester_id: 2, status: "solved", assignee_id: 1, tags: ["billing"], created_offset: -600 },
    ],
  },
};

/** The same desk with its directory: organizations, groups, macros and a custom ticket field. */
export const DIRECTORY_SEED = {
  ...HELPDESK_SEED,
  name: "desk-directory",
  data: {
    ...HELPDESK_SEED.data,
    users: [
      { id: 1, name: "Ada Agent", email: "ada@acme.example.com", role: "agent" },
      { id: 2, name: "Jane Doe", email: "Jane@jane.example.com", organization_id: 11 },
      { id: 3, name: "Ops Team", email: "ops@shared.example.com", organization_id: 12 },
    ],
    organizations: [
      { id: 11, name: "Jane Co", domain_names: ["jane.example.com"], tags: ["vip"], group_id: 7 },
      { id: 12, name: "Shared Ops", external_id: "acct-12", notes: "Two billing accounts share this address." },
    ],
    groups: [
      { id: 7, name: "Billing" },
      { id: 8, name: "Tier 2", description: "Escalations" },
    ],
    macros: [
      {
        id: 31,
        title: "Refund issued",
        actions: [
          { field: "status", value: "solved" },
          { field: "group_id", value: 7 },
          { field: "current_tags", value: "refunded" },
          { field: "comment_value", value: "Hi {{ticket.requester.first_name}}, your refund is on its way." },
        ],
      },
      { id: 32, title: "Escalate to tier 2", active: false, actions: [{ field: "group_id", value: 8 }, { field: "comment_mode_is_public", value: "false" }, { field: "comment_value", value: "Escalating." }] },
    ],
    ticket_fields: [{ id: 900, type: "tagger", title: "Plan", options: [{ name: "Starter", value: "plan_starter" }, { name: "Growth", value: "plan_growth" }] }],
  },
};

export interface TestWorld {
  id: string;
  key: string;
  zendesk_url: string;
}

export async function createWorld(seed: unknown = HELPDESK_SEED): Promise<TestWorld> {
  const res = await exports.default.fetch(new Request(`${ORIGIN}/admin/worlds`, { method: "POST", headers: admin, body: JSON.stringify({ seed }) }));
  if (res.status !== 201) throw new Error(`world creation failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as TestWorld;
}

export async function desk(world: TestWorld, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const init: RequestInit = { method, headers: { authorization: `Bearer ${world.key}`, ...headers } };
  if (body !== undefined) {
    init.body = typeof body === "string" ? body : JSON.stringify(body);
    (init.headers as Record<string, string>)["content-type"] = "application/json";
  }
  return exports.default.fetch(new Request(`${ORIGIN}/api/v2/${path}`, init));
}

export async function json<T = Record<string, unknown>>(res: Response): Promise<T> {
  return (await res.json()) as T;
}

export async function adminGet<T = unknown>(path: string): Promise<T> {
  const res = await exports.default.fetch(new Request(`${ORIGIN}${path}`, { headers: admin }));
  // Decoded by hand: .text() warns on content types that are not text/*, such as the trace's NDJSON.
  const text = new TextDecoder().decode(await res.arrayBuffer());
  if (res.headers.get("content-type")?.includes("ndjson")) return text.trim().split("\n").filter(Boolean).map((l) => JSON.parse(l)) as T;
  return JSON.parse(text) as T;
}
