// What the agent left on the help desk for one ticket: the comments it added (public ones are replies, private
// ones are internal notes), the ticket's final status, and the hand-off signals (status, note, reassignment).
import type { WorldDiff } from "../../../world/diff/types";
import { isObj, str, type Obj, type WorldObjects } from "./objects";
import type { EntryRef } from "./types";

export interface DeskComment {
  id: string;
  body: string;
  public: boolean;
}

export interface DeskView {
  comments: DeskComment[];
  /** The ticket's status at the end (null when the grader cannot see the ticket). */
  status: string | null;
  /** Reassigned to another agent or group. */
  reassigned: boolean;
  entries: EntryRef[];
}

const sameTicket = (v: unknown, ticket: number) => (typeof v === "number" || typeof v === "string") && String(v) === String(ticket);

export function readDesk(diff: WorldDiff, ticket: number, objects: WorldObjects = {}): DeskView {
  const comments: DeskComment[] = [];
  const entries: EntryRef[] = [];
  for (const e of diff.entries) {
    if (e.type !== "ticket_comments" || e.op !== "created" || !e.after) continue;
    if (!sameTicket(e.after.ticket_id ?? e.after.ticket, ticket)) continue;
    comments.push({ id: e.id, body: commentText(e.after), public: e.after.public !== false });
    entries.push({ type: e.type, id: e.id, op: e.op });
  }
  const entry = diff.entries.find((e) => e.type === "tickets" && sameTicket(e.id, ticket));
  let status: string | null = null;
  let reassigned = false;
  if (entry) {
    const now = entry.after ?? entry.before;
    status = str(now, "status");
    // Solving assigns the solver when nobody was assigned, so only a move between two assignees (or groups) counts.
    const moved = (f: string) => entry.fields?.[f] !== undefined && entry.fields[f].before !== null && entry.fields[f].before !== entry.fields[f].after;
    reassigned = moved("assignee_id") || entry.fields?.group_id !== undefined;
    entries.push({ type: entry.type, id: entry.id, op: entry.op, ...(entry.fields ? { fields: Object.keys(entry.fields) } : {}) });
    // Comments kept inside the ticket document (a desk that embeds them) count the same as comment objects.
    if (!comments.length && entry.after && Array.isArray(entry.after.comments)) {
      const seen = new Set((Array.isArray(entry.before?.comments) ? entry.before.comments : []).filter(isObj).map((c) => String(c.id ?? c.body)));
      for (const c of entry.after.comments.filter(isObj)) {
        if (seen.has(String(c.id ?? c.body))) continue;
        comments.push({ id: String(c.id ?? ""), body: commentText(c), public: c.public !== false });
      }
    }
  } else {
    const known = (objects.tickets ?? []).find((t) => sameTicket(t.id, ticket));
    status = str(known, "status");
  }
  return { comments, status, reassigned, entries };
}

function commentText(c: Obj): string {
  return str(c, "plain_body") ?? str(c, "body") ?? htmlToText(str(c, "html_body") ?? "");
}

function htmlToText(html: string): string {
  return html.replace(/<br\s*\/?>/gi, "\n").replace(/<\/p>/gi, "\n").replace(/<[^>]+>/g, "").replace(/&nbsp;/g, " ").replace(/&amp;/g, "&").trim();
}

