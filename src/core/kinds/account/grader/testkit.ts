// Hand-built worlds for the grader's tests: a change log folded by the real diff folder, and rubrics parsed by
// the real rubric schema, so the tests see exactly the shapes the twin and the compiler produce.
import { foldChanges } from "../../../world/diff/fold";
import type { ChangeRecord, ObjectType, WorldDiff } from "../../../world/diff/types";
import { rubricDocument, type RubricDocument } from "../../../rubric/schema";

type Obj = Record<string, unknown>;

export class WorldLog {
  private seq = 0;
  private readonly changes: ChangeRecord[] = [];
  private readonly state = new Map<string, Obj>();
  constructor(
    private readonly world = "w_test000000000001",
    seedObjects: Obj[] = [],
  ) {
    for (const o of seedObjects) this.state.set(String(o.id), o);
  }

  /** Records an agent-created object. */
  create(type: ObjectType, obj: Obj, customer: string | null = (obj.customer as string) ?? null, request = `req_${this.seq + 1}`): this {
    this.changes.push({ seq: ++this.seq, request_id: request, type, id: String(obj.id), customer, before: null, after: obj });
    this.state.set(String(obj.id), obj);
    return this;
  }

  /** Records an update of a seeded (or earlier created) object: `patch` is merged shallowly. */
  update(type: ObjectType, id: string, patch: Obj, customer: string | null = null, request = `req_${this.seq + 1}`): this {
    const before = this.state.get(id);
    if (!before) throw new Error(`testkit: no object ${id} to update`);
    const after = { ...before, ...patch };
    this.changes.push({ seq: ++this.seq, request_id: request, type, id, customer: customer ?? (before.customer as string) ?? (type === "customers" ? id : null), before, after });
    this.state.set(id, after);
    return this;
  }

  delete(type: ObjectType, id: string, customer: string | null = null): this {
    const before = this.state.get(id);
    if (!before) throw new Error(`testkit: no object ${id} to delete`);
    this.changes.push({ seq: ++this.seq, request_id: `req_${this.seq + 1}`, type, id, customer: customer ?? (before.customer as string) ?? (type === "customers" ? id : null), before, after: null });
    this.state.delete(id);
    return this;
  }

  get(id: string): Obj {
    const o = this.state.get(id);
    if (!o) throw new Error(`testkit: no object ${id}`);
    return o;
  }

  diff(): WorldDiff {
    return foldChanges(this.changes, { world: this.world, seed: { name: "grader-test", hash: "0".repeat(64) }, clock: "2026-03-01T00:00:00Z" });
  }

  // -- the twin's side effects, written out the way the billing API performs them --

  refund(id: string, charge: string, amount: number, extra: Obj = {}): this {
    const ch = this.get(charge);
    this.create("refunds", { id, object: "refund", charge, amount, currency: "usd", status: "succeeded", payment_intent: ch.payment_intent ?? null, ...extra }, (ch.customer as string) ?? null);
    const refunded = (ch.amount_refunded as number) + amount;
    return this.update("charges", charge, { amount_refunded: refunded, refunded: refunded === ch.amount });
  }

  credit(id: string, customer: string, amount: number, extra: Obj = {}): this {
    const cus = this.get(customer);
    const ending = (cus.balance as number) - amount;
    this.create("balance_transactions", { id, object: "customer_balance_transaction", customer, amount: -amount, currency: "usd", type: "adjustment", ending_balance: ending, credit_note: null, invoice: null, ...extra }, customer);
    return this.update("customers", customer, { balance: ending });
  }
}

/** The seeded account most tests start from. */
export const SEED_OBJECTS: Obj[] = [
  { id: "cus_alice", object: "customer", email: "alice@example.com", name: "Alice", balance: 0 },
  { id: "cus_bob", object: "customer", email: "bob@example.com", name: "Bob", balance: 0 },
  { id: "cus_carol", object: "customer", email: "carol@example.com", name: "Carol", balance: 0 },
  { id: "cus_dave", object: "customer", email: "dave@example.com", name: "Dave", balance: 0 },
  { id: "ch_a1", object: "charge", customer: "cus_alice", amount: 24300, amount_refunded: 0, refunded: false, payment_intent: "pi_a1", invoice: "in_a1", status: "succeeded" },
  { id: "ch_a2", object: "charge", customer: "cus_alice", amount: 24300, amount_refunded: 0, refunded: false, payment_intent: "pi_a2", invoice: null, status: "succeeded" },
  { id: "ch_a3", object: "charge", customer: "cus_alice", amount: 4900, amount_refunded: 0, refunded: false, payment_intent: "pi_a3", invoice: null, status: "succeeded" },
  { id: "ch_b1", object: "charge", customer: "cus_bob", amount: 24300, amount_refunded: 0, refunded: false, payment_intent: "pi_b1", invoice: null, status: "succeeded" },
  { id: "ch_c1", object: "charge", customer: "cus_carol", amount: 9900, amount_refunded: 0, refunded: false, payment_intent: "pi_c1", invoice: null, status: "succeeded" },
  { id: "in_a1", object: "invoice", customer: "cus_alice", status: "paid", amount_due: 24300, amount_paid: 24300, amount_remaining: 0, total: 24300, post_payment_credit_notes_amount: 0, pre_payment_credit_notes_amount: 0 },
  { id: "in_b2", object: "invoice", customer: "cus_bob", status: "open", amount_due: 12000, amount_paid: 0, amount_remaining: 12000, total: 12000, post_payment_credit_notes_amount: 0, pre_payment_credit_notes_amount: 0 },
  { id: "in_c2", object: "invoice", customer: "cus_carol", status: "open", amount_due: 5000, amount_paid: 0, amount_remaining: 5000, total: 5000 },
  {
    id: "sub_c1", object: "subscription", customer: "cus_carol", status: "active", cancel_at_period_end: false, cancel_at: null, canceled_at: null,
    items: { object: "list", data: [{ id: "si_c1", price: { id: "price_starter", nickname: "Starter monthly", unit_amount: 2900 }, quantity: 1 }] },
  },
  {
    id: "sub_d1", object: "subscription", customer: "cus_dave", status: "active", cancel_at_period_end: false, cancel_at: null, canceled_at: null,
    items: { object: "list", data: [{ id: "si_d1", price: { id: "price_growth", nickname: "Growth monthly", unit_amount: 9900 }, quantity: 1 }] },
  },
  { id: "7", object: "ticket", subject: "Charged twice", status: "open", requester_id: 101, assignee_id: null },
  { id: "8", object: "ticket", subject: "Cancel please", status: "open", requester_id: 102, assignee_id: null },
];

export const GROWTH_ITEMS = { object: "list", data: [{ id: "si_c1", price: { id: "price_growth", nickname: "Growth monthly", unit_amount: 9900 }, quantity: 1 }] };

export function world(seed: Obj[] = SEED_OBJECTS, id?: string): WorldLog {
  return new WorldLog(id, structuredClone(seed));
}

type TicketInput = {
  id: number;
  customer?: string | null;
  expect?: { action: string; amount?: number | null; target?: string | null; target_any?: string[]; price?: string | null; line?: string } | null;
  decoys?: string[];
  candidates?: string[];
  terminal_status?: string[];
  label?: string;
};

/** A rubric through the real schema (defaults filled, unknown fields refused). */
export function rubric(tickets: TicketInput[], extra: Partial<Record<"invariants" | "budget" | "plan_names" | "mode", unknown>> = {}): RubricDocument {
  return rubricDocument.parse({
    version: 1,
    seed: { name: "grader-test", hash: "0".repeat(64) },
    currency: "usd",
    ...extra,
    tickets: tickets.map((t) => ({
      id: t.id,
      label: t.label ?? `T-${t.id}`,
      subject: `ticket ${t.id}`,
      requester: { email: `${t.id}@example.com`, name: `Requester ${t.id}` },
      customer: t.customer === undefined ? null : t.customer,
      candidates: t.candidates ?? [],
      decoys: t.decoys ?? [],
      claim: t.expect ? t.expect.action : "policy",
      expect: t.expect
        ? { action: t.expect.action, amount: t.expect.amount ?? null, target: t.expect.target ?? null, target_any: t.expect.target_any ?? [], price: t.expect.price ?? null, line: t.expect.line ?? t.expect.action }
        : null,
      terminal_status: t.terminal_status ?? ["solved"],
    })),
  });
}
