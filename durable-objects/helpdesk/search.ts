// The help desk's search language, the subset agents use: `type:ticket status:open`, comparisons on ordered
// fields (`status<solved`, `priority>=high`, `created>2026-01-01`, `created>4hours`), `tags:`, `requester:`,
// `assignee:` (email, id, name, `me`, `none`), quoted phrases, `-` negation, free text, `order_by:` + `sort:`.
// Repeating a property means any of its values; different properties must all hold.
import { TICKET_PRIORITIES, TICKET_STATUSES, unixOf, type StoredComment, type StoredTicket, type StoredUser } from "./shapes";

export type Op = ":" | "<" | ">" | "<=" | ">=";

export interface Term {
  negate: boolean;
  key: string | null;
  op: Op;
  value: string;
}

export interface ParsedQuery {
  types: Set<string>;
  terms: Term[];
  orderBy: string | null;
  sort: "asc" | "desc" | null;
}

const TOKEN = /(-?)(?:([A-Za-z_]+)(<=|>=|:|<|>))?(?:"([^"]*)"?|(\S+))/g;

export function parseQuery(query: string): ParsedQuery {
  const out: ParsedQuery = { types: new Set(), terms: [], orderBy: null, sort: null };
  for (const m of query.matchAll(TOKEN)) {
    const [, neg, rawKey, op, quoted, bare] = m;
    const value = quoted ?? bare ?? "";
    const key = rawKey ? rawKey.toLowerCase() : null;
    if (key === "type" && op === ":" && !neg) out.types.add(value.toLowerCase());
    else if (key === "order_by" && op === ":") out.orderBy = value.toLowerCase();
    else if (key === "sort" && op === ":") out.sort = value.toLowerCase() === "asc" ? "asc" : "desc";
    else if (value !== "" || key) out.terms.push({ negate: neg === "-", key, op: (op as Op) ?? ":", value });
  }
  return out;
}

/** What a search can see: the desk's objects plus who "me" is and the world clock. */
export interface SearchContext {
  tickets: StoredTicket[];
  users: StoredUser[];
  comments: StoredComment[];
  agentId: number;
  now: number;
}

export interface SearchHit {
  kind: "ticket" | "user";
  obj: StoredTicket | StoredUser;
}

const TICKET_KEYS = new Set(["status", "priority", "ticket_type", "tags", "tag", "requester", "assignee", "submitter", "subject", "description", "comment", "created", "updated", "external_id", "id"]);
const USER_KEYS = new Set(["email", "name", "role", "created", "updated", "user"]);

function ciIncludes(hay: string, needle: string): boolean {
  return hay.toLowerCase().includes(needle.toLowerCase());
}

function compare(op: Op, a: number, b: number): boolean {
  switch (op) {
    case ":":
      return a === b;
    case "<":
      return a < b;
    case ">":
      return a > b;
    case "<=":
      return a <= b;
    case ">=":
      return a >= b;
  }
}

const RELATIVE = /^(\d+)(minutes?|hours?|days?|weeks?|months?|years?)$/i;
const UNIT_SECONDS: Record<string, number> = { minute: 60, hour: 3600, day: 86400, week: 604800, month: 2592000, year: 31536000 };

/** A date term: an absolute date or time, or a span back from the world clock (`4hours` = since 4 hours ago). */
function matchesDate(iso: string, op: Op, value: string, now: number): boolean {
  const t = unixOf(iso);
  const rel = RELATIVE.exec(value);
  if (rel) {
    const unit = rel[2].toLowerCase().replace(/s$/, "");
    const at = now - Number(rel[1]) * UNIT_SECONDS[unit];
    return op === ":" ? t >= at : compare(op, t, at);
  }
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const day = Math.floor(Date.parse(`${value}T00:00:00Z`) / 1000);
    if (Number.isNaN(day)) return false;
    if (op === ":") return t >= day && t < day + 86400;
    // A bare date on the far side of a comparison covers its whole day.
    if (op === ">" ) return t >= day + 86400;
    if (op === "<=") return t < day + 86400;
    return compare(op, t, day);
  }
  const at = Math.floor(Date.parse(value) / 1000);
  return Number.isNaN(at) ? false : compare(op, t, at);
}

function matchesRank(value: string | null, op: Op, want: string, order: readonly string[]): boolean {
  if (op === ":") return (value ?? "none") === want.toLowerCase();
  const a = value === null ? -1 : order.indexOf(value);
  const b = order.indexOf(want.toLowerCase());
  return a >= 0 && b >= 0 && compare(op, a, b);
}

function userMatches(ctx: SearchContext, id: number | null, value: string): boolean {
  const v = value.toLowerCase();
  if (v === "none") return id === null;
  if (id === null) return false;
  if (v === "me") return id === ctx.agentId;
  if (/^\d+$/.test(v)) return id === Number(v);
  const u = ctx.users.find((x) => Number(x.id) === id);
  if (!u) return false;
  return v.includes("@") ? u.email.toLowerCase() === v : ciIncludes(u.name, v);
}

function ticketText(t: StoredTicket, ctx: SearchContext): string {
  const comments = ctx.comments.filter((c) => c.ticket_id === Number(t.id)).map((c) => c.plain_body);
  return [t.subject, t.description, ...comments, ...t.tags].join("\n");
}

function ticketTerm(t: StoredTicket, term: Term, ctx: SearchContext): boolean {
  const v = term.value;
  switch (term.key) {
    case null:
      return (/^\d+$/.test(v) && t.id === v) || ciIncludes(ticketText(t, ctx), v);
    case "id":
      return compare(term.op, Number(t.id), Number(v));
    case "status":
      return matchesRank(t.status, term.op, v, TICKET_STATUSES);
    case "priority":
      return matchesRank(t.priority, term.op, v, TICKET_PRIORITIES);
    case "ticket_type":
      return (t.type ?? "none") === v.toLowerCase();
    case "tags":
    case "tag":
      return v.toLowerCase() === "none" ? t.tags.length === 0 : t.tags.some((x) => x.toLowerCase() === v.toLowerCase());
    case "requester":
      return userMatches(ctx, t.requester_id, v);
    case "assignee":
      return userMatches(ctx, t.assignee_id, v);
    case "submitter":
      return userMatches(ctx, t.submitter_id, v);
    case "subject":
      return ciIncludes(t.subject, v);
    case "description":
      return ciIncludes(t.description, v);
    case "comment":
      return ctx.comments.some((c) => c.ticket_id === Number(t.id) && ciIncludes(c.plain_body, v));
    case "created":
      return matchesDate(t.created_at, term.op, v, ctx.now);
    case "updated":
      return matchesDate(t.updated_at, term.op, v, ctx.now);
    case "external_id":
      return t.external_id === v;
    default:
      return false;
  }
}

function userTerm(u: StoredUser, term: Term, ctx: SearchContext): boolean {
  const v = term.value;
  switch (term.key) {
    case null:
      return (/^\d+$/.test(v) && u.id === v) || ciIncludes(`${u.name}\n${u.email}`, v);
    case "email":
      return u.email.toLowerCase() === v.toLowerCase();
    case "name":
    case "user":
      return ciIncludes(u.name, v);
    case "role":
      return u.role === v.toLowerCase();
    case "created":
      return matchesDate(u.created_at, term.op, v, ctx.now);
    case "updated":
      return matchesDate(u.updated_at, term.op, v, ctx.now);
    default:
      return false;
  }
}

/** Same-property ":" terms are alternatives; everything else must hold. */
function matchesAll<T>(obj: T, terms: Term[], test: (obj: T, term: Term) => boolean): boolean {
  const groups = new Map<string, Term[]>();
  const single: Term[] = [];
  for (const t of terms) {
    if (t.key !== null && t.op === ":" && !t.negate) groups.set(t.key, [...(groups.get(t.key) ?? []), t]);
    else single.push(t);
  }
  for (const g of groups.values()) if (!g.some((t) => test(obj, t))) return false;
  for (const t of single) if (test(obj, t) === t.negate) return false;
  return true;
}

export interface SearchOutcome {
  hits: SearchHit[];
  /** Properties the twin does not know; such terms match nothing (the response is flagged). */
  unknownKeys: string[];
}

export function runSearch(q: ParsedQuery, ctx: SearchContext): SearchOutcome {
  const unknownKeys: string[] = [];
  const wantTickets = q.types.size === 0 || q.types.has("ticket");
  const wantUsers = q.types.size === 0 || q.types.has("user");
  const ticketTerms = q.terms.every((t) => t.key === null || TICKET_KEYS.has(t.key));
  const userTerms = q.terms.every((t) => t.key === null || USER_KEYS.has(t.key));
  for (const t of q.terms) if (t.key !== null && !TICKET_KEYS.has(t.key) && !USER_KEYS.has(t.key)) unknownKeys.push(t.key);
  for (const ty of q.types) if (ty !== "ticket" && ty !== "user") unknownKeys.push(`type:${ty}`);

  let tickets: SearchHit[] = [];
  // A property only tickets have (status:) rules users out, and the other way round.
  if (wantTickets && (ticketTerms || q.types.has("ticket")))
    tickets = ctx.tickets.filter((t) => matchesAll(t, q.terms, (o, term) => ticketTerm(o, term, ctx))).map((obj) => ({ kind: "ticket" as const, obj }));
  let users: SearchHit[] = [];
  if (wantUsers && (userTerms || q.types.has("user")))
    users = ctx.users.filter((u) => matchesAll(u, q.terms, (o, term) => userTerm(o, term, ctx))).map((obj) => ({ kind: "user" as const, obj }));
  return { hits: [...order(tickets, q), ...order(users, q)], unknownKeys };
}

function sortValue(hit: SearchHit, orderBy: string): string | number {
  const o = hit.obj as Record<string, unknown>;
  switch (orderBy) {
    case "created_at":
    case "created":
      return String(o.created_at);
    case "updated_at":
    case "updated":
      return String(o.updated_at);
    case "priority":
      return TICKET_PRIORITIES.indexOf((o.priority as (typeof TICKET_PRIORITIES)[number]) ?? "low") + (o.priority ? 1 : 0);
    case "status":
      return TICKET_STATUSES.indexOf(o.status as (typeof TICKET_STATUSES)[number]);
    case "ticket_type":
      return String(o.type ?? "");
    default:
      return Number(o.id);
  }
}

/** Without order_by results come by id; with it, newest/highest first unless sort:asc. */
function order(hits: SearchHit[], q: ParsedQuery): SearchHit[] {
  if (!q.orderBy) return [...hits].sort((a, b) => Number(a.obj.id) - Number(b.obj.id));
  const sign = (q.sort ?? "desc") === "asc" ? 1 : -1;
  const by = q.orderBy;
  return [...hits].sort((a, b) => {
    const x = sortValue(a, by);
    const y = sortValue(b, by);
    if (x !== y) return sign * (x < y ? -1 : 1);
    return Number(a.obj.id) - Number(b.obj.id);
  });
}
