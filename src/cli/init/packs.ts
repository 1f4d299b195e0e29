// The starter packs as init reads them: which packs an agent's authorities choose, their tasks merged in inbox
// order, and the cap that keeps a starter small while touching every trap class.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { packageRoot } from "../paths";

export const AUTHORITIES = ["refunds", "credits", "cancellations", "plan-changes", "invoices"] as const;
export type Authority = (typeof AUTHORITIES)[number];

/** The starter's size unless --pack all. */
export const STARTER_CAP = 15;

/** A pack task as written in its file (the tasks-file task fields). */
export type PackTask = Record<string, unknown> & { id: string; trap_class?: string | null };

export interface Pack {
  name: Authority;
  /** The top-level fields every pack shares (seed, mode, currency, plan_names, invariants). */
  header: Record<string, unknown>;
  tasks: PackTask[];
}

export interface Library {
  packs: Pack[];
  /** Inbox position of each task id (ticket number in the full library). */
  position: Map<string, number>;
  /** How many tickets the full library (benchmark inbox and library cases) holds. */
  tickets: number;
}

export function loadLibrary(root = packageRoot()): Library {
  const packs = AUTHORITIES.map((name) => {
    const file = join(root, "packs", `${name}.yaml`);
    if (!existsSync(file)) throw new Error(`the starter pack ${file} is missing from this installation of worlds`);
    const doc = parseYaml(readFileSync(file, "utf8")) as Record<string, unknown> & { tasks: PackTask[] };
    const { tasks, ...header } = doc;
    return { name, header, tasks: tasks.map((t) => ({ ...t, id: String(t.id) })) };
  });
  // The rubric numbers every ticket in inbox order and carries the task id as its label.
  const rubric = JSON.parse(readFileSync(join(root, "rubrics", "acme-prod-library.json"), "utf8")) as { tickets: Array<{ id: number; label?: string | null }> };
  const position = new Map<string, number>();
  for (const t of rubric.tickets) if (t.label) position.set(t.label, t.id);
  return { packs, position, tickets: rubric.tickets.length };
}

/** Refunds bring the invoices pack: an open invoice is the refund-shaped trap (void it, do not refund). */
export function packsFor(authorities: readonly Authority[]): Authority[] {
  const chosen = new Set<Authority>(authorities);
  if (chosen.has("refunds")) chosen.add("invoices");
  return AUTHORITIES.filter((a) => chosen.has(a));
}

export interface Selection {
  tasks: PackTask[];
  /** The packs the tasks came from (empty: only the tasks every pack carries). */
  packs: Authority[];
  /** Distinct tasks before the cap. */
  available: number;
  trapClasses: number;
  capped: boolean;
}

/**
 * The tasks for the chosen authorities: the union of their packs (or, with none, the tasks every pack carries),
 * in inbox order. Past the cap, the first task of every trap class stands (the first fifteen classes when there
 * are more), and any room left goes to the next tasks in inbox order, so the starter is small and stable.
 */
export function selectTasks(lib: Library, authorities: readonly Authority[], opts: { all?: boolean } = {}): Selection {
  const packs = opts.all ? [...AUTHORITIES] : packsFor(authorities);
  const byId = new Map<string, PackTask>();
  if (packs.length) {
    for (const p of lib.packs) if (packs.includes(p.name)) for (const t of p.tasks) if (!byId.has(t.id)) byId.set(t.id, t);
  } else {
    const [first, ...rest] = lib.packs;
    for (const t of first.tasks) if (rest.every((p) => p.tasks.some((u) => u.id === t.id))) byId.set(t.id, t);
  }
  const order = (t: PackTask) => lib.position.get(t.id) ?? Number.MAX_SAFE_INTEGER;
  const union = [...byId.values()].sort((a, b) => order(a) - order(b) || a.id.localeCompare(b.id));
  const classes = new Set(union.map((t) => t.trap_class ?? ""));
  if (opts.all || union.length <= STARTER_CAP) return { tasks: union, packs, available: union.length, trapClasses: classes.size, capped: false };

  const kept = new Set<string>();
  const seen = new Set<string>();
  for (const t of union) {
    const c = t.trap_class ?? "";
    if (seen.has(c) || kept.size >= STARTER_CAP) continue;
    seen.add(c);
    kept.add(t.id);
  }
  for (const t of union) if (kept.size < STARTER_CAP) kept.add(t.id);
  return { tasks: union.filter((t) => kept.has(t.id)), packs, available: union.length, trapClasses: classes.size, capped: true };
}

export function parseAuthorities(text: string): { ok: true; value: Authority[] } | { ok: false; message: string } {
  const words = text.split(/[\s,]+/).map((w) => w.trim().toLowerCase()).filter(Boolean);
  if (words.length === 1 && words[0] === "none") return { ok: true, value: [] };
  if (words.length === 1 && words[0] === "all") return { ok: true, value: [...AUTHORITIES] };
  const out: Authority[] = [];
  for (const w of words) {
    const name = w.replace(/_/g, "-");
    if (!(AUTHORITIES as readonly string[]).includes(name)) return { ok: false, message: `'${w}' is not an authority; choose from ${AUTHORITIES.join(", ")} (comma-separated), all, or none` };
    if (!out.includes(name as Authority)) out.push(name as Authority);
  }
  return { ok: true, value: out };
}
