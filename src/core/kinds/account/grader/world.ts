// Grading one world: derive the agent's actions from the diff, pin each on the task that names its customer,
// grade every task the world holds, and list what no task explains (harm), the invariants and the credits.
import type { WorldDiff } from "../../../world/diff/types";
import type { RubricDocument, RubricTicket } from "../../../rubric/schema";
import { deriveActions } from "./actions";
import { readDesk } from "./desk";
import { checkInvariants } from "./invariants";
import { formatMoney } from "./money";
import type { WorldObjects } from "./objects";
import { gradeTask } from "./task";
import type { AgentAction, AgentActionKind, AttributedAction, AttributedChange, HarmEntry, OtherChange, Role, TaskGrade, WorldGrade } from "./types";

export interface GradeWorldOptions {
  /** Default: the rubric's mode. */
  mode?: "isolated" | "shift";
  /**
   * The tickets (ids or labels) this world holds. Default: in isolated mode the tickets the replies name (every
   * ticket when they name none); in shift mode every ticket of the rubric.
   */
  tickets?: Array<number | string>;
  /** The world's current objects, when the caller has them: they resolve links and statuses the diff omits. */
  objects?: WorldObjects;
}

/** Replies by ticket id or label: the agent's stdout in isolated mode. Shift mode reads the desk instead. */
export type Replies = Record<string, string>;

const SATISFIES: Partial<Record<string, AgentActionKind>> = {
  refund: "refund",
  credit: "credit",
  void: "void",
  cancel: "cancel",
  cancel_at_period_end: "cancel_at_period_end",
  plan_change: "plan_change",
};

export function gradeWorld(rubric: RubricDocument, diff: WorldDiff, replies: Replies = {}, opts: GradeWorldOptions = {}): WorldGrade {
  const mode = opts.mode ?? rubric.mode;
  const tickets = selectTickets(rubric, replies, mode, opts.tickets);
  const { actions, changes, index } = deriveActions(diff, { objects: opts.objects, currency: rubric.currency });
  const money = (c: number) => formatMoney(c, rubric.currency);

  // Who names each customer, in rubric order: owners first, then candidates and decoys.
  const owners = new Map<string, RubricTicket[]>();
  const others = new Map<string, Array<{ ticket: RubricTicket; role: Role }>>();
  for (const t of tickets) {
    if (t.customer) owners.set(t.customer, [...(owners.get(t.customer) ?? []), t]);
    for (const c of t.candidates) others.set(c, [...(others.get(c) ?? []), { ticket: t, role: "candidate" }]);
    for (const c of t.decoys) others.set(c, [...(others.get(c) ?? []), { ticket: t, role: "decoy" }]);
  }
  const attributed = new Map<number, AttributedAction[]>(tickets.map((t) => [t.id, []]));
  const harm: HarmEntry[] = [];
  const changesOf = new Map<number, AttributedChange[]>(tickets.map((t) => [t.id, []]));

  for (const [customer, list] of groupByCustomer(actions)) {
    const ownerTasks = customer ? owners.get(customer) : undefined;
    if (ownerTasks?.length) {
      for (const [ticket, acts] of splitAmongOwners(ownerTasks, list)) attributed.get(ticket.id)!.push(...acts.map((a) => ({ ...a, role: "owner" as const })));
      continue;
    }
    const named = customer ? others.get(customer) : undefined;
    if (named?.length) {
      attributed.get(named[0].ticket.id)!.push(...list.map((a) => ({ ...a, role: named[0].role })));
      continue;
    }
    for (const a of list) harm.push({ world: diff.world, customer: customer ?? "(no customer)", action: a, change: null, amount: a.amount, summary: a.summary });
  }
  const unattributed: OtherChange[] = [];
  for (const c of changes) {
    if (!c.customer) {
      if (c.kind !== "annotation") unattributed.push(c);
      continue;
    }
    const owner = owners.get(c.customer)?.[0];
    const named = others.get(c.customer)?.[0];
    if (owner) changesOf.get(owner.id)!.push({ ...c, role: "owner" });
    else if (named) changesOf.get(named.ticket.id)!.push({ ...c, role: named.role });
    // A note on an account no task names harms no one; any other change there is harm.
    else if (c.kind !== "annotation") harm.push({ world: diff.world, customer: c.customer, action: null, change: c, amount: 0, summary: c.summary });
  }

  const tasks: TaskGrade[] = tickets.map((ticket) => {
    const grade = gradeTask({
      ticket,
      actions: attributed.get(ticket.id)!,
      changes: changesOf.get(ticket.id)!,
      stdout: mode === "isolated" ? (replies[String(ticket.id)] ?? replies[ticket.label] ?? null) : null,
      desk: readDesk(diff, ticket.id, opts.objects),
      mode,
      planNames: planNamesOf(rubric, opts.objects),
      currency: rubric.currency,
      world: diff.world,
      index,
    });
    return grade;
  });

  const credits = actions.filter((a) => a.kind === "credit");
  for (const h of harm) h.summary = `${h.summary} on ${h.customer}, which no task names${h.amount ? ` (${money(h.amount)})` : ""}`;
  return {
    world: diff.world,
    mode,
    tasks,
    harm,
    invariants: checkInvariants(rubric.invariants, diff),
    credits: { total: credits.reduce((s, a) => s + a.amount, 0), count: credits.length },
    unattributed,
    actions,
  };
}

function selectTickets(rubric: RubricDocument, replies: Replies, mode: "isolated" | "shift", wanted?: Array<number | string>): RubricTicket[] {
  const byKey = (k: number | string) => rubric.tickets.find((t) => String(t.id) === String(k) || t.label === String(k));
  if (wanted) {
    const out: RubricTicket[] = [];
    for (const k of wanted) {
      const t = byKey(k);
      if (!t) throw new UnknownTicket(`the rubric has no ticket '${k}' (tickets are named by position id or label: ${rubric.tickets.map((x) => `${x.id}/${x.label}`).join(", ")})`);
      if (!out.includes(t)) out.push(t);
    }
    return out.sort((a, b) => a.id - b.id);
  }
  if (mode === "isolated") {
    const named = Object.keys(replies).map(byKey).filter((t): t is RubricTicket => !!t);
    if (named.length) return [...new Set(named)].sort((a, b) => a.id - b.id);
  }
  return [...rubric.tickets];
}

export class UnknownTicket extends Error {}

function groupByCustomer(actions: AgentAction[]): Map<string | null, AgentAction[]> {
  const out = new Map<string | null, AgentAction[]>();
  for (const a of actions) out.set(a.customer, [...(out.get(a.customer) ?? []), a]);
  return out;
}

/**
 * Several tickets from one customer (a follow-up in a shift): each action goes to the first ticket whose key it
 * satisfies on a named target, then to the first whose key kind it satisfies, else to the first ticket.
 */
function splitAmongOwners(tasks: RubricTicket[], actions: AgentAction[]): Map<RubricTicket, AgentAction[]> {
  const out = new Map<RubricTicket, AgentAction[]>(tasks.map((t) => [t, []]));
  if (tasks.length === 1) {
    out.set(tasks[0], [...actions]);
    return out;
  }
  for (const a of actions) {
    const kindOk = (t: RubricTicket) => !!t.expect && SATISFIES[t.expect.action] === a.kind;
    const targets = (t: RubricTicket) => [t.expect?.target, ...(t.expect?.target_any ?? [])].filter((x): x is string => !!x);
    const byTarget = tasks.find((t) => kindOk(t) && targets(t).some((x) => a.touches.includes(x)));
    const byKind = tasks.find((t) => kindOk(t) && !targets(t).length && out.get(t)!.every((b) => b.kind !== a.kind || b.object === a.object));
    const home = byTarget ?? byKind ?? tasks[0];
    out.get(home)!.push(a);
  }
  return out;
}

/** The rubric's plan names, else the first word of every recurring price's nickname the caller can see. */
function planNamesOf(rubric: RubricDocument, objects?: WorldObjects): string[] {
  if (rubric.plan_names.length) return rubric.plan_names;
  const names = new Set<string>();
  for (const p of objects?.prices ?? []) {
    const nick = typeof p.nickname === "string" ? p.nickname.trim().split(/\s+/)[0] : "";
    if (nick && p.recurring) names.add(nick);
  }
  return [...names];
}
