// Resolving an expected line against the requester's objects: which charge, invoice, subscription or price the
// action must land on. Ambiguity is refused with the candidates listed, never guessed.
import type { Expectation } from "../../../rubric/schema";
import { ACTION_WORDS, ID_KINDS, type ExpectedLine, type IdKind, type TargetRef } from "./expected";
import { formatMoney } from "./money";
import { newestFirst, type Ordered, type SeedCharge, type SeedIndex, type SeedInvoice, type SeedPrice, type SeedSubscription } from "./seed-index";

export interface LineResolution {
  expect: Expectation;
  /** Human account of what the seed supplied, for `tasks validate` and tasks.build.json. */
  note: string;
}

export type ResolveResult = { ok: true; value: LineResolution } | { ok: false; message: string; offset: number };

interface Ctx {
  ix: SeedIndex;
  line: ExpectedLine;
  customer: string;
  currency: string;
}

const LIST_MAX = 8;

function day(ts: number | undefined): string {
  return ts === undefined ? "" : `, ${new Date(ts * 1000).toISOString().slice(0, 10)}`;
}

function listIds(items: string[]): string {
  return items.length > LIST_MAX ? `${items.slice(0, LIST_MAX).join(", ")} and ${items.length - LIST_MAX} more` : items.join(", ");
}

function money(ctx: Ctx, cents: number): string {
  return formatMoney(cents, ctx.currency);
}

function refuse(ctx: Ctx, message: string, at: TargetRef | null = ctx.line.target): ResolveResult {
  return { ok: false, message, offset: at ? at.offset : 0 };
}

function done(ctx: Ctx, fields: Partial<Expectation>, note: string): ResolveResult {
  const expect: Expectation = {
    action: ctx.line.action,
    amount: ctx.line.amount,
    target: null,
    target_any: [],
    price: null,
    line: ctx.line.line,
    ...fields,
  };
  return { ok: true, value: { expect, note } };
}

function describeCharge(ctx: Ctx, ch: SeedCharge): string {
  const left = ctx.ix.refundable(ch);
  const part = left !== ch.amount ? `, ${money(ctx, left)} left to refund` : "";
  return `${ch.id} (${money(ctx, ch.amount)}${part}${day(ch.created)})`;
}

function describeInvoice(ctx: Ctx, inv: SeedInvoice): string {
  return `${inv.id} (${inv.status}, ${money(ctx, ctx.ix.invoiceTotal(inv))}${inv.number ? `, ${inv.number}` : ""}${day(inv.created)})`;
}

function describeSubscription(ctx: Ctx, sub: SeedSubscription): string {
  const price = ctx.ix.prices.get(sub.items[0].price);
  return `${sub.id} (${sub.status}${price ? `, ${ctx.ix.priceLabel(price)}` : ""}${sub.cancel_at_period_end ? ", cancels at period end" : ""})`;
}

/** A named object must exist, be of a kind the action takes, and belong to the account the line is about. */
function ownedObject(ctx: Ctx, target: Extract<TargetRef, { kind: "id" }>): { ok: true } | { ok: false; result: ResolveResult } {
  if (!ctx.ix.holds(target.id)) return { ok: false, result: refuse(ctx, `no ${ID_KINDS[target.prefix]} ${target.id} in seed ${ctx.ix.seed.name}`) };
  const owner = ctx.ix.ownerOf(target.id);
  if (owner !== ctx.customer) {
    const email = owner ? ctx.ix.customers.get(owner)?.email : null;
    const whose = owner ? `${owner}${email ? ` (${email})` : ""}` : "no customer";
    return { ok: false, result: refuse(ctx, `${target.id} belongs to ${whose}, not to the requester's account ${ctx.customer}`) };
  }
  return { ok: true };
}

function inCurrency<T extends { currency?: string | null }>(ctx: Ctx, xs: Array<Ordered<T>>): Array<Ordered<T>> {
  return xs.filter((x) => ctx.ix.currencyOf(x.obj) === ctx.currency);
}

// ---- refund ----

function refundCharge(ctx: Ctx, ch: SeedCharge, via: string): ResolveResult {
  if (ctx.ix.currencyOf(ch) !== ctx.currency) return refuse(ctx, `${ch.id} is in ${ctx.ix.currencyOf(ch)}, not the file's ${ctx.currency}`);
  if ((ch.status ?? "succeeded") !== "succeeded") return refuse(ctx, `${via}${ch.id} is ${ch.status}; only a succeeded charge can be refunded`);
  const left = ctx.ix.refundable(ch);
  if (left === 0) return refuse(ctx, `${via}${ch.id} is already fully refunded`);
  if (ctx.line.amount !== null && ctx.line.amount > left) return refuse(ctx, `refund ${money(ctx, ctx.line.amount)} is more than the ${money(ctx, left)} left to refund on ${ch.id}`);
  return done(ctx, { target: ch.id, target_any: [ch.id] }, `${via}${describeCharge(ctx, ch)}`);
}

function refundableCharges(ctx: Ctx): Array<Ordered<SeedCharge>> {
  const min = ctx.line.amount ?? 1;
  return inCurrency(ctx, ctx.ix.chargesOfCustomer(ctx.customer)).filter((c) => ctx.ix.refundable(c.obj) >= min);
}

function noChargeMessage(ctx: Ctx): string {
  return ctx.line.amount !== null
    ? `${ctx.customer} has no charge with ${money(ctx, ctx.line.amount)} left to refund`
    : `${ctx.customer} has no charge left to refund`;
}

function resolveRefund(ctx: Ctx): ResolveResult {
  const t = ctx.line.target;
  if (t?.kind === "id" && t.prefix !== "cus") {
    const own = ownedObject(ctx, t);
    if (!own.ok) return own.result;
    if (t.prefix === "ch") return refundCharge(ctx, ctx.ix.charges.get(t.id)!, "");
    if (t.prefix === "pi") {
      const ch = ctx.ix.chargeOfPaymentIntent(ctx.ix.paymentIntents.get(t.id)!);
      if (!ch) return refuse(ctx, `${t.id} has no charge to refund`);
      return refundCharge(ctx, ch, `${t.id} -> `);
    }
    const inv = ctx.ix.invoices.get(t.id)!;
    const ch = ctx.ix.chargeOfInvoice(inv);
    if (!ch) return refuse(ctx, `${t.id} (${inv.status}) has no charge to refund`);
    return refundCharge(ctx, ch, `${t.id} -> `);
  }
  if (t?.kind === "id") {
    const own = ownedObject(ctx, t);
    if (!own.ok) return own.result;
  }
  if (t?.kind === "duplicate") return resolveDuplicate(ctx);
  const candidates = refundableCharges(ctx);
  if (candidates.length === 0) return refuse(ctx, noChargeMessage(ctx));
  if (t?.kind === "latest") return refundCharge(ctx, newestFirst(candidates)[0].obj, "latest: ");
  if (candidates.length === 1) return refundCharge(ctx, candidates[0].obj, "");
  if (ctx.line.amount === null) {
    return refuse(
      ctx,
      `refund without an amount or a target is ambiguous: ${ctx.customer} has ${candidates.length} charges to refund: ${listIds(candidates.map((c) => describeCharge(ctx, c.obj)))}; name one (refund on ${candidates[0].obj.id}) or write on latest, on duplicate, or an amount`,
    );
  }
  const ids = candidates.map((c) => c.obj.id);
  return done(ctx, { target: null, target_any: ids }, `any of ${listIds(candidates.map((c) => describeCharge(ctx, c.obj)))}`);
}

/**
 * How close two equal charges must be to count as a duplicate. A subscription's monthly charges share an amount
 * but are weeks apart; a double charge lands within minutes or, with a retry, a day or two.
 */
export const DUPLICATE_WINDOW_SECONDS = 3 * 24 * 3600;

/** Two or more untouched succeeded charges of one amount within the window: refunding any one satisfies the line. */
function resolveDuplicate(ctx: Ctx): ResolveResult {
  const byAmount = new Map<number, SeedCharge[]>();
  for (const { obj } of inCurrency(ctx, ctx.ix.chargesOfCustomer(ctx.customer))) {
    if ((obj.status ?? "succeeded") !== "succeeded" || ctx.ix.refundedAmount(obj) > 0) continue;
    if (ctx.line.amount !== null && obj.amount !== ctx.line.amount) continue;
    const g = byAmount.get(obj.amount);
    if (g) g.push(obj);
    else byAmount.set(obj.amount, [obj]);
  }
  const pairs: Array<[number, SeedCharge[]]> = [];
  for (const [amount, charges] of [...byAmount.entries()].sort(([a], [b]) => a - b)) {
    const sorted = [...charges].sort((a, b) => (a.created ?? 0) - (b.created ?? 0) || a.id.localeCompare(b.id));
    let cluster: SeedCharge[] = [];
    for (const c of sorted) {
      const last = cluster[cluster.length - 1];
      if (last && (c.created ?? 0) - (last.created ?? 0) > DUPLICATE_WINDOW_SECONDS) {
        if (cluster.length > 1) pairs.push([amount, cluster]);
        cluster = [];
      }
      cluster.push(c);
    }
    if (cluster.length > 1) pairs.push([amount, cluster]);
  }
  const of = ctx.line.amount !== null ? ` of ${money(ctx, ctx.line.amount)}` : "";
  if (pairs.length === 0) return refuse(ctx, `'on duplicate' found no duplicate: ${ctx.customer} has no two unrefunded charges${of} of the same amount within 3 days of each other`);
  if (pairs.length > 1) {
    const listed = pairs.map(([amount, g]) => `${g.map((c) => c.id).join(" + ")} (${money(ctx, amount)} each)`).join("; ");
    return refuse(ctx, `'on duplicate' is ambiguous: ${ctx.customer} has ${pairs.length} sets of equal charges: ${listed}; give the amount (refund $X.XX on duplicate) or name the charge`);
  }
  const [amount, group] = pairs[0];
  return done(ctx, { target: null, target_any: group.map((c) => c.id) }, `duplicate: any one of ${group.map((c) => c.id).join(", ")} (${money(ctx, amount)} each)`);
}

// ---- credit ----

function creditInvoice(ctx: Ctx, inv: SeedInvoice, via: string): ResolveResult {
  if (ctx.ix.currencyOf(inv) !== ctx.currency) return refuse(ctx, `${inv.id} is in ${ctx.ix.currencyOf(inv)}, not the file's ${ctx.currency}`);
  if (inv.status !== "open" && inv.status !== "paid") return refuse(ctx, `${via}${inv.id} is ${inv.status}; a credit note needs an open or paid invoice`);
  const left = ctx.ix.creditable(inv);
  if (left === 0) return refuse(ctx, `${via}${inv.id} is already credited in full`);
  if (ctx.line.amount !== null && ctx.line.amount > left) return refuse(ctx, `credit ${money(ctx, ctx.line.amount)} is more than the ${money(ctx, left)} ${inv.id} can still be credited`);
  return done(ctx, { target: inv.id, target_any: [inv.id] }, `credit note on ${via}${describeInvoice(ctx, inv)}`);
}

function resolveCredit(ctx: Ctx): ResolveResult {
  const t = ctx.line.target;
  if (t?.kind === "id") {
    const own = ownedObject(ctx, t);
    if (!own.ok) return own.result;
    if (t.prefix === "in") return creditInvoice(ctx, ctx.ix.invoices.get(t.id)!, "");
  }
  if (t?.kind === "latest") {
    const invoices = inCurrency(ctx, ctx.ix.invoicesOfCustomer(ctx.customer)).filter((i) => i.obj.status === "open" || i.obj.status === "paid");
    if (invoices.length === 0) return refuse(ctx, `${ctx.customer} has no open or paid invoice to credit`);
    return creditInvoice(ctx, newestFirst(invoices)[0].obj, "latest: ");
  }
  const cus = ctx.ix.customers.get(ctx.customer)!;
  return done(ctx, { target: cus.id, target_any: [cus.id] }, `balance credit to ${cus.id}${cus.name ? ` (${cus.name})` : ""}`);
}

// ---- void ----

function voidable(ctx: Ctx): Array<Ordered<SeedInvoice>> {
  return inCurrency(ctx, ctx.ix.invoicesOfCustomer(ctx.customer)).filter(
    (i) => (i.obj.status === "open" || i.obj.status === "uncollectible") && (ctx.line.amount === null || ctx.ix.invoiceTotal(i.obj) === ctx.line.amount),
  );
}

function voidInvoice(ctx: Ctx, inv: SeedInvoice, via: string): ResolveResult {
  if (inv.status !== "open" && inv.status !== "uncollectible") return refuse(ctx, `${inv.id} is ${inv.status}; only an open or uncollectible invoice can be voided`);
  const total = ctx.ix.invoiceTotal(inv);
  if (ctx.line.amount !== null && total !== ctx.line.amount) return refuse(ctx, `${inv.id} is for ${money(ctx, total)}, not ${money(ctx, ctx.line.amount)}`);
  return done(ctx, { target: inv.id, target_any: [inv.id] }, `${via}${describeInvoice(ctx, inv)}`);
}

function resolveVoid(ctx: Ctx): ResolveResult {
  const t = ctx.line.target;
  if (t?.kind === "id") {
    const own = ownedObject(ctx, t);
    if (!own.ok) return own.result;
    if (t.prefix === "in") return voidInvoice(ctx, ctx.ix.invoices.get(t.id)!, "");
  }
  const candidates = voidable(ctx);
  const of = ctx.line.amount !== null ? ` for ${money(ctx, ctx.line.amount)}` : "";
  if (candidates.length === 0) return refuse(ctx, `${ctx.customer} has no open invoice${of} to void`);
  if (t?.kind === "latest") return voidInvoice(ctx, newestFirst(candidates)[0].obj, "latest: ");
  if (candidates.length === 1) return voidInvoice(ctx, candidates[0].obj, "");
  return refuse(
    ctx,
    `void is ambiguous: ${ctx.customer} has ${candidates.length} open invoices${of}: ${listIds(candidates.map((c) => describeInvoice(ctx, c.obj)))}; name one (void ${candidates[0].obj.id}) or write on latest`,
  );
}

// ---- subscriptions: cancel, cancel at period end, plan change ----

function subscriptionCandidates(ctx: Ctx): Array<Ordered<SeedSubscription>> {
  return ctx.ix
    .subscriptionsOfCustomer(ctx.customer)
    .filter((s) => ctx.ix.isLive(s.obj) && !(ctx.line.action === "cancel_at_period_end" && s.obj.cancel_at_period_end));
}

function pickSubscription(ctx: Ctx): { ok: true; sub: SeedSubscription; via: string } | { ok: false; result: ResolveResult } {
  const t = ctx.line.target;
  const word = ACTION_WORDS[ctx.line.action];
  if (t?.kind === "id") {
    const own = ownedObject(ctx, t);
    if (!own.ok) return own;
    if (t.prefix === "sub") {
      const sub = ctx.ix.subscriptions.get(t.id)!;
      if (!ctx.ix.isLive(sub)) return { ok: false, result: refuse(ctx, `${sub.id} is ${sub.status}; there is nothing to ${word}`) };
      if (ctx.line.action === "cancel_at_period_end" && sub.cancel_at_period_end) return { ok: false, result: refuse(ctx, `${sub.id} is already set to cancel at period end`) };
      return { ok: true, sub, via: "" };
    }
  }
  const candidates = subscriptionCandidates(ctx);
  if (candidates.length === 0) {
    const flagged = ctx.ix.subscriptionsOfCustomer(ctx.customer).filter((s) => ctx.ix.isLive(s.obj) && s.obj.cancel_at_period_end);
    if (ctx.line.action === "cancel_at_period_end" && flagged.length) {
      return { ok: false, result: refuse(ctx, `every live subscription of ${ctx.customer} is already set to cancel at period end (${flagged.map((s) => s.obj.id).join(", ")})`) };
    }
    return { ok: false, result: refuse(ctx, `${ctx.customer} has no live subscription to ${word}`) };
  }
  if (t?.kind === "latest") return { ok: true, sub: newestFirst(candidates)[0].obj, via: "latest: " };
  if (candidates.length === 1) return { ok: true, sub: candidates[0].obj, via: "" };
  return {
    ok: false,
    result: refuse(ctx, `${word} is ambiguous: ${ctx.customer} has ${candidates.length} live subscriptions: ${listIds(candidates.map((c) => describeSubscription(ctx, c.obj)))}; name one (${word}${ctx.line.action === "plan_change" ? ` to ${ctx.line.plan?.name ?? "..."}` : ""} on ${candidates[0].obj.id}) or write on latest`),
  };
}

function resolveCancel(ctx: Ctx): ResolveResult {
  const pick = pickSubscription(ctx);
  if (!pick.ok) return pick.result;
  return done(ctx, { target: pick.sub.id, target_any: [pick.sub.id] }, `${pick.via}${describeSubscription(ctx, pick.sub)}`);
}

function matchesPlan(ctx: Ctx, p: SeedPrice, name: string): boolean {
  const n = name.toLowerCase();
  const nick = p.nickname?.toLowerCase() ?? null;
  const product = ctx.ix.productNames.get(p.product)?.toLowerCase() ?? null;
  return p.id === name || p.lookup_key === name || nick === n || (nick !== null && nick.split(/\s+/)[0] === n) || product === n;
}

function sameInterval(a: SeedPrice, b: SeedPrice | undefined): boolean {
  return !!b?.recurring && !!a.recurring && a.recurring.interval === b.recurring.interval && (a.recurring.interval_count ?? 1) === (b.recurring.interval_count ?? 1);
}

function resolvePlanChange(ctx: Ctx): ResolveResult {
  const pick = pickSubscription(ctx);
  if (!pick.ok) return pick.result;
  const sub = pick.sub;
  const plan = ctx.line.plan!;
  const current = ctx.ix.prices.get(sub.items[0].price);
  const subCurrency = (sub.currency ?? current?.currency ?? ctx.ix.seed.currency).toLowerCase();
  const at = { kind: "latest" as const, offset: plan.offset };
  let matches = ctx.ix.recurringPrices().filter((p) => matchesPlan(ctx, p, plan.name) && ctx.ix.currencyOf(p) === subCurrency);
  if (matches.length === 0) {
    const names = [...new Set(ctx.ix.recurringPrices().map((p) => ctx.ix.priceLabel(p)))];
    return refuse(ctx, `no recurring price in seed ${ctx.ix.seed.name} matches '${plan.name}'${names.length ? ` (plans: ${listIds(names)})` : " (the seed has no recurring prices)"}`, at);
  }
  if (matches.length > 1) {
    const same = matches.filter((p) => sameInterval(p, current));
    if (same.length >= 1) matches = same;
  }
  if (matches.length > 1) {
    return refuse(ctx, `'${plan.name}' matches ${matches.length} prices: ${listIds(matches.map((p) => `${p.id} (${ctx.ix.priceLabel(p)})`))}; write the price id (plan change to ${matches[0].id})`, at);
  }
  const price = matches[0];
  if (sub.items.some((it) => it.price === price.id)) return refuse(ctx, `${sub.id} is already on ${price.id} (${ctx.ix.priceLabel(price)})`, at);
  return done(ctx, { target: sub.id, target_any: [sub.id], price: price.id }, `${pick.via}${describeSubscription(ctx, sub)} -> ${price.id} (${ctx.ix.priceLabel(price)})`);
}

export function resolveLine(ix: SeedIndex, line: ExpectedLine, customer: string, currency: string): ResolveResult {
  const ctx: Ctx = { ix, line, customer, currency };
  switch (line.action) {
    case "refund":
      return resolveRefund(ctx);
    case "credit":
      return resolveCredit(ctx);
    case "void":
      return resolveVoid(ctx);
    case "cancel":
    case "cancel_at_period_end":
      return resolveCancel(ctx);
    case "plan_change":
      return resolvePlanChange(ctx);
    case "none":
    case "escalate":
      return done(ctx, {}, line.action === "none" ? "no change expected" : "hand off; no change expected");
  }
}

/** The customer a line names outright (through an object id), used to pick among accounts sharing an email. */
export function namedOwner(ix: SeedIndex, line: ExpectedLine): { id: string; owner: string | null; prefix: IdKind } | null {
  const t = line.target;
  if (t?.kind !== "id") return null;
  return { id: t.id, owner: ix.ownerOf(t.id), prefix: t.prefix };
}
