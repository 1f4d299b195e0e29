// The agent's actions, derived from the diff alone. Each money movement is counted once whatever route made it:
// a refund made through a credit note is the refund object it created (or, when the twin made none, the credit
// note's refund portion); a credit is the balance transaction (or the credit note's credit portion, or an
// unexplained customer balance edit). Updates that only follow from an action (a charge's amount_refunded, a
// customer's balance, an invoice's amounts) are not actions themselves.
import type { DiffEntry, WorldDiff } from "../../../world/diff/types";
import { deskChange } from "./desk-changes";
import { formatMoney } from "./money";
import { entryCustomer, isObj, num, ObjectIndex, ref, str, subscriptionItems, type Obj, type WorldObjects } from "./objects";
import type { AgentAction, ChangeKind, EntryRef, OtherChange } from "./types";

export interface DerivedActions {
  actions: AgentAction[];
  /** Changes that are not actions: edits, created objects. Attributed by customer like actions. */
  changes: OtherChange[];
  index: ObjectIndex;
}

/** Notes an agent may leave on the requester's account; on an account a ticket protects they still count. */
const ANNOTATION = /^(metadata(\..+)?|description|cancellation_details(\..+)?)$/;
/** Bookkeeping the store writes itself: never a change of the agent's. */
const BOOKKEEPING = /^(updated|livemode)$/;

/** Fields that follow from an action the grader reads elsewhere, per collection. */
const DERIVED: Partial<Record<DiffEntry["type"], RegExp>> = {
  charges: /^(amount_refunded|refunded|refunds(\..+)?|balance_transaction)$/,
  payment_intents: /^(amount_refunded|latest_charge|status|amount_received|charges(\..+)?)$/,
  customers: /^(balance|invoice_credit_balance(\..+)?|cash_balance(\..+)?|delinquent|subscriptions(\..+)?|discount(\..+)?)$/,
  invoices:
    /^(status|status_transitions(\..+)?|amount_due|amount_remaining|amount_paid|amount_overpaid|post_payment_credit_notes_amount|pre_payment_credit_notes_amount|ending_balance|starting_balance|paid|paid_out_of_band|attempted|attempt_count|next_payment_attempt|auto_advance|payments(\..+)?|charge|payment_intent)$/,
  subscriptions:
    /^(status|canceled_at|ended_at|cancel_at|cancel_at_period_end|items(\..+)?|plan(\..+)?|quantity|latest_invoice|current_period_start|current_period_end|billing_cycle_anchor|pending_update(\..+)?|discounts(\..+)?)$/,
  // Redemptions follow from the discount they made (read on the discount itself).
  coupons: /^(times_redeemed|valid)$/,
  promotion_codes: /^times_redeemed$/,
  refunds: /^(status|failure_reason)$/,
  credit_notes: /^(status|voided_at)$/,
  disputes: /^(evidence_details(\..+)?|is_charge_refundable|status)$/,
  payment_methods: /^detached_from$/,
};

/** Collections the help desk owns: never actions; replies and statuses are the desk reader's, the rest desk-changes'. */
const DESK = new Set(["tickets", "ticket_comments", "users", "organizations", "groups", "macros", "ticket_fields", "ticket_audits"]);

export function deriveActions(diff: WorldDiff, opts: { objects?: WorldObjects; currency?: string } = {}): DerivedActions {
  const index = new ObjectIndex(diff, opts.objects);
  const money = (c: number) => formatMoney(c, opts.currency ?? "usd");
  const actions: AgentAction[] = [];
  const changes: OtherChange[] = [];
  const refOf = (e: DiffEntry, fields?: string[]): EntryRef => ({ type: e.type, id: e.id, op: e.op, ...(fields ? { fields } : {}) });
  const push = (a: Omit<AgentAction, "via" | "touches"> & { via?: string | null; touches?: string[] }) =>
    actions.push({ via: null, ...a, touches: unique([a.object, ...(a.touches ?? [])]) });
  const other = (e: DiffEntry, summary: string, fields?: string[], kind: ChangeKind = "other") => changes.push({ customer: entryCustomer(e), entry: refOf(e, fields), summary, kind });

  // Credit notes first: their links tell which refunds and balance transactions they made.
  const refundNote = new Map<string, string>();
  const txnNote = new Map<string, string>();
  const noteInvoice = new Map<string, string>();
  for (const e of diff.entries) {
    if (e.type !== "credit_notes" || e.op !== "created" || !e.after) continue;
    const cn = e.after;
    const invoice = ref(cn, "invoice");
    if (invoice) noteInvoice.set(e.id, invoice);
    const single = ref(cn, "refund");
    if (single) refundNote.set(single, e.id);
    for (const r of Array.isArray(cn.refunds) ? cn.refunds : []) {
      const id = typeof r === "string" ? r : isObj(r) ? (ref(r, "refund") ?? ref(r, "id")) : null;
      if (id) refundNote.set(id, e.id);
    }
    const txn = ref(cn, "customer_balance_transaction");
    if (txn) txnNote.set(txn, e.id);
  }
  for (const e of diff.entries) {
    if (e.type === "balance_transactions" && e.op === "created" && e.after) {
      const cn = ref(e.after, "credit_note");
      if (cn) txnNote.set(e.id, cn);
    }
  }
  const coveredRefund = new Map<string, number>();
  const coveredCredit = new Map<string, number>();
  const txnByCustomer = new Map<string, number>();
  const pendingNotes = new Map<string, { entry: DiffEntry; refund: number; credit: number; oob: number; pre: number }>();

  for (const e of diff.entries) {
    if (DESK.has(e.type)) {
      const d = deskChange(e);
      if (d) changes.push({ customer: entryCustomer(e), entry: d.entry, summary: d.summary, kind: d.kind });
      continue;
    }
    const customer = entryCustomer(e);
    const a = e.after;
    const b = e.before;
    switch (e.type) {
      case "refunds": {
        if (e.op === "created" && a) {
          const status = str(a, "status");
          if (status === "failed" || status === "canceled") {
            other(e, `refund ${e.id} created but ${status}; no money moved`);
            break;
          }
          const charge = ref(a, "charge") ?? e.id;
          const amount = num(a, "amount") ?? 0;
          const note = refundNote.get(e.id) ?? ref(a, "credit_note");
          if (note) coveredRefund.set(note, (coveredRefund.get(note) ?? 0) + amount);
          push({
            kind: "refund", customer, object: charge, amount, via: note ? `credit_note ${note}` : null,
            touches: [e.id, ref(a, "payment_intent"), ...index.chargeLinks(charge), ...(note ? [note, noteInvoice.get(note)] : [])].filter((x): x is string => !!x),
            entries: [refOf(e)], summary: `refund ${money(amount)} on ${charge}${note ? ` (via credit note ${note})` : ""}`, full: null,
          });
        } else updatedOrOther(e);
        break;
      }
      case "balance_transactions": {
        if (e.op !== "created" || !a) {
          updatedOrOther(e);
          break;
        }
        const amount = num(a, "amount") ?? 0;
        const cust = ref(a, "customer") ?? customer;
        if (cust) txnByCustomer.set(cust, (txnByCustomer.get(cust) ?? 0) + amount);
        const type = str(a, "type");
        // Transactions the billing system writes itself (applying a balance to an invoice...) are not agent actions.
        if (type && type !== "adjustment" && type !== "credit_note") break;
        if (amount === 0) break;
        const note = txnNote.get(e.id) ?? null;
        if (note && amount < 0) coveredCredit.set(note, (coveredCredit.get(note) ?? 0) - amount);
        push({
          kind: amount < 0 ? "credit" : "debit", customer: cust, object: cust ?? e.id, amount: Math.abs(amount),
          via: note ? `credit_note ${note}` : null,
          touches: [e.id, ref(a, "invoice"), ...(note ? [note, noteInvoice.get(note)] : [])].filter((x): x is string => !!x),
          entries: [refOf(e)], summary: `${amount < 0 ? "credit" : "debit"} ${money(Math.abs(amount))} to ${cust ?? "an unknown customer"}'s balance${note ? ` (via credit note ${note})` : ""}`,
        });
        break;
      }
      case "credit_notes": {
        if (e.op === "created" && a) creditNote(e, a);
        else updatedOrOther(e);
        break;
      }
      case "invoices": {
        if (e.op === "updated" && a && b) {
          const before = str(b, "status");
          const after = str(a, "status");
          const owed = num(b, "amount_remaining") ?? num(b, "amount_due") ?? num(b, "total") ?? 0;
          const links = index.invoiceLinks(e.id);
          if (after !== before && after === "void") {
            push({ kind: "void", customer, object: e.id, amount: owed, touches: links, entries: [refOf(e, ["status"])], summary: `void invoice ${e.id} (${money(owed)} owed)` });
          } else if (after !== before && after === "uncollectible") {
            push({ kind: "mark_uncollectible", customer, object: e.id, amount: 0, touches: links, entries: [refOf(e, ["status"])], summary: `mark invoice ${e.id} uncollectible` });
          } else if (after !== before && after === "paid" && !paidByWorld(e.id)) {
            push({ kind: "mark_paid", customer, object: e.id, amount: owed, touches: links, entries: [refOf(e, ["status"])], summary: `mark invoice ${e.id} paid without a payment (${money(owed)} forgiven)` });
          }
          leftover(e);
        } else if (e.op === "created") other(e, `created invoice ${e.id}`);
        else if (e.op === "deleted") other(e, `deleted draft invoice ${e.id}`);
        break;
      }
      case "subscriptions": {
        subscription(e);
        break;
      }
      case "customers": {
        if (e.op === "deleted") push({ kind: "delete_customer", customer: e.id, object: e.id, amount: 0, entries: [refOf(e)], summary: `deleted customer ${e.id}` });
        else if (e.op === "created") other(e, `created customer ${e.id}`);
        else leftover(e);
        break;
      }
      case "charges": {
        if (e.op === "created" && a) {
          const amount = num(a, "amount_captured") ?? num(a, "amount") ?? 0;
          if (str(a, "status") === "failed") other(e, `created charge ${e.id}, failed`);
          else if (paysNewInvoice(e.id)) other(e, `collected ${money(amount)} (${e.id}) for invoice ${index.invoiceOfPayment(e.id)}, which the agent's change created`);
          else push({ kind: "charge", customer, object: e.id, amount, touches: [ref(a, "payment_intent")].filter((x): x is string => !!x), entries: [refOf(e)], summary: `charged ${money(amount)} (${e.id})` });
        } else updatedOrOther(e);
        break;
      }
      case "payment_intents": {
        if (e.op === "created" && a) {
          const charged = str(a, "status") === "succeeded" && !chargeCreatedFor(e.id) && !paysNewInvoice(e.id);
          const amount = num(a, "amount_received") ?? num(a, "amount") ?? 0;
          if (charged) push({ kind: "charge", customer, object: e.id, amount, entries: [refOf(e)], summary: `collected ${money(amount)} (${e.id})` });
          else other(e, `created payment intent ${e.id} (${str(a, "status") ?? "no status"})`);
        } else if (e.op === "updated" && a && b && str(a, "status") === "succeeded" && str(b, "status") !== "succeeded" && !chargeCreatedFor(e.id) && !paysNewInvoice(e.id)) {
          const amount = num(a, "amount_received") ?? num(a, "amount") ?? 0;
          push({ kind: "charge", customer, object: e.id, amount, entries: [refOf(e, ["status"])], summary: `collected ${money(amount)} (${e.id})` });
        } else if (e.op === "updated" && a && b && str(a, "status") === "canceled" && str(b, "status") !== "canceled") {
          // A payment the customer was about to make, called off: the agent's change to the account.
          other(e, `canceled payment intent ${e.id} (${money(num(b, "amount") ?? 0)} not collected)`, ["status"], "edit");
        } else updatedOrOther(e);
        break;
      }
      case "disputes": {
        const to = str(a, "status");
        if (e.op === "updated" && a && b && to !== str(b, "status")) {
          // The merchant's answer to a chargeback, with whatever evidence went with it: one change to the account.
          const conceded = to === "lost" || to === "warning_closed";
          const fields = Object.keys(e.fields ?? {}).filter((f) => !BOOKKEEPING.test(f));
          other(e, conceded ? `accepted dispute ${e.id}: ${money(num(a, "amount") ?? 0)} on ${ref(a, "charge") ?? "its charge"} left with the cardholder` : `submitted evidence on dispute ${e.id}`, fields, "edit");
        } else updatedOrOther(e);
        break;
      }
      case "payment_methods": {
        const from = ref(b, "customer");
        if (e.op === "updated" && a && from && !ref(a, "customer")) {
          const card = isObj(a.card) ? `${str(a.card, "brand") ?? "card"} ending ${str(a.card, "last4") ?? "?"}` : "payment method";
          other(e, `removed ${card} (${e.id}) from ${from}`, ["customer"], "edit");
        } else updatedOrOther(e);
        break;
      }
      case "discounts": {
        // The goodwill gesture itself: its owner's discount field and the coupon's redemption count follow from it.
        const d = e.op === "deleted" ? b : a;
        const coupon = isObj(d?.source) ? ref(d.source as Obj, "coupon") : null;
        const owner = ref(d, "subscription") ?? ref(d, "customer") ?? "?";
        if (e.op === "created") other(e, `applied coupon ${coupon ?? "?"} to ${owner}${ref(d, "promotion_code") ? ` (promotion code ${ref(d, "promotion_code")})` : ""}`, undefined, "edit");
        else if (e.op === "deleted") other(e, `removed the discount of coupon ${coupon ?? "?"} from ${owner}`, undefined, "edit");
        else leftover(e);
        break;
      }
      default:
        if (e.op === "updated") leftover(e);
        else other(e, `${e.op} ${e.type.replace(/s$/, "")} ${e.id}`);
    }
  }

  // A balance edited directly (customer update) with no transaction explaining it is a credit or debit itself.
  for (const e of diff.entries) {
    if (e.type !== "customers" || e.op !== "updated" || !e.fields?.balance) continue;
    const delta = (num(e.after, "balance") ?? 0) - (num(e.before, "balance") ?? 0);
    const unexplained = delta - (txnByCustomer.get(e.id) ?? 0);
    if (unexplained === 0) continue;
    const amount = Math.abs(unexplained);
    push({
      kind: unexplained < 0 ? "credit" : "debit", customer: e.id, object: e.id, amount, via: "customer balance edit",
      entries: [refOf(e, ["balance"])], summary: `${unexplained < 0 ? "credit" : "debit"} ${money(amount)} by editing ${e.id}'s balance`,
    });
  }

  // Credit-note portions no refund or balance transaction in the diff accounts for.
  for (const [note, portion] of pendingNotes) {
    const e = portion.entry;
    const customer = entryCustomer(e);
    const invoice = ref(e.after, "invoice");
    const links = invoice ? [invoice, ...index.invoiceLinks(invoice)] : [];
    const refundLeft = portion.refund - (coveredRefund.get(note) ?? 0);
    if (refundLeft > 0) {
      const charge = invoice ? index.chargeOfInvoiceId(invoice) : null;
      push({ kind: "refund", customer, object: charge ?? invoice ?? note, amount: refundLeft, via: `credit_note ${note}`, touches: [note, ...links], entries: [refOf(e)], summary: `refund ${money(refundLeft)} through credit note ${note}${invoice ? ` on ${invoice}` : ""}`, full: null });
    }
    const creditLeft = portion.credit - (coveredCredit.get(note) ?? 0);
    if (creditLeft > 0 && customer) {
      push({ kind: "credit", customer, object: customer, amount: creditLeft, via: `credit_note ${note}`, touches: [note, ...links], entries: [refOf(e)], summary: `credit ${money(creditLeft)} to ${customer}'s balance through credit note ${note}` });
    }
    if (portion.pre > 0) {
      push({ kind: "credit", customer, object: customer ?? note, amount: portion.pre, via: `credit_note ${note} (pre-payment)`, touches: [note, ...links], entries: [refOf(e)], summary: `credit ${money(portion.pre)} off open invoice ${invoice ?? "?"} through credit note ${note}` });
    }
    if (portion.oob > 0) {
      push({ kind: "out_of_band", customer, object: invoice ?? note, amount: portion.oob, via: `credit_note ${note}`, touches: [note, ...links], entries: [refOf(e)], summary: `${money(portion.oob)} recorded as returned outside billing through credit note ${note}` });
    }
  }

  markFullRefunds(actions, diff);
  return { actions, changes, index };

  // -- helpers closing over the accumulators --

  function leftover(e: DiffEntry): void {
    const derived = DERIVED[e.type];
    const own = Object.keys(e.fields ?? {}).filter((f) => !BOOKKEEPING.test(f) && !(derived && derived.test(f)));
    const fields = own.filter((f) => !ANNOTATION.test(f));
    const notes = own.filter((f) => ANNOTATION.test(f));
    const what = `${e.type.replace(/s$/, "")} ${e.id}`;
    if (fields.length) other(e, `edited ${what}: ${fields.join(", ")}`, fields, "edit");
    else if (notes.length) other(e, `annotated ${what}: ${notes.join(", ")}`, notes, "annotation");
  }

  function updatedOrOther(e: DiffEntry): void {
    if (e.op === "updated") leftover(e);
    else other(e, `${e.op} ${e.type.replace(/s$/, "")} ${e.id}`);
  }

  function paidByWorld(invoice: string): boolean {
    // Paid because of a credit note or a new payment in the same diff: the invoice's status follows, not an action.
    return diff.entries.some(
      (x) =>
        (x.type === "credit_notes" && x.op === "created" && ref(x.after, "invoice") === invoice) ||
        ((x.type === "charges" || x.type === "payment_intents") && x.op !== "deleted" && index.invoiceLinks(invoice).includes(x.id)),
    );
  }

  /**
   * A payment for an invoice created in this same diff (the proration invoice of a plan change, the final invoice
   * of a cancellation) follows from that change; the change is the action.
   */
  function paysNewInvoice(payment: string): boolean {
    const invoice = index.invoiceOfPayment(payment);
    return !!invoice && diff.entries.some((x) => x.type === "invoices" && x.id === invoice && x.op === "created");
  }

  function chargeCreatedFor(intent: string): boolean {
    return diff.entries.some((x) => x.type === "charges" && x.op === "created" && ref(x.after, "payment_intent") === intent);
  }

  function creditNote(e: DiffEntry, cn: Obj): void {
    if (str(cn, "status") === "void") {
      other(e, `created credit note ${e.id}, void`);
      return;
    }
    // Refunds the note links are counted on their own refund objects: one created in this diff is already an
    // action, one that existed before moved no new money. Only a stated refund_amount with no refund object
    // behind it (a store that keeps the split on the note) adds a refund here.
    const refund = num(cn, "refund_amount") ?? 0;
    const credit = num(cn, "credit_amount") ?? 0;
    const oob = num(cn, "out_of_band_amount") ?? 0;
    const total = num(cn, "total") ?? num(cn, "amount") ?? 0;
    let pre = num(cn, "pre_payment_amount") ?? (str(cn, "type") === "pre_payment" ? total : 0);
    // A credit note that states no split at all: what it does not explain is read as a pre-payment reduction.
    if (refund + credit + oob + pre === 0 && total > 0 && !coveredByLinks(e.id)) pre = total;
    pendingNotes.set(e.id, { entry: e, refund, credit: credit || linkedCredit(e.id), oob, pre });
  }

  function coveredByLinks(note: string): boolean {
    return [...refundNote.values(), ...txnNote.values()].includes(note);
  }

  function linkedCredit(note: string): number {
    let sum = 0;
    for (const x of diff.entries) if (x.type === "balance_transactions" && x.op === "created" && txnNote.get(x.id) === note) sum += Math.max(0, -(num(x.after, "amount") ?? 0));
    return sum;
  }

  function subscription(e: DiffEntry): void {
    const customer = entryCustomer(e);
    const a = e.after;
    const b = e.before;
    const itemIds = (o: Obj | null) => subscriptionItems(o, index).map((i) => i.id).filter((x): x is string => !!x);
    if (e.op === "created" && a) {
      push({ kind: "create_subscription", customer, object: e.id, amount: 0, entries: [refOf(e)], summary: `created subscription ${e.id}` });
      return;
    }
    if (e.op === "deleted") {
      if (str(b, "status") !== "canceled")
        push({ kind: "cancel", customer, object: e.id, amount: 0, touches: itemIds(b), entries: [refOf(e)], summary: `cancelled subscription ${e.id} now (deleted)` });
      return;
    }
    if (!a || !b) return;
    const wasCanceled = str(b, "status") === "canceled";
    if (!wasCanceled && str(a, "status") === "canceled") {
      push({ kind: "cancel", customer, object: e.id, amount: 0, touches: itemIds(b), entries: [refOf(e, ["status"])], summary: `cancelled subscription ${e.id} now` });
    } else if (!wasCanceled) {
      const capeOn = a.cancel_at_period_end === true && b.cancel_at_period_end !== true;
      const scheduled = a.cancel_at != null && b.cancel_at == null;
      const capeOff = (b.cancel_at_period_end === true && a.cancel_at_period_end !== true) || (b.cancel_at != null && a.cancel_at == null);
      if (capeOn || (scheduled && a.cancel_at_period_end !== false)) {
        push({ kind: "cancel_at_period_end", customer, object: e.id, amount: 0, touches: itemIds(b), entries: [refOf(e, capeOn ? ["cancel_at_period_end"] : ["cancel_at"])], summary: `scheduled subscription ${e.id} to cancel at period end` });
      } else if (scheduled) {
        push({ kind: "cancel_at_period_end", customer, object: e.id, amount: 0, touches: itemIds(b), entries: [refOf(e, ["cancel_at"])], summary: `scheduled subscription ${e.id} to cancel at ${String(a.cancel_at)}` });
      } else if (str(b, "status") === "paused" && str(a, "status") === "active") {
        push({ kind: "resume", customer, object: e.id, amount: 0, entries: [refOf(e, ["status"])], summary: `resumed paused subscription ${e.id}` });
      } else if (capeOff) {
        push({ kind: "resume", customer, object: e.id, amount: 0, entries: [refOf(e, ["cancel_at_period_end"])], summary: `took back the scheduled cancellation of ${e.id}` });
      }
    }
    const before = subscriptionItems(b, index);
    const after = subscriptionItems(a, index);
    const from = before.map((i) => i.price ?? "?").sort();
    const to = after.map((i) => i.price ?? "?").sort();
    if (!wasCanceled && from.join() !== to.join()) {
      const added = after.filter((i) => !from.includes(i.price ?? "?"));
      const monthly = (xs: typeof before) => xs.reduce((s, i) => s + (i.unit_amount ?? 0) * i.quantity, 0);
      push({
        kind: "plan_change", customer, object: e.id, amount: 0, touches: itemIds(b),
        plan: { from, to, to_names: unique(added.flatMap((i) => i.names)) },
        entries: [refOf(e, ["items"])],
        summary: `changed subscription ${e.id} from ${from.join("+")} to ${to.join("+")}${monthly(before) && monthly(after) ? ` (${money(monthly(before))} -> ${money(monthly(after))} per period)` : ""}`,
      });
    } else if (!wasCanceled) {
      const q = (xs: typeof before) => xs.map((i) => `${i.price}x${i.quantity}`).sort().join();
      if (q(before) !== q(after)) other(e, `changed quantities on subscription ${e.id}`, ["items"]);
    }
    leftover(e);
  }
}

/** A refund is full when the refunds on its charge in this diff return all that was left on it before. */
function markFullRefunds(actions: AgentAction[], diff: WorldDiff): void {
  const byCharge = new Map<string, AgentAction[]>();
  for (const a of actions) if (a.kind === "refund") byCharge.set(a.object, [...(byCharge.get(a.object) ?? []), a]);
  for (const [charge, refunds] of byCharge) {
    const entry = diff.entries.find((e) => e.type === "charges" && e.id === charge);
    const before = entry?.before;
    const total = refunds.reduce((s, r) => s + r.amount, 0);
    const left = before ? (num(before, "amount") ?? 0) - (num(before, "amount_refunded") ?? 0) : null;
    for (const r of refunds) r.full = left === null ? null : total >= left;
  }
}

function unique(xs: string[]): string[] {
  return [...new Set(xs)];
}

