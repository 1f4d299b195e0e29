// The account's balance ledger (Stripe's balance transactions, txn_...), read off the money objects rather than
// stored beside them: a succeeded charge credits the account less the processing fee, a refund debits what it
// returned, a chargeback withdraws the disputed amount plus the dispute fee (and a won dispute puts the amount
// back). Derived, so it can never disagree with the charges, refunds and disputes it reports, and a refund the
// agent makes shows up in the ledger and the balance at once. Ids come from the source object's id, so the
// same world always reports the same transaction ids.
import type { Store, StoredObject } from "../../../store/store";
import { deterministicId } from "../../../store/ids";

/** Card processing: 2.9% + 30 cents of every succeeded charge. */
export const CARD_FEE_RATE = 0.029;
export const CARD_FEE_FIXED = 30;
/** Charged when a chargeback opens; not returned when the dispute is won. */
export const DISPUTE_FEE = 1500;
/** Card funds become available this long after the charge (refunds and dispute withdrawals: at once). */
export const PAYOUT_DELAY = 2 * 86_400;

export function txnId(key: string): string {
  return deterministicId("txn", `ledger:${key}`, 0);
}

export interface TxnInput {
  key: string;
  amount: number;
  fee: number;
  feeDescription: string;
  currency: string;
  created: number;
  available_on: number;
  description: string | null;
  source: string;
  type: string;
  reporting_category: string;
}

export function txnDoc(t: TxnInput, now: number): StoredObject {
  return {
    id: txnId(t.key),
    object: "balance_transaction",
    amount: t.amount,
    available_on: t.available_on,
    balance_type: "payments",
    created: t.created,
    currency: t.currency,
    description: t.description,
    exchange_rate: null,
    fee: t.fee,
    fee_details: t.fee ? [{ amount: t.fee, application: null, currency: t.currency, description: t.feeDescription, type: "stripe_fee" }] : [],
    net: t.amount - t.fee,
    reporting_category: t.reporting_category,
    source: t.source,
    status: t.available_on <= now ? "available" : "pending",
    type: t.type,
  };
}

export function cardFee(amount: number): number {
  return Math.round(amount * CARD_FEE_RATE) + CARD_FEE_FIXED;
}

/** The transaction a charge made, or null when no money moved (failed or pending charges). */
export function chargeTxn(ch: StoredObject, now: number): StoredObject | null {
  if (ch.status !== "succeeded") return null;
  const created = ch.created as number;
  return txnDoc({
    key: ch.id, amount: ch.amount as number, fee: cardFee(ch.amount as number), feeDescription: "Stripe processing fees",
    currency: ch.currency as string, created, available_on: created + PAYOUT_DELAY, description: (ch.description as string | null) ?? null,
    source: ch.id, type: "charge", reporting_category: "charge",
  }, now);
}

/** The transaction a refund made; failed and canceled refunds returned nothing. */
export function refundTxn(re: StoredObject, now: number): StoredObject | null {
  if (re.status !== "succeeded" && re.status !== "pending") return null;
  const created = re.created as number;
  return txnDoc({
    key: re.id, amount: -(re.amount as number), fee: 0, feeDescription: "", currency: re.currency as string, created,
    available_on: created, description: "REFUND FOR CHARGE", source: re.id, type: "refund", reporting_category: "refund",
  }, now);
}

/** A chargeback's withdrawal and, once won, its reinstatement; an inquiry (warning_*) moves no money. */
export function disputeTxns(d: { id: string; amount: number; currency: string; charge: string; created: number; status: string; decided_at: number }, now: number): StoredObject[] {
  if (d.status.startsWith("warning_")) return [];
  const out = [
    txnDoc({
      key: `${d.id}:withdrawal`, amount: -d.amount, fee: DISPUTE_FEE, feeDescription: "Dispute fee", currency: d.currency, created: d.created,
      available_on: d.created, description: `Chargeback withdrawal for ${d.charge}`, source: d.id, type: "adjustment", reporting_category: "dispute",
    }, now),
  ];
  if (d.status === "won")
    out.unshift(txnDoc({
      key: `${d.id}:reinstatement`, amount: d.amount, fee: 0, feeDescription: "", currency: d.currency, created: d.decided_at,
      available_on: d.decided_at, description: `Chargeback reversal for ${d.charge}`, source: d.id, type: "adjustment", reporting_category: "dispute_reversal",
    }, now));
  return out;
}

/** The last ledger read per store, valid while the store's generation stands (any write moves it). */
const cache = new WeakMap<Store, { generation: number; txns: StoredObject[]; byId: Map<string, StoredObject> }>();

function cached(store: Store): { txns: StoredObject[]; byId: Map<string, StoredObject> } {
  const hit = cache.get(store);
  if (hit && hit.generation === store.generation) return hit;
  const txns = build(store);
  const entry = { generation: store.generation, txns, byId: new Map(txns.map((t) => [t.id, t])) };
  cache.set(store, entry);
  return entry;
}

/** Every transaction in the account, newest first (ties: the order the money moved, later first). Callers get copies. */
export function ledger(store: Store): StoredObject[] {
  return cached(store).txns.map((t) => structuredClone(t));
}

function build(store: Store): StoredObject[] {
  const now = store.now();
  const out: StoredObject[] = [];
  for (const ch of store.list("charges")) {
    const t = chargeTxn(ch, now);
    if (t) out.push(t);
  }
  for (const re of store.list("refunds")) {
    const t = refundTxn(re, now);
    if (t) out.push(t);
  }
  for (const d of store.list("disputes")) for (const t of (d.balance_transactions as StoredObject[] | undefined) ?? []) out.push({ ...t, status: (t.available_on as number) <= now ? "available" : "pending" });
  const rank = (t: StoredObject) => (t.type === "charge" ? 0 : t.type === "refund" ? 1 : 2);
  return out.sort((a, b) => (b.created as number) - (a.created as number) || rank(b) - rank(a) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** One transaction by id (a copy: expansion writes into what it is given). */
export function findTxn(store: Store, id: string): StoredObject | null {
  const t = id.startsWith("txn_") ? cached(store).byId.get(id) : undefined;
  return t ? structuredClone(t) : null;
}

export interface BalanceAmount {
  amount: number;
  currency: string;
  source_types: { card: number };
}

/** The balance by currency: available and pending nets. No payouts exist in a world, so nothing has left it. */
export function balanceOf(store: Store, defaultCurrency: string): { available: BalanceAmount[]; pending: BalanceAmount[] } {
  const sums = new Map<string, { available: number; pending: number }>();
  for (const t of ledger(store)) {
    const c = t.currency as string;
    const s = sums.get(c) ?? { available: 0, pending: 0 };
    if (t.status === "available") s.available += t.net as number;
    else s.pending += t.net as number;
    sums.set(c, s);
  }
  if (!sums.size) sums.set(defaultCurrency, { available: 0, pending: 0 });
  const currencies = [...sums.keys()].sort();
  const row = (c: string, k: "available" | "pending"): BalanceAmount => ({ amount: sums.get(c)![k], currency: c, source_types: { card: sums.get(c)![k] } });
  return { available: currencies.map((c) => row(c, "available")), pending: currencies.map((c) => row(c, "pending")) };
}
