// Customer balance transactions: POST a credit (negative amount) or debit, list, retrieve, update the
// description/metadata. The ledger itself lives in customer-balance.ts so credit notes and invoices share it.
import type { z } from "zod";
import type { SeedDocument } from "../../../src/core/world/seed/schema";
import type { SeedContext, SeedRow } from "../../seed/rows";
import type { StoredObject } from "../../store/store";
import { invalidParam, noSuch } from "../errors";
import { paginate } from "../list";
import { applyMetadata, emptyable, int, listShape, metadata, range, inRange, str, strict } from "../params";
import { route, type Resource, type StripeContext } from "../types";
import { applyBalanceChange, balanceTransactionShape, requireCustomer } from "./customer-balance";

const createParams = strict({
  amount: int(),
  currency: str(),
  description: emptyable(str()).optional(),
  metadata: metadata().optional(),
});
const updateParams = strict({ description: emptyable(str()).optional(), metadata: metadata().optional() });
const listParams = strict({ ...listShape, created: range().optional(), invoice: str().optional() });

/**
 * Seeded transactions are replayed in creation order per customer: a seed that omits ending_balance gets the
 * running balance, starting from what the customer's seeded balance implies.
 */
function seedBalanceTransactions(doc: SeedDocument, ctx: SeedContext): SeedRow[] {
  const byCustomer = new Map<string, typeof doc.data.balance_transactions>();
  for (const t of doc.data.balance_transactions) byCustomer.set(t.customer, [...(byCustomer.get(t.customer) ?? []), t]);
  const rows: SeedRow[] = [];
  for (const [customer, txns] of byCustomer) {
    const ordered = txns.map((t, i) => ({ t, i })).sort((a, b) => (a.t.created ?? ctx.clock) - (b.t.created ?? ctx.clock) || a.i - b.i);
    const finalBalance = doc.data.customers.find((c) => c.id === customer)?.balance ?? ordered.reduce((s, x) => s + x.t.amount, 0);
    let running = finalBalance - ordered.reduce((s, x) => s + x.t.amount, 0);
    for (const { t } of ordered) {
      running += t.amount;
      const created = t.created ?? ctx.clock;
      const obj = balanceTransactionShape({
        id: t.id,
        customer,
        amount: t.amount,
        currency: t.currency ?? doc.currency,
        type: t.type ?? "adjustment",
        description: t.description,
        invoice: t.invoice,
        credit_note: t.credit_note,
        metadata: t.metadata,
        created,
        ending_balance: t.ending_balance ?? running,
      });
      rows.push({ type: "balance_transactions", obj, customer, created });
    }
  }
  return rows;
}

function retrieveTxn(ctx: StripeContext, customer: string, id: string): StoredObject {
  requireCustomer(ctx.store, customer);
  const t = ctx.store.get("balance_transactions", id);
  if (!t || t.customer !== customer) throw noSuch("customer balance transaction", id);
  return t;
}

export const balanceTransactions: Resource = {
  type: "balance_transactions",
  object: "customer_balance_transaction",
  prefix: "cbtxn",
  seed: seedBalanceTransactions,
  expandable: ["credit_note", "customer", "invoice"],
  routes: [
    route("POST", "/v1/customers/:customer/balance_transactions", createParams, (ctx, a: z.output<typeof createParams>, p) => {
      if (a.amount === 0) throw invalidParam("The amount of a balance transaction must not be zero.", "amount");
      if (!/^[A-Za-z]{3}$/.test(a.currency)) throw invalidParam(`Invalid currency: ${a.currency.toLowerCase()}. Use a three-letter ISO code such as usd.`, "currency");
      return applyBalanceChange(ctx.store, {
        customer: p.customer,
        amount: a.amount,
        currency: a.currency,
        type: "adjustment",
        description: a.description,
        metadata: applyMetadata({}, a.metadata),
      });
    }),
    route("GET", "/v1/customers/:customer/balance_transactions", listParams, (ctx, a, p) => {
      requireCustomer(ctx.store, p.customer);
      const items = ctx.store
        .list("balance_transactions", { customer: p.customer })
        .filter((t) => inRange(t.created, a.created) && (a.invoice === undefined || t.invoice === a.invoice));
      return paginate(items, a, `/v1/customers/${p.customer}/balance_transactions`, "customer balance transaction");
    }),
    route("GET", "/v1/customers/:customer/balance_transactions/:id", strict({}), (ctx, _a, p) => retrieveTxn(ctx, p.customer, p.id)),
    route("POST", "/v1/customers/:customer/balance_transactions/:id", updateParams, (ctx, a, p) => {
      const t = retrieveTxn(ctx, p.customer, p.id);
      const next: StoredObject = { ...t, metadata: applyMetadata(t.metadata as Record<string, string>, a.metadata) };
      if (a.description !== undefined) next.description = a.description;
      return ctx.store.update("balance_transactions", t.id, next);
    }),
  ],
};
