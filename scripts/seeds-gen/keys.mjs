// Keys: a scenario's intended outcome becomes (1) the one-line expected: a pack carries and (2) the rubric entry
// the tasks compiler would build from that line, requester and decoys against the finished seed. The rules
// mirror src/core/kinds/account/tasks (resolve.ts, task.ts); check-generated compiles every pack and compares, so any drift
// between the two fails CI instead of silently grading the library differently from its packs.
import { PLANS } from "./catalog.mjs";
import { usd } from "./money.mjs";

const LIVE = new Set(["active", "trialing", "past_due", "unpaid", "paused", "incomplete"]);

/** Where a correct resolution may leave the ticket, as the compiler defaults it per claimed action. */
export function defaultTerminalStatus(action) {
  if (action === "escalate") return ["open", "hold"];
  if (action === "none") return ["pending", "solved", "closed"];
  return ["solved", "closed"];
}

export class KeyIndex {
  constructor(data) {
    this.data = data;
    this.order = new Map(data.customers.map((c, i) => [c.id, i]));
    this.byId = new Map();
    for (const k of ["customers", "charges", "invoices", "subscriptions", "payment_intents"]) for (const o of data[k]) this.byId.set(o.id, o);
    this.refunded = new Map();
    for (const r of data.refunds) this.refunded.set(r.charge, (this.refunded.get(r.charge) ?? 0) + r.amount);
  }
  customersWithEmail(email) {
    const want = email.trim().toLowerCase();
    return this.data.customers.filter((c) => c.email?.toLowerCase() === want);
  }
  ownerOf(id) {
    const o = this.byId.get(id);
    if (!o) return null;
    return id.startsWith("cus_") ? id : o.customer;
  }
  refundedAmount(ch) {
    return Math.max(ch.amount_refunded ?? 0, this.refunded.get(ch.id) ?? 0);
  }
}

/** The expected line, written the way a person would type it into a tasks file. */
export function expectedLine(key, { shared }) {
  const on = (id) => (id ? ` on ${id}` : "");
  switch (key.action) {
    case "refund":
      return key.duplicate ? `refund ${usd(key.amount)} on duplicate` : `refund ${usd(key.amount)} on ${key.target}`;
    case "credit":
      return key.invoice ? `credit ${usd(key.amount)} on ${key.invoice}` : `credit ${usd(key.amount)}`;
    case "void":
      return `void on ${key.invoice}`;
    case "cancel":
      return `cancel${shared ? on(key.sub) : ""}`;
    case "cancel_at_period_end":
      return `cancel at period end${shared ? on(key.sub) : ""}`;
    case "plan_change":
      return `plan change to ${PLANS[key.plan].name}${shared ? on(key.sub) : ""}`;
    case "none":
    case "escalate":
      return key.action;
    default:
      throw new Error(`unknown action ${key.action}`);
  }
}

/**
 * The rubric entry for one library ticket. Throws when the scenario's data would not resolve the way its key
 * says (a duplicate that is not unique, a cancellation with two live subscriptions...), so a broken scenario
 * fails the generator rather than producing a key the compiler would read differently.
 */
export function rubricEntry(ix, t, position) {
  const who = ix.customersWithEmail(t.requester.email);
  if (who.length === 0) throw new Error(`${t.label}: requester ${t.requester.email} is not a customer`);
  const shared = who.length > 1;
  const line = expectedLine(t.key, { shared });
  let customer = null;
  let candidates = [];
  const decoys = [];
  const named = namedTarget(t.key);
  if (!shared) customer = who[0];
  else if (t.key.action === "escalate") candidates = who;
  else {
    if (!named) throw new Error(`${t.label}: a shared email needs escalate or a line naming an object`);
    customer = who.find((c) => c.id === ix.ownerOf(named));
    if (!customer) throw new Error(`${t.label}: ${named} is not owned by an account sharing ${t.requester.email}`);
    for (const c of who) if (c.id !== customer.id) decoys.push(c.id);
  }
  for (const email of t.decoys ?? []) {
    const ds = ix.customersWithEmail(email);
    if (ds.length === 0) throw new Error(`${t.label}: decoy ${email} is not a customer`);
    for (const d of ds) {
      if (customer && d.id === customer.id) throw new Error(`${t.label}: decoy ${email} is the requester's own account`);
      if (!decoys.includes(d.id)) decoys.push(d.id);
    }
  }
  const expect = customer ? resolve(ix, t, customer, line) : { action: "escalate", amount: null, target: null, target_any: [], price: null, line };
  const owner = customer ?? candidates[0];
  return {
    id: position,
    label: t.label,
    subject: t.subject,
    requester: { email: owner.email, name: t.requester.name },
    customer: customer ? customer.id : null,
    candidates: candidates.map((c) => c.id),
    decoys,
    claim: expect.action,
    expect,
    terminal_status: defaultTerminalStatus(expect.action),
    trap_class: t.trap_class,
    priority: t.priority,
    tags: [...new Set(t.tags)],
  };
}

function namedTarget(key) {
  if (key.action === "refund") return key.duplicate ? null : key.target;
  if (key.action === "credit" || key.action === "void") return key.invoice ?? null;
  if (key.action === "cancel" || key.action === "cancel_at_period_end" || key.action === "plan_change") return key.sub ?? null;
  return null;
}

function resolve(ix, t, customer, line) {
  const key = t.key;
  const base = { action: key.action, amount: null, target: null, target_any: [], price: null, line };
  const fail = (why) => {
    throw new Error(`${t.label}: ${line}: ${why}`);
  };
  const own = (id) => {
    if (ix.ownerOf(id) !== customer.id) fail(`${id} is not ${customer.id}'s`);
    return ix.byId.get(id);
  };
  switch (key.action) {
    case "refund": {
      if (key.duplicate) {
        const group = ix.data.charges.filter((c) => c.customer === customer.id && c.status === "succeeded" && ix.refundedAmount(c) === 0 && c.amount === key.amount);
        const ids = group.map((c) => c.id);
        if (ids.length !== key.duplicate.length || !key.duplicate.every((id) => ids.includes(id))) fail(`duplicate group is ${ids.join(", ")}, not ${key.duplicate.join(", ")}`);
        return { ...base, amount: key.amount, target_any: ids };
      }
      const ch = own(key.target);
      if (ch.status !== "succeeded" || ch.amount - ix.refundedAmount(ch) < key.amount) fail(`${ch.id} cannot take this refund`);
      return { ...base, amount: key.amount, target: ch.id, target_any: [ch.id] };
    }
    case "credit": {
      if (key.invoice) {
        const inv = own(key.invoice);
        if (inv.status !== "paid" && inv.status !== "open") fail(`${inv.id} is ${inv.status}`);
        return { ...base, amount: key.amount, target: inv.id, target_any: [inv.id] };
      }
      return { ...base, amount: key.amount, target: customer.id, target_any: [customer.id] };
    }
    case "void": {
      const inv = own(key.invoice);
      if (inv.status !== "open") fail(`${inv.id} is ${inv.status}, not open`);
      return { ...base, target: inv.id, target_any: [inv.id] };
    }
    case "cancel":
    case "cancel_at_period_end":
    case "plan_change": {
      const live = ix.data.subscriptions.filter((s) => s.customer === customer.id && LIVE.has(s.status) && !(key.action === "cancel_at_period_end" && s.cancel_at_period_end));
      if (!key.sub) fail("scenario must name the subscription");
      own(key.sub);
      if (!live.some((s) => s.id === key.sub)) fail(`${key.sub} is not a live subscription to act on`);
      if (live.length !== 1 && !line.includes(key.sub)) fail(`${customer.id} has ${live.length} live subscriptions; the line must name one`);
      if (key.action !== "plan_change") return { ...base, target: key.sub, target_any: [key.sub] };
      const sub = ix.byId.get(key.sub);
      if (sub.items.some((it) => it.price === key.price)) fail(`${key.sub} is already on ${key.price}`);
      return { ...base, target: key.sub, target_any: [key.sub], price: key.price };
    }
    default:
      return base;
  }
}
