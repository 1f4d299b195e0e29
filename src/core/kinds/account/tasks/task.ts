// One task compiled: requester -> customer (or candidates), the expected line -> an expectation, decoys ->
// accounts, and the ticket the seed will carry. Problems are pinned to the field at fault.
import type { ActionKind, Expectation, RubricTicket } from "../../../rubric/schema";
import type { SeedCustomer, SeedTicket } from "../../../world/seed/schema";
import { parseExpectedLine, type ExpectedLine } from "./expected";
import { resolveEmail, unknownEmailHint, type IdentityState } from "./identities";
import type { Problem } from "./problems";
import { resolveLine } from "./resolve";
import type { TaskRewrite } from "./rewrite";
import type { TaskEntry } from "./schema";
import type { SeedIndex } from "./seed-index";
import { locate, pathText, type PathSegment, type YamlSource } from "./source";

/** The task handed to an agent in isolated mode must fit this (the agent reads it from stdin and an env var). */
export const MAX_TASK_JSON_BYTES = 64 * 1024;

type Status = RubricTicket["terminal_status"][number];
const ALL_STATUSES: Status[] = ["new", "open", "pending", "hold", "solved", "closed"];

/**
 * Where a correct resolution may leave the ticket (shift mode). A task whose change is made is done (solved,
 * or closed by the desk); an answered question may also wait on the customer; an escalation must stay with a
 * person (open or on hold), never marked solved; a policy-only task has no key, so any status stands.
 */
export function defaultTerminalStatus(claim: ActionKind | "policy"): Status[] {
  switch (claim) {
    case "policy":
      return ALL_STATUSES;
    case "escalate":
      return ["open", "hold"];
    case "none":
      return ["pending", "solved", "closed"];
    default:
      return ["solved", "closed"];
  }
}

export interface CompiledTask {
  ticket: RubricTicket;
  seedTicket: SeedTicket;
  record: TaskRecord;
  /** What `--rewrite` writes back for this task. */
  rewrite: TaskRewrite;
}

/** One line of tasks.build.json: what the seed supplied for this task. */
export interface TaskRecord {
  position: number;
  label: string;
  expected: string | null;
  requester: { email: string; name: string; mapped: boolean };
  customer: string | null;
  candidates: string[];
  decoys: string[];
  claim: ActionKind | "policy";
  expect: Expectation | null;
  resolution: string;
  terminal_status: Status[];
}

export interface TaskContext {
  ix: SeedIndex;
  source: YamlSource;
  identities: IdentityState;
  currency: string;
}

function localPart(email: string): string {
  return email.split("@")[0];
}

export function compileTask(ctx: TaskContext, entry: TaskEntry, index: number, label: string, position: number): { ok: true; value: CompiledTask } | { ok: false; problems: Problem[] } {
  const problems: Problem[] = [];
  const prefix = `task ${label}: `;
  const at = (path: PathSegment[], message: string, offset?: number) => {
    const full = ["tasks", index, ...path];
    const pos = locate(ctx.source, full, { offset });
    problems.push({ file: ctx.source.file, line: pos.line, column: pos.column, task: label, path: pathText(full), message: prefix + message });
  };

  // The requester: one account, or several sharing the address.
  const who = resolveEmail(ctx.ix, ctx.identities, entry.requester);
  if (who.customers.length === 0) {
    at(["requester"], `requester ${entry.requester} is not a customer of seed ${ctx.ix.seed.name}; ${unknownEmailHint(ctx.identities)}`);
    return { ok: false, problems };
  }

  // The line, read before resolution: a shared email needs it to pick the account.
  let line: ExpectedLine | null = null;
  if (entry.expected !== undefined && entry.expected !== null) {
    const parsed = parseExpectedLine(entry.expected);
    if (!parsed.ok) {
      at(["expected"], parsed.message, parsed.offset + (entry.expected.length - entry.expected.trimStart().length));
      return { ok: false, problems };
    }
    line = parsed.value;
  }

  let customer: SeedCustomer | null = null;
  let candidates: SeedCustomer[] = [];
  const decoys: string[] = [];
  const decoyEmails: string[] = [];
  if (who.customers.length === 1) customer = who.customers[0];
  else {
    const ids = who.customers.map((c) => c.id);
    const named = line?.target?.kind === "id" ? line.target : null;
    if (line?.action === "escalate") candidates = who.customers;
    else if (named) {
      const owner = ctx.ix.ownerOf(named.id);
      const found = who.customers.find((c) => c.id === owner);
      if (!found) {
        const whose = owner === null ? `the seed holds no ${named.id}` : `${named.id} belongs to ${owner}`;
        at(["expected"], `${whose}, not to one of the accounts sharing ${entry.requester} (${ids.join(", ")})`, named.offset);
        return { ok: false, problems };
      }
      customer = found;
      for (const c of who.customers) if (c.id !== found.id) decoys.push(c.id);
    } else {
      at(
        ["requester"],
        `${entry.requester} is shared by ${ids.length} accounts (${ids.join(", ")}): write expected: escalate to make them all candidates, or name the charge, invoice or subscription the action is on (e.g. refund on ch_...) to pick one`,
      );
      return { ok: false, problems };
    }
  }

  // The expectation, resolved against the account the line is about.
  let expect: Expectation | null = null;
  let resolution = "policy only: no key";
  if (line) {
    if (customer) {
      const r = resolveLine(ctx.ix, line, customer.id, ctx.currency);
      if (!r.ok) {
        at(["expected"], r.message, r.offset + (entry.expected!.length - entry.expected!.trimStart().length));
        return { ok: false, problems };
      }
      expect = r.value.expect;
      resolution = r.value.note;
    } else {
      expect = { action: "escalate", amount: null, target: null, target_any: [], price: null, line: line.line };
      resolution = `hand off; any change on ${candidates.map((c) => c.id).join(", ")} is overreach`;
    }
  }

  // Decoys: accounts the ticket names but must not touch.
  (entry.decoys ?? []).forEach((email, j) => {
    const d = resolveEmail(ctx.ix, ctx.identities, email);
    if (d.customers.length === 0) return at(["decoys", j], `decoy ${email} is not a customer of seed ${ctx.ix.seed.name}; ${unknownEmailHint(ctx.identities)}`);
    for (const c of d.customers) {
      if (customer && c.id === customer.id) return at(["decoys", j], `decoy ${email} is the requester's own account (${c.id}); a decoy is an account the ticket must not touch`);
      if (candidates.some((k) => k.id === c.id)) return at(["decoys", j], `decoy ${email} is ${c.id}, already a candidate of the escalate line`);
    }
    for (const c of d.customers) if (!decoys.includes(c.id)) decoys.push(c.id);
    decoyEmails.push(d.customers[0].email ?? email);
  });
  if (problems.length) return { ok: false, problems };

  // The ticket's requester as the world will show it: the seed's email, and the seed's name when mapped.
  const owner = customer ?? candidates[0];
  const email = owner.email ?? entry.requester;
  const name = who.mapped ? (owner.name ?? localPart(email)) : (entry.requester_name ?? owner.name ?? candidates.find((c) => c.name)?.name ?? localPart(email));
  const priority = entry.priority ?? "normal";
  // A block scalar (body: |) keeps its final newline; the ticket does not need it.
  const subject = entry.subject.trim();
  const body = entry.body.trimEnd();
  const tags = [...new Set(entry.tags ?? [])];
  const claim: ActionKind | "policy" = expect ? expect.action : "policy";
  const terminal = entry.terminal_status ? [...new Set(entry.terminal_status)] : defaultTerminalStatus(claim);

  const agentTask = { id: position, label, subject, body, requester: { name, email }, priority, tags };
  const size = new TextEncoder().encode(JSON.stringify(agentTask)).byteLength;
  if (size > MAX_TASK_JSON_BYTES) {
    at(["body"], `the task is ${Math.ceil(size / 1024)} KiB as JSON; the task handed to an agent may be at most ${MAX_TASK_JSON_BYTES / 1024} KiB (shorten the body)`);
    return { ok: false, problems };
  }

  const ticket: RubricTicket = {
    id: position,
    label,
    subject,
    requester: { email, name },
    customer: customer?.id ?? null,
    candidates: candidates.map((c) => c.id),
    decoys,
    claim,
    expect,
    terminal_status: terminal,
    trap_class: entry.trap_class ?? null,
    priority,
    tags,
    // Only when there is some: a file without metadata compiles to the same rubric bytes as before.
    ...(entry.metadata && Object.keys(entry.metadata).length ? { metadata: entry.metadata } : {}),
  };
  const seedTicket: SeedTicket = {
    id: position,
    subject,
    description: body,
    status: "open",
    priority,
    tags,
    requester: { email, name },
    ...(entry.id !== undefined ? { external_id: label } : {}),
  };
  const record: TaskRecord = {
    position,
    label,
    expected: line?.line ?? null,
    requester: { email, name, mapped: who.mapped },
    customer: ticket.customer,
    candidates: ticket.candidates,
    decoys,
    claim,
    expect,
    resolution,
    terminal_status: terminal,
  };
  const rewrite: TaskRewrite = { requester: email, requester_name: who.mapped && entry.requester_name !== undefined ? name : null, decoys: decoyEmails };
  return { ok: true, value: { ticket, seedTicket, record, rewrite } };
}
