// The background cast: the customers no ticket is about, who make the account look like a real one (and give
// an agent plenty of wrong places to act). A year of sign-ups, every subscription state, upgrades and
// downgrades, failed payments, old refunds, credit notes and balance credits.
import { COMPANY_FIRST, COMPANY_LAST, FIRST_NAMES, LAST_NAMES, SUFFIXES, personSlug, slug } from "./names.mjs";
import { Rng } from "./prng.mjs";
import { CLOCK, DAY, HOUR, addInterval, daysAgo } from "./time.mjs";
import { ensureCreated } from "./tickets/context.mjs";

const STATES = [
  ["active", 60],
  ["active_cancelling", 6],
  ["trialing", 5],
  ["past_due", 6],
  ["unpaid", 2],
  ["canceled", 11],
  ["paused", 2],
  ["incomplete", 2],
  ["incomplete_expired", 2],
  ["no_subscription", 4],
];

/** Builds `count` background customers, avoiding every name and email the cast already uses. */
export function buildBackground(L, count, taken) {
  const rng = new Rng("background");
  const usedNames = new Set(taken.names.map((n) => n.toLowerCase()));
  const usedEmails = new Set(taken.emails);
  // no background company may borrow a cast company's name: an agent searching by name should find one
  const castWords = new Set(taken.words.map((w) => w.toLowerCase()));
  const companyWords = COMPANY_FIRST.filter((w) => !castWords.has(w.split(" ")[0].toLowerCase()));
  const out = [];
  for (let i = 0; i < count; i++) {
    const who = identity(rng, usedNames, usedEmails, companyWords);
    const cus = L.customer({ key: `bg:${i}`, name: who.name, email: who.email, phone: who.phone });
    history(L, rng, cus, i);
    out.push(cus);
  }
  return out;
}

function identity(rng, usedNames, usedEmails, companyWords) {
  for (;;) {
    let name;
    let email;
    let phone = null;
    if (rng.chance(0.55)) {
      const base = `${rng.pick(companyWords)} ${rng.pick(COMPANY_LAST)}`;
      name = `${base}${rng.pick(SUFFIXES)}`;
      const s = slug(base);
      email = `${rng.pick(["billing", "ap", "finance", "accounts", "admin", "ops", "hello"])}.${s}@example.com`;
      if (rng.chance(0.4)) phone = `+1 555 ${String(rng.int(100, 999))} ${String(rng.int(1000, 9999))}`;
    } else {
      const first = rng.pick(FIRST_NAMES);
      const last = rng.pick(LAST_NAMES);
      name = `${first} ${last}`;
      const style = rng.int(0, 3);
      const local = style === 0 ? personSlug(first, last) : style === 1 ? `${slug(first)}${slug(last)[0]}` : style === 2 ? `${slug(first)[0]}${slug(last)}` : `${personSlug(first, last)}${rng.int(2, 98)}`;
      email = `${local}@example.com`;
    }
    if (usedNames.has(name.toLowerCase()) || usedEmails.has(email)) continue;
    usedNames.add(name.toLowerCase());
    usedEmails.add(email);
    return { name, email, phone };
  }
}

/** One background customer's life: a subscription in some state and the odd extra. */
function history(L, rng, cus, i) {
  const state = rng.weighted(STATES);
  const plan = rng.weighted([["starter", 45], ["growth", 35], ["scale", 20]]);
  const interval = rng.chance(0.25) ? "year" : "month";
  const seats = rng.chance(0.35) ? rng.int(1, plan === "scale" ? 20 : 6) : 0;
  const hour = rng.int(0, 23);
  const opts = { plan, interval, seats };
  let start;
  switch (state) {
    case "no_subscription":
      cus.created = daysAgo(rng.int(5, 360), hour);
      return;
    case "trialing":
      start = daysAgo(rng.int(1, 13), hour);
      Object.assign(opts, { trialDays: 14, interval: "month" });
      break;
    case "paused":
      start = daysAgo(rng.int(20, 70), hour);
      Object.assign(opts, { trialDays: 14, state: "paused", interval: "month" });
      break;
    case "incomplete":
      start = CLOCK - rng.int(2, 20) * HOUR;
      Object.assign(opts, { state: "incomplete", interval: "month" });
      break;
    case "incomplete_expired":
      start = daysAgo(rng.int(3, 90), hour);
      Object.assign(opts, { state: "incomplete_expired" });
      break;
    case "past_due":
      start = daysAgo(rng.int(35, 330), hour);
      Object.assign(opts, { failLast: 1, interval: "month" });
      break;
    case "unpaid":
      start = daysAgo(rng.int(100, 330), hour);
      Object.assign(opts, { failLast: 2, interval: "month" });
      break;
    case "canceled": {
      // monthly only: a yearly plan bought within the year cannot have run out yet
      start = daysAgo(rng.int(60, 360), hour);
      const room = Math.max(2, Math.floor((CLOCK - start) / (31 * DAY)));
      const periods = rng.int(1, room - 1);
      const atPeriodEnd = rng.chance(0.7);
      const end = atPeriodEnd ? addInterval(start, "month", periods) : start + Math.floor((periods - 0.5) * 30 * DAY);
      Object.assign(opts, { interval: "month", cancelAt: end, canceledAt: atPeriodEnd ? end - rng.int(2, 20) * DAY : end, cancelAtPeriodEnd: atPeriodEnd });
      break;
    }
    case "active_cancelling":
      start = daysAgo(rng.int(20, 330), hour);
      Object.assign(opts, { cancelAtPeriodEnd: true, canceledAt: CLOCK - rng.int(1, 9) * DAY });
      break;
    default: {
      start = daysAgo(rng.int(3, 360), hour);
      if (rng.chance(0.15)) Object.assign(opts, { trialDays: 14 });
      // a few customers moved plans along the way
      if (opts.interval === "month" && CLOCK - start > 90 * DAY && rng.chance(0.12)) {
        const at = start + rng.int(35, Math.floor((CLOCK - start) / DAY) - 5) * DAY + rng.int(1, 20) * HOUR;
        const up = { starter: "growth", growth: "scale", scale: "scale" }[plan];
        const down = { starter: "starter", growth: "starter", scale: "growth" }[plan];
        if (rng.chance(0.6) && up !== plan) opts.changes = [{ at, plan: up }];
        else if (down !== plan) opts.changes = [{ at, plan: down }];
      }
      if (opts.interval === "month" && CLOCK - start > 120 * DAY && rng.chance(0.08)) opts.credits = [{ period: 2, amount: rng.pick([1000, 1500, 2000, 2500, 5000]), description: rng.pick(["Goodwill credit: sync outage", "Goodwill credit: billing mix-up", "Loyalty credit"]) }];
    }
  }
  ensureCreated(cus, start);
  if (plan === "scale" && state === "active" && !opts.trialDays && rng.chance(0.3)) L.onboarding(cus, start - 6 * HOUR);
  const r = L.subscribe(cus, { ...opts, start });
  extras(L, rng, cus, r, state);
}

/** Old refunds, credit notes, outstanding balance credits and the occasional dispute. */
function extras(L, rng, cus, r, state) {
  const paid = r.periods.filter((p) => p.charge && p.charge.status === "succeeded" && p.charge.amount > 0);
  if (paid.length === 0) return;
  const roll = rng.next();
  const pick = paid[rng.int(0, paid.length - 1)];
  const last = paid[paid.length - 1];
  // money put on the balance must come after the newest invoice, or that invoice would have consumed it
  const newest = r.periods[r.periods.length - 1];
  const settled = newest === last && !newest.upgrade;
  const later = (ts, maxDays) => Math.min(CLOCK - HOUR, ts + rng.int(1, maxDays) * DAY + rng.int(0, 8) * HOUR);
  if (roll < 0.07) {
    const full = rng.chance(0.5);
    const amount = full ? pick.charge.amount : Math.max(100, Math.round(pick.charge.amount * rng.pick([0.1, 0.25, 0.5])));
    L.refund(pick.charge, amount, { reason: "requested_by_customer", created: later(pick.charge.created, 10) });
  } else if (roll < 0.11 && settled && last.invoice.lines.some((l) => l.quantity > 1)) {
    L.creditNote(last.invoice, 1200, { reason: "order_change", memo: "Seat removed before renewal", created: later(last.invoice.created, 3) });
  } else if (roll < 0.14 && settled && state === "active" && CLOCK - last.charge.created > 2 * DAY) {
    L.balance(cus, -rng.pick([1000, 2000, 2500, 4000]), { description: "Goodwill credit", created: later(last.charge.created, 2) });
  } else if (roll < 0.16) {
    pick.charge.disputed = true;
  }
}
