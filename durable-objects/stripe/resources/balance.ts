// The account's balance (GET /v1/balance) and its ledger, the balance transactions (list filtered by type,
// source, payout, currency and created; retrieve; the legacy /v1/balance/history paths answer the same). Both
// are read off the charges, refunds and disputes (money/ledger.ts), so they are never written and never diffed.
import type { z } from "zod";
import type { StoredObject } from "../../store/store";
import { noSuch, noSuchParam } from "../errors";
import { paginate } from "../list";
import { inRange, listShape, range, str, strict } from "../params";
import { route, type Resource, type StripeContext } from "../types";
import { balanceOf, findTxn, ledger } from "./money/ledger";

const listParams = strict({
  ...listShape,
  created: range().optional(),
  currency: str().optional(),
  payout: str().optional(),
  source: str().optional(),
  type: str().optional(),
});

function listTxns(ctx: StripeContext, a: z.output<typeof listParams>, url: string) {
  // A world pays nothing out, so any payout named is one the account does not have.
  if (a.payout !== undefined) throw noSuchParam("payout", a.payout, "payout");
  const items = ledger(ctx.store).filter(
    (t) => (a.type === undefined || t.type === a.type) && (a.source === undefined || t.source === a.source) && (a.currency === undefined || t.currency === a.currency.toLowerCase()) && inRange(t.created, a.created),
  );
  return paginate(items, a, url, "balance transaction", (id) => findTxn(ctx.store, id));
}

function retrieveTxn(ctx: StripeContext, id: string) {
  const t = findTxn(ctx.store, id);
  if (!t) throw noSuch("balance transaction", id);
  return t;
}

function balance(ctx: StripeContext): StoredObject {
  const { available, pending } = balanceOf(ctx.store, ctx.store.meta("currency") ?? "usd");
  // The balance is the one object without an id; nothing downstream (presenting, expanding) reads one from it.
  return { object: "balance", available, livemode: false, pending } as unknown as StoredObject;
}

export const ledgerTransactions: Resource = {
  object: "balance_transaction",
  prefix: "txn",
  find: (id, ctx) => findTxn(ctx.store, id),
  expandable: ["source"],
  routes: [
    route("GET", "/v1/balance", strict({}), balance),
    route("GET", "/v1/balance_transactions", listParams, (ctx, a) => listTxns(ctx, a, "/v1/balance_transactions")),
    route("GET", "/v1/balance_transactions/:id", strict({}), (ctx, _a, p) => retrieveTxn(ctx, p.id)),
    route("GET", "/v1/balance/history", listParams, (ctx, a) => listTxns(ctx, a, "/v1/balance/history")),
    route("GET", "/v1/balance/history/:id", strict({}), (ctx, _a, p) => retrieveTxn(ctx, p.id)),
  ],
};
