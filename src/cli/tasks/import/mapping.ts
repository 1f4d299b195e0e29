// Columns to task fields, by name: a column named like the field maps itself, then the synonyms help desks
// use; `--map field=column` overrides. Two columns equally good for one field are refused, never guessed.
import type { FlatRecord } from "./rows";

export const IMPORT_FIELDS = ["id", "requester", "requester_name", "subject", "body", "priority", "tags", "expected", "created", "trap_class"] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];

/** Column names (normalised: lower case, runs of space, _ and - as one _) each field answers to, best first. */
const SYNONYMS: Record<ImportField, string[]> = {
  id: ["ticket_id", "conversation_id", "ticket_#", "ticket_number", "conversation_api_id", "case_id", "case_number"],
  requester: ["requester_email", "customer_email", "email", "source.author.email", "requester.email", "contact_email", "contact_handle", "from"],
  requester_name: ["requester", "customer", "contact", "requester_name", "customer_name", "contact_name", "requester.name", "source.author.name"],
  subject: ["title", "summary"],
  body: ["description", "details", "message", "text", "source.body", "comment", "question", "extract"],
  priority: [],
  tags: ["labels", "tags.tags"],
  expected: ["expected_outcome", "outcome"],
  created: ["created_at", "opened", "date", "created_date", "opened_at", "message_date"],
  trap_class: [],
};

export function normaliseColumn(name: string): string {
  return name.trim().toLowerCase().replace(/[\s_-]+/g, "_");
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Whether most filled cells of a column are email addresses (requester columns must be; name columns must not). */
export function emailValued(records: FlatRecord[], column: string): boolean {
  let filled = 0;
  let emails = 0;
  for (const r of records) {
    const v = r[column];
    if (v === null || v === undefined || v === "") continue;
    filled += 1;
    if (typeof v === "string" && EMAIL.test(v.trim())) emails += 1;
  }
  return filled > 0 && emails * 2 >= filled;
}

export interface ColumnMapping {
  fields: Partial<Record<ImportField, string>>;
  /** Columns no field took, in the export's order: they go to each task's metadata. */
  unmapped: string[];
}

export type MappingResult = { ok: true; mapping: ColumnMapping } | { ok: false; message: string };

/** Parses `--map field=column[,field=column...]` (the flag may repeat). */
export function parseMapFlags(values: string[], columns: string[]): { ok: true; map: Partial<Record<ImportField, string>> } | { ok: false; message: string } {
  const map: Partial<Record<ImportField, string>> = {};
  for (const value of values) {
    for (const part of value.split(",")) {
      if (part.trim() === "") continue;
      const eq = part.indexOf("=");
      if (eq < 0) return { ok: false, message: `--map takes field=column pairs (got '${part}')` };
      const field = part.slice(0, eq).trim();
      const column = part.slice(eq + 1).trim().replace(/^"(.*)"$/, "$1");
      if (!(IMPORT_FIELDS as readonly string[]).includes(field)) return { ok: false, message: `--map: no field '${field}' (fields: ${IMPORT_FIELDS.join(", ")})` };
      const exact = columns.find((c) => c === column) ?? columns.find((c) => normaliseColumn(c) === normaliseColumn(column));
      if (!exact) return { ok: false, message: `--map ${field}=${column}: the export has no column '${column}' (columns: ${columns.join(", ")})` };
      map[field as ImportField] = exact;
    }
  }
  return { ok: true, map };
}

function quoteColumn(c: string): string {
  return /[\s,"]/.test(c) ? `"${c}"` : c;
}

export function mapColumns(columns: string[], records: FlatRecord[], overrides: Partial<Record<ImportField, string>>): MappingResult {
  const fields: Partial<Record<ImportField, string>> = { ...overrides };
  const taken = new Set(Object.values(overrides));
  const byNorm = columns.map((c) => ({ column: c, norm: normaliseColumn(c) }));
  const emaily = new Map(columns.map((c) => [c, emailValued(records, c)]));

  for (const field of IMPORT_FIELDS) {
    if (fields[field]) continue;
    // Tiers, best first: the field's own name, its synonyms, then (requester only) a name column holding emails.
    const tiers: string[][] = [[field], SYNONYMS[field]];
    if (field === "requester") tiers.push(SYNONYMS.requester_name);
    let chosen: string | null = null;
    for (const names of tiers) {
      const hits = byNorm
        .filter(({ column, norm }) => names.includes(norm) && !taken.has(column))
        .filter(({ column }) => (field === "requester" ? emaily.get(column) : field === "requester_name" ? !emaily.get(column) : true))
        .map(({ column }) => column);
      if (hits.length > 1) {
        const quoted = hits.map((h) => `'${h}'`);
        const listed = `${quoted.slice(0, -1).join(", ")} and ${quoted[quoted.length - 1]}`;
        return { ok: false, message: `columns ${listed} ${hits.length === 2 ? "both" : "all"} look like ${field}; choose one with --map ${field}=${quoteColumn(hits[0])}` };
      }
      if (hits.length === 1) {
        chosen = hits[0];
        break;
      }
    }
    if (chosen) (fields[field] = chosen), taken.add(chosen);
  }
  return { ok: true, mapping: { fields, unmapped: columns.filter((c) => !taken.has(c)) } };
}

/** `mapped: subject ← Subject, body ← Description; unmapped → metadata: Status, Assignee` */
export function describeMapping(m: ColumnMapping): string[] {
  const mapped = IMPORT_FIELDS.filter((f) => m.fields[f]).map((f) => `${f} ← ${m.fields[f]}`);
  const lines = [`mapped: ${mapped.join(", ") || "(nothing)"}`];
  if (m.unmapped.length) lines.push(`unmapped → metadata: ${m.unmapped.join(", ")}`);
  return lines;
}
