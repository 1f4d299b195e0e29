// The ledger builds the billing side of the seed the way the billing system itself would have recorded it:
// every invoice's lines sum to its total, a paid invoice carries the succeeded charge that paid it, a refund
// never exceeds what is left of its charge, and every customer's balance is the sum of its balance
// transactions. Scenarios and the background cast only call these methods, never push objects directly.
import { ONBOARDING, PLANS, priceId, planAmount } from "./catalog.mjs";
import { Rng, stableId } from "./prng.mjs";
import { CLOCK, DAY, HOUR, addInterval, shortDate } from "./time.mjs";

const CARD_BRANDS = [["visa", 6], ["mastercard", 4], ["amex", 2], ["discover", 1]];
const DECLINES = [
  ["card_declined", "Your card was declined."],
  ["insufficient_funds", "Your card has insufficient funds."],
  ["expired_card", "Your card has expired."],
];

export class Ledger {
  constructor() {
    this.customers = [];
    this.subscriptions = [];
    this.invoices = [];
    this.charges = [];
    this.payment_intents = [];
    this.refunds = [];
    this.credit_notes = [];
    this.balance_transactions = [];
    this.ids = new Set();
    this.cards = new Map(); // customer id -> card details
    this.invoiceSeq = new Map(); // customer id -> last invoice number
    this.counters = new Map(); // id key -> next suffix
    this.byId = new Map();
  }

  /** A fresh stable id: the key names what the object is, a counter separates siblings. */
  id(prefix, key) {
    const k = `${prefix}:${key}`;
    const n = (this.counters.get(k) ?? 0) + 1;
    this.counters.set(k, n);
    const id = stableId(prefix, `${key}#${n}`);
    if (this.ids.has(id)) throw new Error(`id collision for ${k}`);
    this.ids.add(id);
    return id;
  }

  get(id) {
    const o = this.byId.get(id);
    if (!o) throw new Error(`no object ${id}`);
    return o;
  }

  put(collection, obj) {
    if (obj.created !== undefined && obj.created > CLOCK) throw new Error(`${obj.id} created after the clock`);
    this[collection].push(obj);
    this.byId.set(obj.id, obj);
    return obj;
  }

  customer({ key, name, email, created, phone = null, description = null, metadata }) {
    const id = this.id("cus", key);
    const rng = new Rng(`card:${key}`);
    const brand = rng.weighted(CARD_BRANDS);
    this.cards.set(id, {
      brand,
      last4: String(rng.int(0, 9999)).padStart(4, "0"),
      exp_month: rng.int(1, 12),
      exp_year: rng.int(2027, 2031),
    });
    const c = { id, email, name, created, balance: 0, currency: "usd", description, phone, delinquent: false };
    if (metadata) c.metadata = metadata;
    return this.put("customers", c);
  }

  card(customerId) {
    return this.cards.get(customerId);
  }

  nextInvoiceNumber(customer) {
    const n = (this.invoiceSeq.get(customer.id) ?? 0) + 1;
    this.invoiceSeq.set(customer.id, n);
    const prefix = stableId("x", `prefix:${customer.id}`, 8).slice(2).toUpperCase();
    return `${prefix}-${String(n).padStart(4, "0")}`;
  }

  /**
   * An invoice and, for charge_automatically, the payment attempt on it.
   * pay: "succeeded" (paid), "failed" (stays open, one declined charge), "none" (open, nothing attempted),
   * "void" (a failed first attempt, then voided). The total is always the sum of the lines.
   */
  invoice(customer, { subscription = null, lines, created, pay = "succeeded", collection = "charge_automatically", dueDays = 30, startingBalance = 0, reason = "subscription_cycle", description = null, payAt, voidAt }) {
    const id = this.id("in", customer.id);
    const total = lines.reduce((s, l) => s + l.amount, 0);
    const finalized = created + HOUR;
    const inv = {
      id,
      customer: customer.id,
      status: "open",
      number: this.nextInvoiceNumber(customer),
      currency: "usd",
      subscription: subscription ? subscription.id : null,
      lines: lines.map((l) => ({
        id: this.id("il", id),
        amount: l.amount,
        description: l.description,
        price: l.price ?? null,
        quantity: l.quantity ?? null,
        period: l.period,
        proration: l.proration ?? false,
        subscription_item: l.subscription_item ?? null,
      })),
      amount_paid: 0,
      starting_balance: startingBalance,
      created,
      due_date: collection === "send_invoice" ? created + dueDays * DAY : null,
      payment_intent: null,
      charge: null,
      collection_method: collection,
      description,
      finalized_at: finalized,
      paid_at: null,
      voided_at: null,
      metadata: { billing_reason: reason },
    };
    this.put("invoices", inv);
    const due = total + startingBalance; // a negative starting balance is credit the invoice consumes
    if (pay === "succeeded" && due <= 0) {
      inv.status = "paid";
      inv.paid_at = finalized;
    } else if (pay === "succeeded") {
      const at = payAt ?? finalized + 60 + (hash(id) % 900);
      const { charge, pi } = this.payment(customer, due, { invoice: inv, created: at, description: reason === "subscription_create" ? "Subscription creation" : reason === "manual" ? `Invoice ${inv.number}` : "Subscription update" });
      inv.status = "paid";
      inv.amount_paid = due;
      inv.paid_at = charge.created;
      inv.payment_intent = pi.id;
      inv.charge = charge.id;
    } else if (pay === "failed" || pay === "void") {
      const at = payAt ?? finalized + 60 + (hash(id) % 900);
      const { charge, pi } = this.payment(customer, due, { invoice: inv, created: at, failed: true, description: reason === "subscription_create" ? "Subscription creation" : "Subscription update" });
      inv.payment_intent = pi.id;
      inv.charge = charge.id;
      if (pay === "void") {
        inv.status = "void";
        inv.voided_at = voidAt ?? created + 23 * HOUR;
      }
    }
    return inv;
  }

  /** A payment intent and its charge. A failed one leaves the intent waiting for a new payment method. */
  payment(customer, amount, { invoice = null, created, failed = false, description }) {
    const piId = this.id("pi", customer.id);
    const chId = this.id("ch", customer.id);
    const decline = DECLINES[hash(chId) % DECLINES.length];
    const charge = {
      id: chId,
      customer: customer.id,
      amount,
      amount_refunded: 0,
      currency: "usd",
      status: failed ? "failed" : "succeeded",
      payment_intent: piId,
      invoice: invoice ? invoice.id : null,
      description,
      created,
      disputed: false,
      failure_code: failed ? decline[0] : null,
      failure_message: failed ? decline[1] : null,
      receipt_email: customer.email,
      statement_descriptor: "ACME WORKSPACE",
      payment_method_details: { type: "card", card: { ...this.card(customer.id) } },
    };
    const pi = {
      id: piId,
      customer: customer.id,
      amount,
      amount_received: failed ? 0 : amount,
      currency: "usd",
      status: failed ? "requires_payment_method" : "succeeded",
      latest_charge: chId,
      invoice: invoice ? invoice.id : null,
      description,
      created: created - 5,
    };
    this.put("payment_intents", pi);
    this.put("charges", charge);
    if (failed) customer.delinquent = true;
    return { charge, pi };
  }

  /** A second, identical charge a few minutes after the first: the double payment a customer writes in about. */
  duplicateOf(charge, minutesLater) {
    const customer = this.get(charge.customer);
    const { charge: dup } = this.payment(customer, charge.amount, { created: charge.created + minutesLater * 60, description: charge.description });
    return dup;
  }

  refund(charge, amount, { reason = "requested_by_customer", created, note } = {}) {
    if (charge.status !== "succeeded") throw new Error(`refund on ${charge.status} charge ${charge.id}`);
    if (charge.amount_refunded + amount > charge.amount) throw new Error(`refund of ${amount} exceeds what is left of ${charge.id}`);
    if (created < charge.created) throw new Error(`refund before its charge ${charge.id}`);
    const r = { id: this.id("re", charge.id), charge: charge.id, amount, currency: "usd", reason, status: "succeeded", created };
    if (note) r.metadata = { note };
    charge.amount_refunded += amount;
    return this.put("refunds", r);
  }

  /** A balance transaction; ending balances are computed once every transaction is known. */
  balance(customer, amount, { type = "adjustment", description = null, invoice = null, creditNote = null, created }) {
    return this.put("balance_transactions", {
      id: this.id("cbtxn", customer.id),
      customer: customer.id,
      amount,
      currency: "usd",
      type,
      description,
      invoice,
      credit_note: creditNote,
      ending_balance: 0,
      created,
    });
  }

  /**
   * A credit note on an invoice. Paid invoices credit the customer's balance (or refund the charge when
   * `refund` is given); open invoices reduce what is still owed.
   */
  creditNote(invoice, amount, { reason = "order_change", memo = null, created, refund = false, lineDescription }) {
    const customer = this.get(invoice.customer);
    const total = invoice.lines.reduce((s, l) => s + l.amount, 0);
    const already = this.credit_notes.filter((c) => c.invoice === invoice.id).reduce((s, c) => s + c.lines.reduce((a, l) => a + l.amount, 0), 0);
    if (already + amount > total) throw new Error(`credit notes exceed ${invoice.id}`);
    const n = this.credit_notes.filter((c) => c.invoice === invoice.id).length + 1;
    const id = this.id("cn", invoice.id);
    const cn = {
      id,
      invoice: invoice.id,
      customer: customer.id,
      number: `${invoice.number}-CN-${String(n).padStart(2, "0")}`,
      status: "issued",
      type: invoice.status === "paid" ? "post_payment" : "pre_payment",
      reason,
      memo,
      lines: [{ id: this.id("cnli", id), amount, description: lineDescription ?? memo ?? "Credit", quantity: 1, type: "custom_line_item" }],
      credit_amount: 0,
      refund_amount: 0,
      out_of_band_amount: 0,
      refund: null,
      customer_balance_transaction: null,
      created,
      voided_at: null,
    };
    this.put("credit_notes", cn);
    if (invoice.status !== "paid") return cn; // pre-payment: lowers the amount due, no money moves
    if (refund) {
      const charge = this.get(invoice.charge);
      const r = this.refund(charge, amount, { reason: "requested_by_customer", created });
      cn.refund_amount = amount;
      cn.refund = r.id;
    } else {
      cn.credit_amount = amount;
      const txn = this.balance(customer, -amount, { type: "credit_note", description: `Credit note ${cn.number}`, invoice: invoice.id, creditNote: id, created });
      cn.customer_balance_transaction = txn.id;
    }
    return cn;
  }

  /** One-off invoice for the onboarding package (new Scale customers often buy it). */
  onboarding(customer, created, pay = "succeeded") {
    return this.invoice(customer, {
      lines: [{ amount: ONBOARDING.amount, description: "Onboarding package", price: ONBOARDING.price, quantity: 1, period: { start: created, end: created } }],
      created,
      pay,
      reason: "manual",
    });
  }

  /**
   * A subscription and every invoice it produced up to the clock.
   * opts: plan, interval, start, anchorDay, seats, trialDays, cancelAt (ts the subscription ended), canceledAt (ts the
   * request was made), cancelAtPeriodEnd, failLast (how many trailing invoices failed), state ("paused",
   * "incomplete", "incomplete_expired"), changes ([{at, plan, seats}] upgrades invoiced at once with prorations,
   * downgrades applied with no proration), credits ([{period, amount, description}] applied to that invoice),
   * duplicate (period index whose payment went through twice, minutes apart).
   */
  subscribe(customer, opts) {
    const { plan, interval = "month", start, anchorDay: fixedAnchorDay = null, seats = 0, trialDays = 0, cancelAt = null, canceledAt = null, cancelAtPeriodEnd = false, failLast = 0, state = null, changes = [], credits = [], collection = "charge_automatically" } = opts;
    const subId = this.id("sub", customer.id);
    const sub = {
      id: subId,
      customer: customer.id,
      status: "active",
      items: [],
      created: start,
      start_date: start,
      billing_cycle_anchor: start,
      cancel_at_period_end: false,
      cancel_at: null,
      canceled_at: null,
      ended_at: null,
      trial_start: null,
      trial_end: null,
      latest_invoice: null,
      collection_method: collection,
      currency: "usd",
      description: null,
    };
    this.put("subscriptions", sub);
    const baseItem = this.id("si", subId);
    const seatItem = this.id("si", subId);
    let cur = { plan, seats };
    const itemsFor = (p, s, ps, pe) => {
      const items = [{ id: baseItem, price: priceId(p.plan, interval), quantity: 1, current_period_start: ps, current_period_end: pe, created: start }];
      if (p.seats > 0) items.push({ id: seatItem, price: priceId("seats", interval), quantity: p.seats, current_period_start: ps, current_period_end: pe, created: start });
      return items;
    };
    const linesFor = (p, ps, pe) => {
      const unit = interval === "year" ? "year" : "month";
      const out = [
        { amount: planAmount(p.plan, interval), description: `1 × Acme ${PLANS[p.plan].name} (at ${fmt(planAmount(p.plan, interval))} / ${unit})`, price: priceId(p.plan, interval), quantity: 1, period: { start: ps, end: pe }, subscription_item: baseItem },
      ];
      if (p.seats > 0)
        out.push({ amount: planAmount("seats", interval) * p.seats, description: `${p.seats} × Extra seats (at ${fmt(planAmount("seats", interval))} / ${unit})`, price: priceId("seats", interval), quantity: p.seats, period: { start: ps, end: pe }, subscription_item: seatItem });
      return out;
    };
    const periods = [];
    let anchor = start;
    if (trialDays > 0) {
      const trialEnd = start + trialDays * DAY;
      sub.trial_start = start;
      sub.trial_end = trialEnd;
      const inv = this.invoice(customer, { subscription: sub, lines: linesFor(cur, start, trialEnd).map((l) => ({ ...l, amount: 0, description: `Trial period for Acme ${PLANS[cur.plan].name}` })), created: start, reason: "subscription_create" });
      periods.push({ start, end: trialEnd, invoice: inv, trial: true });
      sub.latest_invoice = inv.id;
      anchor = trialEnd;
      sub.billing_cycle_anchor = trialEnd;
      if (trialEnd > CLOCK || state === "paused") {
        sub.status = trialEnd > CLOCK ? "trialing" : "paused";
        sub.items = itemsFor(cur, null, start, trialEnd);
        if (cancelAtPeriodEnd) this.markCancelAtPeriodEnd(sub, trialEnd, canceledAt);
        return { sub, periods };
      }
    }
    // a plan started on the 31st keeps renewing on the last day of shorter months, then on the 31st again
    const anchorDay = fixedAnchorDay ?? new Date(anchor * 1000).getUTCDate();
    const starts = [];
    for (let k = 0, t = anchor; t <= CLOCK && (cancelAt === null || t < cancelAt); k++, t = addInterval(anchor, interval, k, anchorDay)) starts.push(t);
    const changeQueue = [...changes].sort((a, b) => a.at - b.at);
    starts.forEach((ps, k) => {
      const pe = addInterval(anchor, interval, k + 1, anchorDay);
      // a change dated before the first period simply sets the plan it starts on
      while (changeQueue.length && changeQueue[0].at <= ps) {
        const ch = changeQueue.shift();
        cur = { plan: ch.plan ?? cur.plan, seats: ch.seats ?? cur.seats };
      }
      const failed = k >= starts.length - failLast;
      const credit = credits.find((c) => c.period === k);
      let startingBalance = 0;
      if (credit) {
        this.balance(customer, -credit.amount, { description: credit.description, created: ps - 3 * DAY });
        startingBalance = -credit.amount;
      }
      const reason = k === 0 && trialDays === 0 ? "subscription_create" : "subscription_cycle";
      let pay = failed ? "failed" : "succeeded";
      if (state === "incomplete" || state === "incomplete_expired") pay = state === "incomplete" ? "failed" : "void";
      const inv = this.invoice(customer, { subscription: sub, lines: linesFor(cur, ps, pe), created: ps, pay, startingBalance, reason, collection });
      if (credit) {
        const applied = Math.min(credit.amount, inv.lines.reduce((s, l) => s + l.amount, 0));
        this.balance(customer, applied, { type: "applied_to_invoice", description: `Applied to invoice ${inv.number}`, invoice: inv.id, created: inv.finalized_at });
      }
      const period = { start: ps, end: pe, invoice: inv, charge: inv.charge ? this.get(inv.charge) : null, plan: cur.plan, seats: cur.seats };
      periods.push(period);
      sub.latest_invoice = inv.id;
      // upgrades inside this period: invoiced at once with prorations for the rest of it
      while (changeQueue.length && changeQueue[0].at < pe && changeQueue[0].at <= CLOCK) {
        const ch = changeQueue.shift();
        const next = { plan: ch.plan ?? cur.plan, seats: ch.seats ?? cur.seats };
        if (isUpgrade(cur, next)) {
          const frac = (pe - ch.at) / (pe - ps);
          const oldLines = linesFor(cur, ch.at, pe);
          const newLines = linesFor(next, ch.at, pe);
          const lines = [
            ...oldLines.map((l) => ({ ...l, amount: -Math.round(l.amount * frac), description: `Unused time on ${l.description.replace(/ \(at .*\)$/, "")} after ${shortDate(ch.at)}`, proration: true })),
            ...newLines.map((l) => ({ ...l, amount: Math.round(l.amount * frac), description: `Remaining time on ${l.description.replace(/ \(at .*\)$/, "")} after ${shortDate(ch.at)}`, proration: true })),
          ];
          const pinv = this.invoice(customer, { subscription: sub, lines, created: ch.at, reason: "subscription_update" });
          period.upgrade = { at: ch.at, invoice: pinv, charge: pinv.charge ? this.get(pinv.charge) : null, from: cur, to: next };
          sub.latest_invoice = pinv.id;
        } else {
          period.downgrade = { at: ch.at, from: cur, to: next };
        }
        cur = next;
      }
    });
    const last = periods[periods.length - 1];
    sub.items = itemsFor(cur, null, last.start, last.end);
    if (cancelAt !== null) {
      sub.status = "canceled";
      sub.canceled_at = canceledAt ?? cancelAt;
      sub.ended_at = cancelAt;
      sub.cancel_at = cancelAtPeriodEnd ? cancelAt : null;
      sub.cancel_at_period_end = false;
    } else if (state === "incomplete") {
      sub.status = "incomplete";
    } else if (state === "incomplete_expired") {
      sub.status = "incomplete_expired";
      sub.ended_at = last.invoice.voided_at;
    } else if (failLast >= 2) {
      sub.status = "unpaid";
    } else if (failLast === 1) {
      sub.status = "past_due";
    } else if (cancelAtPeriodEnd) {
      this.markCancelAtPeriodEnd(sub, last.end, canceledAt);
    }
    return { sub, periods, current: last };
  }

  markCancelAtPeriodEnd(sub, end, requestedAt) {
    sub.cancel_at_period_end = true;
    sub.cancel_at = end;
    sub.canceled_at = requestedAt ?? end - 10 * DAY;
  }

  /** Ending balances in time order, the customer's balance the last of them; objects sorted for output. */
  finish() {
    const byCustomer = new Map();
    const txns = stableSort(this.balance_transactions, (a, b) => a.created - b.created);
    for (const t of txns) {
      const bal = (byCustomer.get(t.customer) ?? 0) + t.amount;
      byCustomer.set(t.customer, bal);
      t.ending_balance = bal;
    }
    for (const c of this.customers) c.balance = byCustomer.get(c.id) ?? 0;
    const order = (xs) => stableSort(xs, (a, b) => (a.created ?? 0) - (b.created ?? 0));
    return {
      customers: order(this.customers),
      subscriptions: order(this.subscriptions),
      invoices: order(this.invoices),
      charges: order(this.charges),
      payment_intents: order(this.payment_intents),
      refunds: order(this.refunds),
      credit_notes: order(this.credit_notes),
      balance_transactions: txns,
    };
  }
}

function isUpgrade(from, to) {
  const rank = { starter: 0, growth: 1, scale: 2 };
  const p = to.plan ?? from.plan;
  if (rank[p] !== rank[from.plan]) return rank[p] > rank[from.plan];
  return (to.seats ?? from.seats) > from.seats;
}

function stableSort(xs, cmp) {
  return xs.map((x, i) => [x, i]).sort((a, b) => cmp(a[0], b[0]) || a[1] - b[1]).map(([x]) => x);
}

function hash(text) {
  let h = 7;
  for (let i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) >>> 0;
  return h;
}

function fmt(cents) {
  return `$${(cents / 100).toFixed(2)}`;
}
