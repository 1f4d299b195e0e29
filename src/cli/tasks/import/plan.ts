// Rows into tasks: each row's fields cleaned (HTML to text, priorities, tags, dates), filtered (--tag, --since,
// ids the file holds), its requester checked against the account, and every column no field took kept as
// metadata. Pure: the command does the reading and writing.
import { dict } from "../../../core/util/safe-tree";
import { parseExpectedLine } from "../../../core/kinds/account/tasks/expected";
import type { IdentityState } from "../../../core/kinds/account/tasks/identities";
import { resolveEmail } from "../../../core/kinds/account/tasks/identities";
import type { SeedIndex } from "../../../core/kinds/account/tasks/seed-index";
import { htmlToText, looksLikeHtml } from "./html";
import type { ColumnMapping, ImportField } from "./mapping";
import type { Cell, FlatRecord } from "./rows";
import { normalisePriority, normaliseTags, parseDate, type Priority } from "./values";

/** A metadata value is for the report, not a second copy of the conversation. */
export const METADATA_VALUE_MAX = 1000;
const SUBJECT_FROM_BODY_MAX = 80;

export interface ImportedTask {
  id?: string;
  requester: string;
  requester_name?: string;
  subject: string;
  body: string;
  priority?: Priority;
  tags?: string[];
  expected?: string;
  trap_class?: string;
  metadata?: Record<string, string | number | boolean>;
}

export interface ImportOptions {
  tag?: string;
  since?: Date;
  limit?: number;
  /** Pin every row on this (seed or mapped) email. */
  requester?: string;
  keepUnknown: boolean;
  /** Ids the tasks file already holds. */
  existingIds: Set<string>;
}

export interface ImportPlan {
  tasks: ImportedTask[];
  skipped: { duplicate: number; unknownRequester: number; unknownEmails: string[]; noRequester: number; empty: number; tag: number; since: number; noDate: number; limit: number };
  /** Rows whose outcome column was not a line of the expected grammar (kept in metadata instead). */
  outcomesNotInGrammar: number;
  /** Requesters turned into the seed's pseudonyms through the identity map. */
  mapped: number;
  /** True when the export has no body column, so bodies repeat subjects. */
  bodyFromSubject: boolean;
}

function text(cell: Cell | undefined): string {
  if (cell === null || cell === undefined) return "";
  if (Array.isArray(cell)) return cell.map((c) => (typeof c === "string" ? c : JSON.stringify(c))).join(", ");
  return String(cell).replace(/\r\n?/g, "\n").trim();
}

function plain(cell: Cell | undefined): string {
  const t = text(cell);
  return looksLikeHtml(t) ? htmlToText(t) : t;
}

function metadataValue(cell: Cell): string | number | boolean | null {
  if (cell === null || cell === "") return null;
  if (Array.isArray(cell)) {
    if (cell.length === 0) return null;
    const json = JSON.stringify(cell);
    return json.length > METADATA_VALUE_MAX ? `${json.slice(0, METADATA_VALUE_MAX - 1)}…` : json;
  }
  if (typeof cell === "string") {
    const t = cell.trim();
    if (t === "") return null;
    return t.length > METADATA_VALUE_MAX ? `${t.slice(0, METADATA_VALUE_MAX - 1)}…` : t;
  }
  return cell;
}

/** A subject for a row without one: the body's first line, cut at a word. */
function subjectFromBody(body: string): string {
  const first = body.split("\n").find((l) => l.trim() !== "")?.trim() ?? "";
  if (first.length <= SUBJECT_FROM_BODY_MAX) return first;
  const cut = first.slice(0, SUBJECT_FROM_BODY_MAX - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), 40))}…`;
}

/** Intercom's source.author is whoever wrote first: an admin or bot on outbound conversations, not the requester. */
function requesterIsStaff(rec: FlatRecord, column: string): boolean {
  if (!column.endsWith(".email")) return false;
  const type = rec[`${column.slice(0, -".email".length)}.type`];
  return typeof type === "string" && ["admin", "bot", "team", "operator"].includes(type.toLowerCase());
}

export function planImport(records: FlatRecord[], m: ColumnMapping, ix: SeedIndex, identities: IdentityState, opts: ImportOptions): ImportPlan {
  const f = m.fields;
  const col = (field: ImportField) => f[field];
  const plan: ImportPlan = {
    tasks: [],
    skipped: { duplicate: 0, unknownRequester: 0, unknownEmails: [], noRequester: 0, empty: 0, tag: 0, since: 0, noDate: 0, limit: 0 },
    outcomesNotInGrammar: 0,
    mapped: 0,
    bodyFromSubject: !col("body"),
  };
  const seenIds = new Set(opts.existingIds);
  const dated: Array<{ task: ImportedTask; created: number | null }> = [];

  for (const rec of records) {
    const get = (field: ImportField) => (col(field) ? rec[col(field)!] : undefined);
    const metadata: Record<string, string | number | boolean> = dict();
    for (const c of m.unmapped) {
      const v = metadataValue(rec[c]);
      if (v !== null) metadata[c] = v;
    }

    let body = plain(get("body"));
    let subject = plain(get("subject"));
    if (!subject && !body) {
      plan.skipped.empty += 1;
      continue;
    }
    if (!subject) subject = subjectFromBody(body);
    if (!body) body = subject;

    const tags = normaliseTags(get("tags"));
    if (opts.tag && !tags.some((t) => t.toLowerCase() === opts.tag!.toLowerCase())) {
      plan.skipped.tag += 1;
      continue;
    }

    const createdCell = get("created");
    const created = createdCell === undefined || createdCell === null || createdCell === "" ? null : parseDate(createdCell);
    if (col("created") && createdCell !== undefined && createdCell !== null && createdCell !== "") {
      // Kept for the report under the export's own column name, as a date whenever it reads as one.
      metadata[col("created")!] = created ? created.toISOString() : text(createdCell);
    }
    if (opts.since) {
      if (!created) {
        plan.skipped.noDate += 1;
        continue;
      }
      if (created.getTime() < opts.since.getTime()) {
        plan.skipped.since += 1;
        continue;
      }
    }

    const id = text(get("id"));
    if (id) {
      if (seenIds.has(id)) {
        plan.skipped.duplicate += 1;
        continue;
      }
    }

    // The requester: pinned, known to the seed, or known to the identity map (then the seed's pseudonym).
    let requester = opts.requester ?? "";
    let requesterName: string | undefined = col("requester_name") ? plain(get("requester_name")) || undefined : undefined;
    if (!opts.requester) {
      const c = col("requester");
      requester = c && !requesterIsStaff(rec, c) ? text(rec[c]) : "";
    }
    if (!requester) {
      plan.skipped.noRequester += 1;
      continue;
    }
    const who = resolveEmail(ix, identities, requester);
    if (who.customers.length === 0) {
      if (!opts.keepUnknown) {
        plan.skipped.unknownRequester += 1;
        if (!plan.skipped.unknownEmails.includes(requester)) plan.skipped.unknownEmails.push(requester);
        continue;
      }
    } else if (who.mapped) {
      requester = who.customers[0].email ?? requester;
      requesterName = who.customers[0].name ?? undefined;
      plan.mapped += 1;
    } else {
      requester = who.customers[0].email ?? requester;
      if (opts.requester) requesterName = who.customers[0].name ?? undefined;
    }

    // Key order is the order a person reads a task in: id, who, what.
    const task: ImportedTask = { ...(id ? { id } : {}), requester, ...(requesterName ? { requester_name: requesterName } : {}), subject, body };
    const prio = normalisePriority(get("priority"));
    if (prio === "unknown") metadata[col("priority")!] = text(get("priority"));
    else if (prio && prio !== "normal") task.priority = prio;
    if (tags.length) task.tags = tags;
    const outcome = text(get("expected"));
    if (outcome) {
      if (parseExpectedLine(outcome).ok) task.expected = outcome;
      else {
        metadata[col("expected")!] = outcome;
        plan.outcomesNotInGrammar += 1;
      }
    }
    const trap = text(get("trap_class"));
    if (trap) task.trap_class = trap;
    if (Object.keys(metadata).length) task.metadata = metadata;
    if (id) seenIds.add(id);
    dated.push({ task, created: created ? created.getTime() : null });
  }

  // Oldest first when every row has a date (the desk places tasks in file order, oldest first).
  const ordered = dated.every((d) => d.created !== null) ? [...dated].sort((a, b) => a.created! - b.created!) : dated;
  const limit = opts.limit ?? Infinity;
  plan.tasks = ordered.slice(0, limit).map((d) => d.task);
  plan.skipped.limit = Math.max(0, ordered.length - plan.tasks.length);
  return plan;
}
