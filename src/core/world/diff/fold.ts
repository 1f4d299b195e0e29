import type { ChangeRecord, DiffCounts, DiffEntry, FieldChange, WorldDiff } from "./types";

/**
 * Folds a change log into one entry per object. An object created then deleted by the agent leaves no entry
 * (the world ends as it began for that object); an update whose fields all return to their seed values leaves
 * none either, so a grader never sees noise for round trips.
 */
export function foldChanges(
  changes: ChangeRecord[],
  meta: { world: string; seed: { name: string; hash: string }; clock: string },
): WorldDiff {
  const byKey = new Map<string, { first: ChangeRecord; last: ChangeRecord; requests: string[] }>();
  for (const c of [...changes].sort((a, b) => a.seq - b.seq)) {
    const key = `${c.type}\u0000${c.id}`;
    const cur = byKey.get(key);
    if (!cur) byKey.set(key, { first: c, last: c, requests: [c.request_id] });
    else {
      cur.last = c;
      if (cur.requests[cur.requests.length - 1] !== c.request_id) cur.requests.push(c.request_id);
    }
  }
  const entries: DiffEntry[] = [];
  const counts: DiffCounts = { created: {}, updated: {}, deleted: {} };
  for (const { first, last, requests } of byKey.values()) {
    const before = first.before;
    const after = last.after;
    let entry: DiffEntry | null = null;
    const base = { type: first.type, id: first.id, customer: last.customer ?? first.customer, request_ids: requests };
    if (before === null && after !== null) entry = { ...base, op: "created", before: null, after };
    else if (before !== null && after === null) entry = { ...base, op: "deleted", before, after: null };
    else if (before !== null && after !== null) {
      const fields = diffFields(before, after);
      if (Object.keys(fields).length > 0) entry = { ...base, op: "updated", before, after, fields };
    }
    if (entry) {
      entries.push(entry);
      counts[entry.op][entry.type] = (counts[entry.op][entry.type] ?? 0) + 1;
    }
  }
  return { ...meta, entries, counts };
}

/** Field-level differences as dotted paths; arrays compare whole (their elements have no stable key). */
export function diffFields(before: unknown, after: unknown, prefix = "", out: Record<string, FieldChange> = {}): Record<string, FieldChange> {
  if (isPlainObject(before) && isPlainObject(after)) {
    const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
    for (const k of [...keys].sort()) diffFields(before[k], after[k], prefix ? `${prefix}.${k}` : k, out);
    return out;
  }
  if (JSON.stringify(before) !== JSON.stringify(after)) out[prefix] = { before: before ?? null, after: after ?? null };
  return out;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
