// Money and time rules the seed must keep, beyond what parseSeed checks: the billing system could not have
// produced a seed that breaks one. Returns every problem as "path: message"; the generator refuses to write a
// seed with any, and the library tests run the same checks on the committed file.

export function consistencyProblems(seed) {
  const d = seed.data;
  const clock = Date.parse(seed.clock) / 1000;
  const out = [];
  const at = (coll, i, msg) => out.push(`data.${coll}[${i}]: ${msg}`);
  const charges = new Map(d.charges.map((c) => [c.id, c]));
  const invoices = new Map(d.invoices.map((x) => [x.id, x]));
  const pis = new Map(d.payment_intents.map((p) => [p.id, p]));
  const customers = new Map(d.customers.map((c) => [c.id, c]));

  for (const coll of Object.keys(d)) {
    d[coll].forEach((o, i) => {
      if (typeof o.created === "number" && o.created > clock) at(coll, i, `${o.id} created after the clock`);
      if (typeof o.created_at === "string" && Date.parse(o.created_at) / 1000 > clock) at(coll, i, `${o.id} created after the clock`);
      if (o.customer && customers.get(o.customer)?.created > (o.created ?? Infinity)) at(coll, i, `${o.id} predates its customer ${o.customer}`);
    });
  }

  const refunded = new Map();
  d.refunds.forEach((r, i) => {
    const ch = charges.get(r.charge);
    if (!ch) return;
    if (ch.status !== "succeeded") at("refunds", i, `${r.id} refunds a ${ch.status} charge`);
    if (r.created < ch.created) at("refunds", i, `${r.id} predates its charge`);
    refunded.set(ch.id, (refunded.get(ch.id) ?? 0) + r.amount);
  });
  d.charges.forEach((ch, i) => {
    const sum = refunded.get(ch.id) ?? 0;
    if ((ch.amount_refunded ?? 0) !== sum) at("charges", i, `${ch.id} amount_refunded ${ch.amount_refunded} but its refunds sum to ${sum}`);
    if (sum > ch.amount) at("charges", i, `${ch.id} refunded ${sum} of ${ch.amount}`);
    if (ch.payment_intent) {
      const pi = pis.get(ch.payment_intent);
      if (pi && pi.amount !== ch.amount) at("charges", i, `${ch.id} amount differs from ${pi.id}`);
    }
    if (ch.invoice) {
      const inv = invoices.get(ch.invoice);
      if (inv && inv.customer !== ch.customer) at("charges", i, `${ch.id} pays another customer's invoice`);
    }
  });
  d.payment_intents.forEach((pi, i) => {
    const ch = pi.latest_charge ? charges.get(pi.latest_charge) : null;
    if (pi.status === "succeeded" && (!ch || ch.status !== "succeeded" || pi.amount_received !== pi.amount)) at("payment_intents", i, `${pi.id} succeeded without a matching charge`);
  });

  const credited = new Map();
  d.credit_notes.forEach((cn, i) => {
    const inv = invoices.get(cn.invoice);
    const total = cn.lines.reduce((s, l) => s + l.amount, 0);
    if ((cn.credit_amount ?? 0) + (cn.refund_amount ?? 0) + (cn.out_of_band_amount ?? 0) !== total && inv?.status === "paid") at("credit_notes", i, `${cn.id} lines (${total}) differ from credit + refund + out of band`);
    if (inv && inv.customer !== cn.customer) at("credit_notes", i, `${cn.id} customer differs from its invoice's`);
    credited.set(cn.invoice, (credited.get(cn.invoice) ?? 0) + total);
  });

  d.invoices.forEach((inv, i) => {
    const total = inv.lines.reduce((s, l) => s + l.amount, 0);
    if (total < 0) at("invoices", i, `${inv.id} totals ${total}`);
    if ((credited.get(inv.id) ?? 0) > total) at("invoices", i, `${inv.id} is credited beyond its total`);
    inv.lines.forEach((l, j) => {
      if (l.price && l.quantity && !l.proration && l.amount !== 0) {
        const price = d.prices.find((p) => p.id === l.price);
        if (price && price.unit_amount * l.quantity !== l.amount) at("invoices", i, `${inv.id} line ${j}: ${l.quantity} × ${price.unit_amount} is not ${l.amount}`);
      }
    });
    const due = Math.max(0, total + (inv.starting_balance ?? 0));
    if (inv.status === "paid") {
      if (inv.amount_paid !== due) at("invoices", i, `${inv.id} paid ${inv.amount_paid}, owed ${due}`);
      if (due > 0) {
        const ch = inv.charge ? charges.get(inv.charge) : null;
        if (!ch || ch.status !== "succeeded" || ch.amount !== inv.amount_paid || ch.invoice !== inv.id) at("invoices", i, `${inv.id} is paid without a succeeded charge of ${inv.amount_paid}`);
      }
    } else if ((inv.amount_paid ?? 0) !== 0) at("invoices", i, `${inv.id} is ${inv.status} but amount_paid is ${inv.amount_paid}`);
    if (inv.status === "open" && inv.charge && charges.get(inv.charge)?.status === "succeeded") at("invoices", i, `${inv.id} is open with a succeeded charge`);
  });

  const balance = new Map();
  const txns = [...d.balance_transactions].sort((a, b) => a.created - b.created);
  for (const t of txns) {
    const b = (balance.get(t.customer) ?? 0) + t.amount;
    balance.set(t.customer, b);
    if (t.ending_balance !== b) out.push(`${t.id}: ending_balance ${t.ending_balance}, running balance ${b}`);
  }
  d.customers.forEach((c, i) => {
    if ((c.balance ?? 0) !== (balance.get(c.id) ?? 0)) at("customers", i, `${c.id} balance ${c.balance} but its transactions sum to ${balance.get(c.id) ?? 0}`);
  });

  d.subscriptions.forEach((s, i) => {
    const live = ["active", "trialing", "past_due", "unpaid"].includes(s.status);
    for (const it of s.items) {
      if (it.current_period_start > it.current_period_end) at("subscriptions", i, `${s.id} period runs backwards`);
      if (live && !(it.current_period_start <= clock && clock < it.current_period_end)) at("subscriptions", i, `${s.id} is ${s.status} but its period does not hold the clock`);
    }
    if (s.status === "canceled" && !(s.ended_at && s.ended_at <= clock)) at("subscriptions", i, `${s.id} canceled without an ended_at before the clock`);
    if (s.cancel_at_period_end && s.cancel_at !== s.items[0].current_period_end) at("subscriptions", i, `${s.id} cancels at period end but cancel_at is elsewhere`);
  });
  return out;
}
