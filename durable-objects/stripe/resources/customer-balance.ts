// The customer credit balance and its ledger: every change to customer.balance is a balance transaction whose
// ending_balance is the customer's balance afterwards, so the two can never disagree. Negative = credit.
// Used by the balance transactions API, customer create/update, credit notes and invoices.
import type { Store, StoredObject } from "../../store/store";
import { invalidParam, noSuch } from "../errors";

export type BalanceTransactionType =
  | "adjustment"
  | "applied_to_invoice"
  | "credit_note"
  | "initial"
  | "invoice_overpaid"
  | "invoice_too_large"
  | "invoice_too_small"
  | "unspent_receiver_credit"
  | "unapplied_from_invoice";

export interface BalanceChange {
  customer: string;
  amount: number;
  currency: string;
  type: BalanceTransactionType;
  description?: string | null;
  invoice?: string | null;
  credit_note?: string | null;
  metadata?: Record<string, string>;
}

/** A live (not deleted) customer, or a 404 naming it. */
export function requireCustomer(store: Store, id: string, param = "customer"): StoredObject {
  const c = store.get("customers", id);
  if (!c) throw noSuch("customer", id, param);
  return c;
}

/** The full stored shape of a customer balance transaction (seeding and the API both build through here). */
export function balanceTransactionShape(
  fields: BalanceChange & { id: string; created: number; ending_balance: number },
): StoredObject {
  return {
    id: fields.id,
    object: "customer_balance_transaction",
    amount: fields.amount,
    checkout_session: null,
    created: fields.created,
    credit_note: fields.credit_note ?? null,
    currency: fields.currency,
    customer: fields.customer,
    customer_account: null,
    description: fields.description ?? null,
    ending_balance: fields.ending_balance,
    invoice: fields.invoice ?? null,
    livemode: false,
    metadata: fields.metadata ?? {},
    type: fields.type,
  };
}

/**
 * Moves the customer's balance by `amount` and records the transaction. The customer's currency is set by the
 * first transaction; later ones must use it.
 */
export function applyBalanceChange(store: Store, change: BalanceChange): StoredObject {
  const customer = requireCustomer(store, change.customer);
  const currency = change.currency.toLowerCase();
  if (customer.currency && customer.currency !== currency)
    throw invalidParam(
      `The currency ${currency} does not match the customer's currency ${String(customer.currency)}; a customer's balance is kept in one currency.`,
      "currency",
    );
  const balance = Number(customer.balance ?? 0) + change.amount;
  const txn = balanceTransactionShape({ ...change, currency, id: store.newId("cbtxn"), created: store.now(), ending_balance: balance });
  store.insert("balance_transactions", txn, change.customer);
  store.update("customers", change.customer, { ...customer, balance, currency });
  return txn;
}
