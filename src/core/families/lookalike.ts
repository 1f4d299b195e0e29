// Lookalike records: for each record the gold chain writes to, another of the same kind the agent could take
// for it (the other account under the same email, another charge of the same customer, another order a read
// answers). Validate's wrong-object agent makes the gold chain's writes on these, and `ambiguity_resolution`
// needs one that shares an identifying value. Records the verify checks accept as alternatives are never picked.
import type { Check } from "./verify/grammar";
import type { GoldStep } from "./schema";
import { canonicalJson } from "../util/canonical";
import { dict } from "../util/safe-tree";

export interface WorldRecord {
  collection: string;
  id: string;
  fields: Record<string, unknown>;
}

export interface Lookalike {
  target: string;
  id: string;
  /** The identifying field both share (email, customer...), or null when they only share a kind. */
  shared: string | null;
}

type Obj = Record<string, unknown>;
const IDENTIFYING = /(^|_)(email|customer|name|phone|account|requester)$/;

/** An account seed's objects with string ids, by collection. */
export function accountRecords(data: Obj): WorldRecord[] {
  const out: WorldRecord[] = [];
  for (const [collection, list] of Object.entries(data)) {
    if (!Array.isArray(list)) continue;
    for (const o of list) if (o && typeof o === "object" && typeof (o as Obj).id === "string") out.push({ collection, id: (o as Obj).id as string, fields: o as Obj });
  }
  return out;
}

/** A tools tier's looked-up records: one per read call its deliveries answer, keyed by the call's one string argument. */
export function toolsRecords(deliveries: readonly { call: { name: string; arguments?: Obj }; path: string; value: unknown }[]): WorldRecord[] {
  const byCall = new Map<string, WorldRecord>();
  for (const d of deliveries) {
    const args = Object.entries(d.call.arguments ?? {}).filter(([, v]) => typeof v === "string");
    if (args.length !== 1) continue;
    const [arg, id] = args[0] as [string, string];
    const key = canonicalJson([d.call.name, arg, id]);
    let r = byCall.get(key);
    if (!r) byCall.set(key, (r = { collection: `${d.call.name}.${arg}`, id, fields: dict<unknown>() }));
    r.fields[d.path] = d.value;
  }
  return [...byCall.values()];
}

/** Ids the checks accept as alternatives: values of `!=` filters (`count(created.refunds[charge!=A, charge!=B])==0`). */
export function acceptedIds(checks: readonly Check[]): Set<string> {
  const out = new Set<string>();
  for (const c of checks) if (c.kind === "count" || c.kind === "sum") for (const f of c.set.filters) if (f.cmp === "!=" && typeof f.value === "string") out.add(f.value);
  return out;
}

/** Every string value a step passes, at any depth (bounded). */
export function stepStrings(step: GoldStep): string[] {
  const out: string[] = [];
  const walk = (v: unknown, depth: number): void => {
    if (depth > 8) return;
    if (typeof v === "string") out.push(v);
    else if (Array.isArray(v)) v.forEach((x) => walk(x, depth + 1));
    else if (v && typeof v === "object") Object.values(v).forEach((x) => walk(x, depth + 1));
  };
  walk("tool" in step ? step.arguments : [step.form, step.json, step.rest.split(/[/?&= ]/)], 0);
  return out;
}

/** For each record the writes name, its closest lookalike: most identifying fields shared, then the first. */
export function findLookalikes(records: readonly WorldRecord[], writes: readonly GoldStep[], checks: readonly Check[]): Lookalike[] {
  const byId = new Map(records.map((r) => [`${r.id}`, r]));
  const targets = [...new Set(writes.flatMap(stepStrings))].filter((s) => byId.has(s));
  const avoid = new Set([...targets, ...acceptedIds(checks)]);
  const out: Lookalike[] = [];
  for (const target of targets) {
    const t = byId.get(target)!;
    let best: { r: WorldRecord; shared: string | null; score: number } | null = null;
    for (const r of records) {
      if (r.collection !== t.collection || avoid.has(r.id)) continue;
      const shared = Object.keys(t.fields).filter((k) => IDENTIFYING.test(k) && r.fields[k] !== undefined && r.fields[k] === t.fields[k]);
      if (!best || shared.length > best.score) best = { r, shared: shared[0] ?? null, score: shared.length };
    }
    if (best) out.push({ target, id: best.r.id, shared: best.shared });
  }
  return out;
}
