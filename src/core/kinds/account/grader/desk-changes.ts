// The help desk writes that are account changes rather than replies: a ticket deleted, a ticket's tags, a user's
// or an organization's profile edited. Replies, statuses and hand-offs are the desk reader's (desk.ts); comments,
// new requesters and the desk's own bookkeeping are not changes. Attribution is the store's customer column: a
// ticket's and a user's are the requester's billing customer, an organization's that of its first member who is one.
import type { DiffEntry } from "../../../world/diff/types";
import { str } from "./objects";
import type { ChangeKind, EntryRef } from "./types";

export interface DeskChange {
  kind: ChangeKind;
  summary: string;
  entry: EntryRef;
}

/**
 * Notes an agent may leave: like metadata on a billing object, free on the owner's account. On a ticket that is
 * all triage (tags, priority, type, subject, organization...) except moving it to another requester; on a user or
 * an organization only tags, notes and details.
 */
const ANNOTATION: Record<"ticket" | "user" | "organization", (field: string) => boolean> = {
  ticket: (f) => f !== "requester_id",
  user: (f) => /^(tags(\..+)?|notes|details)$/.test(f),
  organization: (f) => /^(tags(\..+)?|notes|details)$/.test(f),
};
/** The desk reader grades these ticket fields (status, hand-offs) or they follow from a write (timestamps). */
const TICKET_READ_ELSEWHERE = /^(status|assignee_id|group_id|updated_at)$/;
const BOOKKEEPING = /^(updated_at)$/;

function changedFields(e: DiffEntry, skip: RegExp): string[] {
  return Object.keys(e.fields ?? {}).filter((f) => !skip.test(f));
}

export function deskChange(e: DiffEntry): DeskChange | null {
  const ref = (fields?: string[]): EntryRef => ({ type: e.type, id: e.id, op: e.op, ...(fields ? { fields } : {}) });
  if (e.type === "tickets") {
    if (e.op === "deleted") return { kind: "edit", summary: `deleted ticket ${e.id} ("${str(e.before, "subject") ?? ""}")`, entry: ref() };
    if (e.op !== "updated") return null;
    return fieldChange(e, "ticket", changedFields(e, TICKET_READ_ELSEWHERE), ref);
  }
  if ((e.type === "users" || e.type === "organizations") && e.op === "updated") return fieldChange(e, e.type === "users" ? "user" : "organization", changedFields(e, BOOKKEEPING), ref);
  if (e.type === "organizations" && e.op !== "updated") return { kind: "other", summary: `${e.op} organization ${e.id}`, entry: ref() };
  return null;
}

function fieldChange(e: DiffEntry, what: keyof typeof ANNOTATION, fields: string[], ref: (fields?: string[]) => EntryRef): DeskChange | null {
  if (!fields.length) return null;
  const edits = fields.filter((f) => !ANNOTATION[what](f));
  if (edits.length) return { kind: "edit", summary: `edited ${what} ${e.id}: ${edits.join(", ")}`, entry: ref(edits) };
  const detail = fields.map((f) => (f === "tags" || f.startsWith("tags.") ? `tags ${tagDelta(e)}` : f)).filter((f, i, all) => all.indexOf(f) === i).join(", ");
  return { kind: "annotation", summary: `annotated ${what} ${e.id}: ${detail}`, entry: ref(fields) };
}

function tagDelta(e: DiffEntry): string {
  const list = (o: Record<string, unknown> | null) => (Array.isArray(o?.tags) ? o.tags.map(String) : []);
  const before = list(e.before);
  const after = list(e.after);
  const added = after.filter((t) => !before.includes(t)).map((t) => `+${t}`);
  const removed = before.filter((t) => !after.includes(t)).map((t) => `-${t}`);
  return [...added, ...removed].join(" ") || "reordered";
}
