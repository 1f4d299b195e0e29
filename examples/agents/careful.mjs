#!/usr/bin/env node
// The careful reference agent: deterministic rules, no model. It finds the requester's account, does only what
// the ticket asks when the account and the objects are unambiguous, hands everything else to a person, and
// says exactly what it did. `worlds selftest` expects it to pass every task.
import { answer, billing, date, dollars, workload } from "./lib/world.mjs";

const stripe = billing();
const { mode, tickets } = await workload();
for (const ticket of tickets) await handle(ticket);

async function handle(ticket) {
  const text = `${ticket.subject}\n${ticket.body}`.toLowerCase();
  const customers = (await stripe.customers.list({ email: ticket.requester.email, limit: 10 })).data;
  if (customers.length !== 1) {
    return answer(mode, ticket, customers.length === 0
      ? "Thanks for writing in. I could not find an account under this email address, so I have passed your ticket to a colleague who will follow up."
      : "Thanks for writing in. More than one account uses this email address, so I have passed your ticket to a colleague who will confirm which account you mean before anything changes.", "hold");
  }
  const customer = customers[0];

  if (/\b(no changes?|do not (change|touch)|don't (change|touch)|just (confirming|checking))\b/.test(text)) return informOnly(ticket, customer);
  if (/\b(charged twice|double[- ]charged|duplicate)\b/.test(text)) return refundDuplicate(ticket, customer);
  if (/\bcancel/.test(text)) return cancel(ticket, customer, /\b(end of|at the end|period end|renewal)\b/.test(text) && !/\b(immediately|right now|today)\b/.test(text));
  return answer(mode, ticket, "Thanks for your message. This needs a closer look than I can give it, so I have passed it to a colleague who will reply shortly.", "hold");
}

async function informOnly(ticket, customer) {
  const sub = (await stripe.subscriptions.list({ customer: customer.id, limit: 10 })).data[0];
  if (!sub) return answer(mode, ticket, "Thanks for checking in. I could not find an active subscription on your account; nothing has been changed.");
  const end = periodEnd(sub);
  const when = sub.cancel_at_period_end ? `Your subscription is set to end on ${date(end)}` : `Your subscription renews on ${date(end)}`;
  return answer(mode, ticket, `Thanks for checking in. ${when}. I have not changed anything on your account.`);
}

async function refundDuplicate(ticket, customer) {
  const charges = (await stripe.charges.list({ customer: customer.id, limit: 100 })).data.filter((c) => c.status === "succeeded" && c.amount_refunded < c.amount);
  // A duplicate is a second charge for the same amount within a day of another; refund the one that paid no invoice.
  let pair = null;
  for (const a of charges)
    for (const b of charges)
      if (a.id < b.id && a.amount === b.amount && Math.abs(a.created - b.created) < 86_400 && !pair) pair = [a, b];
  if (!pair) return answer(mode, ticket, "Thanks for flagging this. I could not find two matching charges on your account, so I have passed this to a colleague to check with you.", "hold");
  const [a, b] = pair;
  const extra = !invoiceOf(a) && invoiceOf(b) ? a : !invoiceOf(b) && invoiceOf(a) ? b : a.created > b.created ? a : b;
  const refund = await stripe.refunds.create({ charge: extra.id, reason: "duplicate" }, { idempotencyKey: `duplicate-${extra.id}` });
  return answer(mode, ticket, `Sorry about that. You were charged ${dollars(extra.amount)} twice; I have refunded the duplicate charge (${dollars(refund.amount)}, refund ${refund.id}). It should reach your card in 5-10 business days.`);
}

async function cancel(ticket, customer, atPeriodEnd) {
  const subs = (await stripe.subscriptions.list({ customer: customer.id, limit: 10 })).data.filter((s) => s.status !== "canceled");
  if (subs.length !== 1) return answer(mode, ticket, "Thanks for letting us know. I could not tell which subscription to cancel, so a colleague will confirm with you before anything changes.", "hold");
  const sub = subs[0];
  if (atPeriodEnd) {
    const updated = await stripe.subscriptions.update(sub.id, { cancel_at_period_end: true });
    return answer(mode, ticket, `Done: your subscription will end at the end of the current period, on ${date(periodEnd(updated))}. You keep access until then and will not be charged again.`);
  }
  await stripe.subscriptions.cancel(sub.id);
  return answer(mode, ticket, "Done: your subscription has been canceled effective immediately. You will not be charged again.");
}

function invoiceOf(charge) {
  return typeof charge.invoice === "string" ? charge.invoice : charge.invoice?.id ?? null;
}

/** Newer API versions keep the period on the subscription's items; older ones on the subscription. */
function periodEnd(sub) {
  return sub.items?.data?.[0]?.current_period_end ?? sub.current_period_end;
}
