// Working the help desk: finding tickets, reading them and their requesters, replying, internal notes, statuses.
// Reads and writes are the help desk API's own requests; a reply is a public comment, which is what the grader
// reads as the reply in shift mode.
import { z } from "zod";
import { TICKET_STATUSES } from "../../helpdesk/shapes";
import { accountTool, seg } from "./define";

const ticketId = z.number().int().min(1).describe("The ticket's id (a number).");
/** A ticket can be moved to any status but back to new. */
const SETTABLE = TICKET_STATUSES.filter((s) => s !== "new") as [string, ...string[]];
const status = z.enum(SETTABLE);
const PER_PAGE = 25;

export const listTickets = accountTool({
  name: "list_tickets",
  title: "List tickets",
  description: `Tickets on the desk, oldest first, ${PER_PAGE} a page: optionally only those with one status, or from one requester's email. Each ticket has its subject, description (the first message), status and requester_id (see get_user).`,
  effect: "read",
  args: z.strictObject({
    status: z.enum(TICKET_STATUSES).optional(),
    requester_email: z.string().min(3).max(512).optional(),
    page: z.number().int().min(1).max(40).optional().describe("Page number, from 1 (see has_more)."),
  }),
  // The desk's search filters by status and requester (the ticket list filters by neither).
  request: (a) => {
    // A quoted value cannot end the term early: the email is one search value whatever it holds.
    const requester = a.requester_email === undefined ? "" : ` requester:"${a.requester_email.replace(/"/g, "")}"`;
    const query = `type:ticket${a.status ? ` status:${a.status}` : ""}${requester} order_by:created_at sort:asc`;
    return { service: "helpdesk", method: "GET", path: "/api/v2/search.json", query: { query, page: a.page ?? 1, per_page: PER_PAGE } };
  },
  present: (r, a) => {
    const results = Array.isArray(r.results) ? (r.results as Array<Record<string, unknown>>) : [];
    const tickets = results.map(({ result_type: _type, ...t }) => t);
    return { tickets, count: r.count ?? tickets.length, page: a.page ?? 1, has_more: r.next_page !== null && r.next_page !== undefined };
  },
});

export const getTicket = accountTool({
  name: "get_ticket",
  title: "Get a ticket",
  description: "One ticket by id: subject, description, status, priority, tags, requester_id.",
  effect: "read",
  args: z.strictObject({ ticket: ticketId }),
  request: (a) => ({ service: "helpdesk", method: "GET", path: `/api/v2/tickets/${seg(a.ticket)}.json` }),
});

export const listComments = accountTool({
  name: "list_ticket_comments",
  title: "List a ticket's comments",
  description: "A ticket's conversation, oldest first: every comment with its body, whether it is public (seen by the requester) or an internal note, and its author.",
  effect: "read",
  args: z.strictObject({ ticket: ticketId }),
  request: (a) => ({ service: "helpdesk", method: "GET", path: `/api/v2/tickets/${seg(a.ticket)}/comments.json` }),
});

export const getUser = accountTool({
  name: "get_user",
  title: "Get a help desk user",
  description: "A help desk user (a ticket's requester_id, an author_id) by id: name and email. The email is how to find the requester's billing account (find_customers).",
  effect: "read",
  args: z.strictObject({ user: z.number().int().min(1).describe("The user's id.") }),
  request: (a) => ({ service: "helpdesk", method: "GET", path: `/api/v2/users/${seg(a.user)}.json` }),
});

const body = z.string().min(1).max(65_536);

export const replyToTicket = accountTool({
  name: "reply_to_ticket",
  title: "Reply to a ticket",
  description: "Post a public reply the requester reads, optionally setting the ticket's status in the same update (solved when done, pending when waiting on them, hold when a colleague must look). Answers the ticket.",
  effect: "write",
  hints: { destructive: false, idempotent: false },
  args: z.strictObject({ ticket: ticketId, body: body.describe("The reply, as the requester will read it."), status: status.optional() }),
  request: (a) => ({
    service: "helpdesk",
    method: "PUT",
    path: `/api/v2/tickets/${seg(a.ticket)}.json`,
    json: { ticket: { comment: { body: a.body, public: true }, ...(a.status ? { status: a.status } : {}) } },
  }),
});

export const addInternalNote = accountTool({
  name: "add_internal_note",
  title: "Add an internal note",
  description: "Add a note to a ticket that only agents see (the requester never does). Answers the ticket.",
  effect: "write",
  hints: { destructive: false, idempotent: false },
  args: z.strictObject({ ticket: ticketId, body: body.describe("The note.") }),
  request: (a) => ({ service: "helpdesk", method: "PUT", path: `/api/v2/tickets/${seg(a.ticket)}.json`, json: { ticket: { comment: { body: a.body, public: false } } } }),
});

export const setTicketStatus = accountTool({
  name: "set_ticket_status",
  title: "Set a ticket's status",
  description: "Set a ticket's status without a comment (open, pending, hold, solved, closed). Answers the ticket.",
  effect: "write",
  hints: { destructive: false, idempotent: true },
  args: z.strictObject({ ticket: ticketId, status }),
  request: (a) => ({ service: "helpdesk", method: "PUT", path: `/api/v2/tickets/${seg(a.ticket)}.json`, json: { ticket: { status: a.status } } }),
});

export const DESK_TOOLS = [listTickets, getTicket, listComments, getUser, replyToTicket, addInternalNote, setTicketStatus];
