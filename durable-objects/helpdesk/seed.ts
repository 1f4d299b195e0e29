// Seeding the help desk: the directory (groups, organizations, macros, ticket fields), users, the agent the
// world's key acts as, tickets and their comments, and an audit per seeded comment (the first one also records
// the ticket's creation). A ticket's first comment is its description, written by its requester. Requesters named
// by email become end users. Each ticket (and its comments, audits and requester) is attributed to the billing
// customer whose email is the requester's.
import type { SeedDocument, SeedTicket } from "../../src/core/world/seed/schema";
import type { SeedContext, SeedRow } from "../seed/rows";
import type { Store } from "../store/store";
import { seedDirectory } from "./directory";
import { commentBodies } from "./html";
import { AGENT_META, customerIdForEmail, newUserDoc } from "./people";
import { isoSeconds, ticketDefaults, unixOf, type StoredAudit, type StoredComment, type StoredTicket, type StoredUser, type Via } from "./shapes";
import { auditedChanges } from "./tickets";

function iso(value: string): string {
  return isoSeconds(unixOf(value));
}

function ticketCreatedAt(t: SeedTicket, clock: number): string {
  if (t.created_at !== undefined) return iso(t.created_at);
  return isoSeconds(clock + (t.created_offset ?? 0));
}

/**
 * The desk as its account seeds it, before any ticket: who the users are (by id and by first address) and the
 * agent. Tickets are seeded over it (seedHelpdeskTickets), so worlds that differ only in their tickets share it.
 */
export interface SeededDesk {
  users: ReadonlyMap<number, StoredUser>;
  byEmail: ReadonlyMap<string, StoredUser>;
  agent: StoredUser;
  maxUserId: number;
}

/** The whole desk: the account's part, then the tickets over it. */
export function seedHelpdesk(seed: SeedDocument, ctx: SeedContext, store: Store): SeedRow[] {
  const account = seedHelpdeskAccount(seed, ctx, store);
  return [...account.rows, ...seedHelpdeskTickets(seed, ctx, store, account.desk)];
}

/** The directory, the users and the agent: everything of the desk that does not read the seed's tickets. */
export function seedHelpdeskAccount(seed: SeedDocument, ctx: SeedContext, store: Store): { rows: SeedRow[]; desk: SeededDesk } {
  const d = seed.data;
  const clockIso = isoSeconds(ctx.clock);
  const rows: SeedRow[] = seedDirectory(seed, ctx.clock, store);
  const users = new Map<number, StoredUser>();
  const byEmail = new Map<string, StoredUser>();
  const maxUserId = Math.max(0, ...d.users.map((u) => u.id));
  const addUser = userAdder(seed, users, byEmail, rows);
  for (const u of [...d.users].sort((a, b) => a.id - b.id)) {
    const doc = newUserDoc(u.id, u.name, u.email, u.role ?? "end-user", u.created_at ? iso(u.created_at) : clockIso);
    doc.organization_id = u.organization_id ?? null;
    doc.tags = [...new Set(u.tags ?? [])];
    addUser(doc);
  }

  // The agent the world's key acts as: the seed's first agent or admin, else one named after the account.
  let agent = [...users.values()].find((u) => u.role === "agent" || u.role === "admin");
  if (!agent) {
    const email = seed.account?.support_email ?? `support@${seed.name}.example.com`;
    agent = newUserDoc(store.nextNumber("user", maxUserId), seed.account ? `${seed.account.name} Support` : "Support Agent", email, "agent", clockIso);
    addUser(agent);
  }
  store.setMeta(AGENT_META, agent.id);
  return { rows, desk: { users, byEmail, agent, maxUserId } };
}

function userAdder(seed: SeedDocument, users: Map<number, StoredUser>, byEmail: Map<string, StoredUser>, rows: SeedRow[]): (u: StoredUser) => void {
  return (u) => {
    users.set(Number(u.id), u);
    if (!byEmail.has(u.email.toLowerCase())) byEmail.set(u.email.toLowerCase(), u);
    rows.push({ type: "users", obj: u, customer: customerIdForEmail(seed.data.customers, u.email), created: unixOf(u.created_at) });
  };
}

/**
 * The seed's tickets over a desk its account seeded (the store's counters where the account left them): their
 * comments, the tickets, an audit per comment, and a user for each requester the desk did not know.
 */
export function seedHelpdeskTickets(seed: SeedDocument, ctx: SeedContext, store: Store, desk: SeededDesk): SeedRow[] {
  const d = seed.data;
  const clockIso = isoSeconds(ctx.clock);
  const customerOf = (email: string | null | undefined) => customerIdForEmail(d.customers, email);
  const rows: SeedRow[] = [];
  // Copies: a requester added here belongs to this seed's tickets, not to the shared account.
  const users = new Map(desk.users);
  const byEmail = new Map(desk.byEmail);
  const { agent, maxUserId } = desk;
  const addUser = userAdder(seed, users, byEmail, rows);

  const explicitCommentIds = d.tickets.flatMap((t) => (t.comments ?? []).map((c) => c.id ?? 0));
  const commentFloor = Math.max(0, ...explicitCommentIds);
  const supportAddress = agent.email;
  // Audits are built after every comment has its id, so the ids of their change events never shift comment ids.
  const pendingAudits: Array<{ ticket: StoredTicket; comments: StoredComment[]; customer: string | null }> = [];

  for (const t of d.tickets) {
    let requester: StoredUser;
    if (t.requester_id !== undefined) requester = users.get(t.requester_id)!;
    else {
      const email = t.requester!.email;
      const known = byEmail.get(email.toLowerCase());
      if (known) requester = known;
      else {
        requester = newUserDoc(store.nextNumber("user", maxUserId), t.requester!.name ?? email, email, "end-user", clockIso);
        addUser(requester);
      }
    }
    const customer = customerOf(requester.email);
    const createdAt = ticketCreatedAt(t, ctx.clock);
    const ticketVia: Via = { channel: "email", source: { from: { address: requester.email, name: requester.name }, to: { address: supportAddress, name: agent.name }, rel: null } };
    const comments: StoredComment[] = [];
    const addComment = (body: string, author: number, isPublic: boolean, at: string, id: number | undefined) => {
      const c: StoredComment = {
        id: String(id ?? store.nextNumber("event", commentFloor)),
        ticket_id: t.id,
        type: "Comment",
        author_id: author,
        ...commentBodies({ body }),
        public: isPublic,
        attachments: [],
        audit_id: store.nextNumber("audit"),
        via: author === Number(requester.id) ? ticketVia : { channel: "web", source: { from: {}, to: {}, rel: null } },
        metadata: { system: {}, custom: {} },
        created_at: at,
      };
      comments.push(c);
      rows.push({ type: "ticket_comments", obj: c, customer, created: unixOf(at) });
    };
    addComment(t.description, Number(requester.id), true, createdAt, undefined);
    // A comment without a time follows the one before it.
    for (const c of t.comments ?? [])
      addComment(c.body, c.author_id ?? Number(requester.id), c.public ?? true, c.created_at ? iso(c.created_at) : comments[comments.length - 1].created_at, c.id);

    const updatedAt = comments.map((c) => c.created_at).reduce((a, b) => (unixOf(b) > unixOf(a) ? b : a), createdAt);
    const ticket = {
      id: String(t.id),
      external_id: t.external_id ?? null,
      type: t.type ?? null,
      subject: t.subject,
      raw_subject: t.subject,
      description: comments[0].plain_body,
      priority: t.priority ?? null,
      status: t.status ?? "new",
      requester_id: Number(requester.id),
      submitter_id: Number(requester.id),
      assignee_id: t.assignee_id ?? null,
      tags: [...new Set(t.tags ?? [])],
      is_public: true,
      via: ticketVia,
      ...ticketDefaults(),
      group_id: t.group_id ?? null,
      organization_id: t.organization_id !== undefined ? t.organization_id : requester.organization_id,
      created_at: createdAt,
      updated_at: updatedAt,
    } as StoredTicket;
    rows.push({ type: "tickets", obj: ticket, customer, created: unixOf(createdAt) });
    pendingAudits.push({ ticket, comments, customer });
  }
  for (const { ticket, comments, customer } of pendingAudits)
    comments.forEach((c, i) => {
      const audit: StoredAudit = {
        id: String(c.audit_id),
        ticket_id: Number(ticket.id),
        created_at: c.created_at,
        author_id: c.author_id,
        metadata: { system: {}, custom: {} },
        via: c.via,
        events: [
          { id: Number(c.id), type: "Comment", author_id: c.author_id, body: c.body, html_body: c.html_body, plain_body: c.plain_body, public: c.public, attachments: [], audit_id: c.audit_id },
          ...(i === 0 ? auditedChanges(store, null, ticket, "Create") : []),
        ],
      };
      rows.push({ type: "ticket_audits", obj: audit, customer, created: unixOf(c.created_at) });
    });
  return rows;
}
