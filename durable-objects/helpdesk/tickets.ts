// Ticket rules: what an agent's update or new ticket does to the desk. Every write leaves a trail the way the help
// desk does: one audit per write whose events are the comment added (Comment) and each field changed (Change,
// or Create on a new ticket). Comments are their own stored objects so the world's diff shows them as created
// entries and the ticket's own fields as updates.
import type { Store } from "../store/store";
import { recordAudit } from "./audits";
import { HelpdeskError, recordInvalid, recordNotFound } from "./errors";
import { commentBodies } from "./html";
import { nextNumericId } from "./ids";
import { fieldProblem, UNMODELED_TICKET_FIELDS, type TicketWrite } from "./input";
import { agentId, customerForEmail, ensureRequester, getUser, userByEmail } from "./people";
import { isoSeconds, ticketDefaults, via, type StoredComment, type StoredTicket } from "./shapes";

/** Comments per ticket, as the help desk caps them. */
export const MAX_COMMENTS = 5000;

export interface AuditEvent {
  id: number;
  type: "Comment" | "Change" | "Create";
  [field: string]: unknown;
}

export interface Audit {
  id: number;
  ticket_id: number;
  created_at: string;
  author_id: number;
  metadata: { system: Record<string, unknown>; custom: Record<string, unknown> };
  via: ReturnType<typeof via>;
  events: AuditEvent[];
}

export interface WriteResult {
  ticket: StoredTicket;
  audit: Audit;
  /** True when the request carried changed values for fields this twin does not model (reported as a note). */
  unmodeled: boolean;
}

/** Fields whose changes become Change events, in the order the audit lists them. */
const AUDITED = ["subject", "status", "priority", "type", "tags", "assignee_id", "group_id", "organization_id", "requester_id", "external_id"] as const;

export function getTicket(store: Store, id: string): StoredTicket {
  if (!/^\d+$/.test(id)) throw recordNotFound();
  const t = store.get<StoredTicket>("tickets", String(Number(id)));
  if (!t) throw recordNotFound();
  return t;
}

export function commentsOf(store: Store, ticketId: number): StoredComment[] {
  return store.list<StoredComment>("ticket_comments").filter((c) => c.ticket_id === ticketId);
}

/** A group or organization the write names must exist on the desk. */
function requireDirectory(store: Store, input: TicketWrite): void {
  if (input.group_id != null && !store.get("groups", String(input.group_id))) throw recordInvalid(fieldProblem("group_id", `group ${input.group_id} does not exist`));
  if (input.organization_id != null && !store.get("organizations", String(input.organization_id)))
    throw recordInvalid(fieldProblem("organization_id", `organization ${input.organization_id} does not exist`));
}

function requireUser(store: Store, id: number, field: string): void {
  if (!getUser(store, id)) throw recordInvalid(fieldProblem(field, `user ${id} does not exist`, "InvalidValue"));
}

function normaliseTags(tags: string[]): string[] {
  const out: string[] = [];
  for (const t of tags.map((x) => x.trim()).filter(Boolean)) if (!out.includes(t)) out.push(t);
  return out;
}

function unmodeledChanged(input: TicketWrite, current: Record<string, unknown>): boolean {
  for (const f of UNMODELED_TICKET_FIELDS) {
    if (!(f in input)) continue;
    const cur = f in current ? current[f] : undefined;
    if (JSON.stringify(input[f]) !== JSON.stringify(cur)) return true;
  }
  return false;
}

function resolveAssignee(store: Store, input: TicketWrite): number | null | undefined {
  if (input.assignee_email !== undefined) {
    const u = userByEmail(store, input.assignee_email);
    if (!u || u.role === "end-user") throw recordInvalid(fieldProblem("assignee_id", `no agent with email ${input.assignee_email}`));
    return Number(u.id);
  }
  if (input.assignee_id === undefined || input.assignee_id === null) return input.assignee_id;
  const u = getUser(store, input.assignee_id);
  if (!u) throw recordInvalid(fieldProblem("assignee_id", `user ${input.assignee_id} does not exist`));
  if (u.role === "end-user") throw recordInvalid(fieldProblem("assignee_id", `${u.name} is not an agent and cannot be assigned tickets`));
  return input.assignee_id;
}

function newAudit(store: Store, ticketId: number, author: number): Audit {
  return {
    id: store.nextNumber("audit"),
    ticket_id: ticketId,
    created_at: isoSeconds(store.now()),
    author_id: author,
    metadata: { system: {}, custom: {} },
    via: via("api"),
    events: [],
  };
}

/** Builds (does not store) the comment the write adds, or null when it adds none. */
function commentFromInput(store: Store, input: TicketWrite, ticket: StoredTicket, auditId: number, actor: number): StoredComment | null {
  const c = input.comment;
  if (!c) return null;
  const hasText = (c.body ?? "").trim() !== "" || (c.html_body ?? "").trim() !== "";
  if (!hasText) throw recordInvalid(fieldProblem("comment", "cannot be blank", "BlankValue"));
  const author = c.author_id ?? actor;
  requireUser(store, author, "comment");
  const id = store.nextNumber("event");
  return {
    id: String(id),
    ticket_id: Number(ticket.id),
    type: "Comment",
    author_id: author,
    ...commentBodies(c),
    public: c.public ?? true,
    attachments: [],
    audit_id: auditId,
    via: via("api"),
    metadata: { system: {}, custom: {} },
    created_at: isoSeconds(store.now()),
  };
}

function commentEvent(c: StoredComment): AuditEvent {
  return {
    id: Number(c.id),
    type: "Comment",
    author_id: c.author_id,
    body: c.body,
    html_body: c.html_body,
    plain_body: c.plain_body,
    public: c.public,
    attachments: [],
    audit_id: c.audit_id,
  };
}

export function auditedChanges(store: Store, before: Record<string, unknown> | null, after: StoredTicket, type: "Change" | "Create"): AuditEvent[] {
  const events: AuditEvent[] = [];
  for (const f of AUDITED) {
    const prev = before ? before[f] : undefined;
    const next = after[f] as unknown;
    if (JSON.stringify(prev ?? null) === JSON.stringify(next ?? null)) continue;
    if (type === "Create" && (next === null || (Array.isArray(next) && next.length === 0))) continue;
    const value = typeof next === "number" ? String(next) : next;
    const event: AuditEvent = { id: store.nextNumber("event"), type, value, field_name: f };
    if (type === "Change") event.previous_value = typeof prev === "number" ? String(prev) : (prev ?? null);
    events.push(event);
  }
  return events;
}

/** PUT /tickets/:id: applies the agent's changes and comment as one audit. */
export function updateTicket(store: Store, id: string, input: TicketWrite): WriteResult {
  const current = getTicket(store, id);
  if (current.status === "closed")
    throw recordInvalid(fieldProblem("status", "closed prevents ticket update", "ClosedTicket"));
  if (input.safe_update && input.updated_stamp !== undefined && Date.parse(input.updated_stamp) !== Date.parse(current.updated_at))
    throw new HelpdeskError(409, {
      error: "UpdateConflict",
      description: "Safe Update prevented the update due to outdated ticket data. Please fetch the latest ticket data and try again.",
    });
  const actor = agentId(store);
  if (input.status === "new" && current.status !== "new")
    throw recordInvalid(fieldProblem("status", `cannot be changed from ${current.status} back to new`));
  if (input.requester_id !== undefined) requireUser(store, input.requester_id, "requester_id");
  const assignee = resolveAssignee(store, input);
  requireDirectory(store, input);

  const next: StoredTicket = { ...current, tags: [...current.tags] };
  if (input.subject !== undefined) {
    next.subject = input.subject;
    next.raw_subject = input.subject;
  }
  if (input.priority !== undefined) next.priority = input.priority;
  if (input.type !== undefined) next.type = input.type;
  if (input.external_id !== undefined) next.external_id = input.external_id;
  if (input.requester_id !== undefined) next.requester_id = input.requester_id;
  if (assignee !== undefined) next.assignee_id = assignee;
  if (input.group_id !== undefined) next.group_id = input.group_id;
  if (input.organization_id !== undefined) next.organization_id = input.organization_id;
  if (input.tags !== undefined) next.tags = normaliseTags(input.tags);
  if (input.additional_tags !== undefined) next.tags = normaliseTags([...next.tags, ...input.additional_tags]);
  if (input.remove_tags !== undefined) next.tags = next.tags.filter((t) => !input.remove_tags!.includes(t));
  if (input.status !== undefined) next.status = input.status;

  const audit = newAudit(store, Number(current.id), actor);
  const comment = commentFromInput(store, input, current, audit.id, actor);
  if (comment && commentsOf(store, Number(current.id)).length >= MAX_COMMENTS)
    throw recordInvalid(fieldProblem("comment", `a ticket holds at most ${MAX_COMMENTS} comments`, "TooManyComments"));
  const fieldsChanged = AUDITED.some((f) => JSON.stringify(current[f]) !== JSON.stringify(next[f]));
  // An agent's update takes a ticket out of New unless the update names a status itself.
  if (input.status === undefined && next.status === "new" && (comment || fieldsChanged)) next.status = "open";
  // Solving or closing needs an assignee; the help desk assigns the agent making the change.
  if ((next.status === "solved" || next.status === "closed") && next.assignee_id === null) next.assignee_id = actor;

  if (comment) {
    store.insert("ticket_comments", comment, currentCustomer(store, current));
    audit.events.push(commentEvent(comment));
  }
  audit.events.push(...auditedChanges(store, current, next, "Change"));
  if (audit.events.length > 0) {
    next.updated_at = isoSeconds(store.now());
    store.update("tickets", current.id, next);
    recordAudit(store, audit, currentCustomer(store, current));
  }
  return { ticket: next, audit, unmodeled: unmodeledChanged(input, current) };
}

/** The billing customer a ticket belongs to: its requester's. */
function currentCustomer(store: Store, ticket: StoredTicket): string | null {
  const requester = getUser(store, ticket.requester_id);
  return requester ? customerForEmail(store, requester.email) : null;
}

/** POST /tickets: a new ticket whose first comment is its description. */
export function createTicket(store: Store, input: TicketWrite): WriteResult {
  const actor = agentId(store);
  if (!input.comment) throw recordInvalid(fieldProblem("base", "Description: cannot be blank", "BlankValue"));
  let requesterId = actor;
  if (input.requester_id !== undefined) {
    requireUser(store, input.requester_id, "requester_id");
    requesterId = input.requester_id;
  } else if (input.requester) requesterId = Number(ensureRequester(store, input.requester.email, input.requester.name).id);
  const assignee = resolveAssignee(store, input) ?? null;
  requireDirectory(store, input);
  const id = nextNumericId(store, "ticket", "tickets");
  const now = isoSeconds(store.now());
  const shell: StoredTicket = {
    id: String(id),
    external_id: input.external_id ?? null,
    type: input.type ?? null,
    subject: "",
    raw_subject: "",
    description: "",
    priority: input.priority ?? null,
    status: input.status ?? (assignee !== null ? "open" : "new"),
    requester_id: requesterId,
    submitter_id: actor,
    assignee_id: assignee,
    tags: normaliseTags([...(input.tags ?? []), ...(input.additional_tags ?? [])]),
    is_public: true,
    via: via("api"),
    ...ticketDefaults(),
    group_id: input.group_id ?? null,
    organization_id: input.organization_id !== undefined ? input.organization_id : (getUser(store, requesterId)?.organization_id ?? null),
    created_at: now,
    updated_at: now,
  } as StoredTicket;
  const audit = newAudit(store, id, actor);
  const comment = commentFromInput(store, input, shell, audit.id, actor)!;
  const subject = input.subject ?? comment.plain_body.split("\n")[0].slice(0, 80);
  const ticket: StoredTicket = { ...shell, subject, raw_subject: subject, description: comment.plain_body, is_public: comment.public };
  if ((ticket.status === "solved" || ticket.status === "closed") && ticket.assignee_id === null) ticket.assignee_id = actor;
  const customer = currentCustomer(store, ticket);
  store.insert("tickets", ticket, customer);
  store.insert("ticket_comments", comment, customer);
  audit.events.push(commentEvent(comment), ...auditedChanges(store, null, ticket, "Create"));
  recordAudit(store, audit, customer);
  return { ticket, audit, unmodeled: unmodeledChanged(input, ticketDefaults()) };
}

/** What the desk keeps of a deleted ticket: its Deleted Tickets entry. */
export interface DeletedTicket {
  id: string;
  subject: string;
  actor: { id: number; name: string };
  previous_state: string;
  deleted_at: string;
  [field: string]: unknown;
}

/**
 * DELETE /tickets/:id: the ticket leaves every list, search and lookup (404 from then on); its comments stay with
 * it. The stored stub is the Deleted Tickets entry.
 */
export function deleteTicket(store: Store, id: string): void {
  const ticket = getTicket(store, id);
  const actor = getUser(store, agentId(store));
  const stub: DeletedTicket = {
    id: ticket.id,
    subject: ticket.subject,
    actor: { id: Number(actor?.id ?? 0), name: actor?.name ?? "" },
    previous_state: ticket.status,
    deleted_at: isoSeconds(store.now()),
  };
  store.remove("tickets", ticket.id, stub);
}

export function deletedTickets(store: Store): DeletedTicket[] {
  return store
    .list("tickets", { includeDeleted: true })
    .filter((t) => store.isDeleted("tickets", t.id))
    .map((t) => t as DeletedTicket);
}
