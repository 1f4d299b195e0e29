// Ticket audits: the help desk's record of every write to a ticket (the comment it added, each field it changed).
// An audit is a consequence of the write, not a change of its own, so it is stored outside the change log: the
// world's diff shows the ticket and comment changes once, and the audit trail answers GET .../audits.
import type { Store } from "../store/store";
import type { Audit } from "./tickets";
import type { StoredAudit, StoredTicket } from "./shapes";
import { unixOf } from "./shapes";

export function recordAudit(store: Store, audit: Audit, customer: string | null): void {
  const doc: StoredAudit = { ...audit, id: String(audit.id) };
  store.seedInsert("ticket_audits", doc, customer, unixOf(audit.created_at));
}

/** A ticket's audits, oldest first. */
export function auditsOf(store: Store, ticket: StoredTicket): StoredAudit[] {
  const id = Number(ticket.id);
  return store
    .list<StoredAudit>("ticket_audits")
    .filter((a) => a.ticket_id === id)
    .sort((a, b) => Number(a.id) - Number(b.id));
}
