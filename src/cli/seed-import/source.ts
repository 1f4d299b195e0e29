// The billing API an import reads, through the official client: newest-first lists and retrieves by id, each
// pinned to one API version so every object arrives in the shape the mapping reads.
import type Stripe from "stripe";

/**
 * The version every import reads in: the last one whose objects still name their links directly (invoice.charge,
 * invoice.subscription, charge.invoice, credit_note.refund, a line's price), which is the shape a seed is written in.
 */
export const IMPORT_API_VERSION = "2025-02-24.acacia";

export type ApiObject = Record<string, unknown> & { id: string };

export const KINDS = ["customers", "products", "prices", "subscriptions", "invoices", "charges", "payment_intents", "refunds", "credit_notes", "balance_transactions"] as const;
export type Kind = (typeof KINDS)[number];

/** The lists an import samples, newest first. */
export type SampleKind = Exclude<Kind, "payment_intents" | "balance_transactions">;

export interface BillingSource {
  /** Newest first, at most `max`. */
  list(kind: SampleKind, params: Record<string, string | number>, max: number): Promise<ApiObject[]>;
  balanceTransactions(customer: string, max: number): Promise<ApiObject[]>;
  subscriptionItems(subscription: string): Promise<ApiObject[]>;
  invoiceLines(invoice: string): Promise<ApiObject[]>;
  creditNoteLines(creditNote: string): Promise<ApiObject[]>;
  /** The object, or null when it does not exist (404) or was deleted. */
  retrieve(kind: Kind, id: string, parent?: string): Promise<ApiObject | null>;
  /** The account's id (acct_...), or null when the key may not read it. */
  accountId(): Promise<string | null>;
}

export class SourceError extends Error {}

export async function stripeSource(apiKey: string, apiBase: string): Promise<BillingSource> {
  const url = new URL(apiBase);
  const { default: StripeClient } = await import("stripe");
  const stripe = new StripeClient(apiKey, {
    host: url.hostname,
    port: Number(url.port || (url.protocol === "https:" ? 443 : 80)),
    protocol: url.protocol === "https:" ? "https" : "http",
    apiVersion: IMPORT_API_VERSION as Stripe.LatestApiVersion,
    maxNetworkRetries: 3,
    telemetry: false,
  });
  const arr = async (p: Stripe.ApiListPromise<unknown>, max: number) => (await p.autoPagingToArray({ limit: max })) as ApiObject[];
  const page = (max: number) => Math.min(100, Math.max(1, max));
  const lists: Record<SampleKind, (params: Record<string, string | number>, max: number) => Promise<ApiObject[]>> = {
    customers: (p, max) => arr(stripe.customers.list({ ...p, limit: page(max) }), max),
    products: (p, max) => arr(stripe.products.list({ ...p, limit: page(max) }), max),
    prices: (p, max) => arr(stripe.prices.list({ ...p, limit: page(max) }), max),
    subscriptions: (p, max) => arr(stripe.subscriptions.list({ status: "all", ...p, limit: page(max) } as Stripe.SubscriptionListParams), max),
    invoices: (p, max) => arr(stripe.invoices.list({ ...p, limit: page(max) }), max),
    charges: (p, max) => arr(stripe.charges.list({ ...p, limit: page(max) }), max),
    refunds: (p, max) => arr(stripe.refunds.list({ ...p, limit: page(max) }), max),
    credit_notes: (p, max) => arr(stripe.creditNotes.list({ ...p, limit: page(max) }), max),
  };
  const notFound = (e: unknown) => (e as { statusCode?: number }).statusCode === 404;
  const explain = (e: unknown, what: string): never => {
    const err = e as { statusCode?: number; message?: string; type?: string };
    if (err.statusCode === 401) throw new SourceError(`the API key was refused (401) while reading ${what}: check --api-key`);
    if (err.statusCode === 403) throw new SourceError(`the API key may not read ${what} (403): use a key with read access to billing`);
    if (err.type === "StripeConnectionError") throw new SourceError(`could not reach the billing API at ${apiBase} while reading ${what}: ${err.message}`);
    throw new SourceError(`reading ${what} failed: ${err.message ?? String(e)}`);
  };
  const retrievers: Record<Kind, (id: string, parent?: string) => Promise<unknown>> = {
    customers: (id) => stripe.customers.retrieve(id),
    products: (id) => stripe.products.retrieve(id),
    prices: (id) => stripe.prices.retrieve(id),
    subscriptions: (id) => stripe.subscriptions.retrieve(id),
    invoices: (id) => stripe.invoices.retrieve(id),
    charges: (id) => stripe.charges.retrieve(id),
    payment_intents: (id) => stripe.paymentIntents.retrieve(id),
    refunds: (id) => stripe.refunds.retrieve(id),
    credit_notes: (id) => stripe.creditNotes.retrieve(id),
    balance_transactions: (id, parent) => stripe.customers.retrieveBalanceTransaction(parent!, id),
  };
  return {
    async list(kind, params, max) {
      try {
        return await lists[kind](params, max);
      } catch (e) {
        return explain(e, kind.replace("_", " "));
      }
    },
    async balanceTransactions(customer, max) {
      try {
        return await arr(stripe.customers.listBalanceTransactions(customer, { limit: page(max) }), max);
      } catch (e) {
        if (notFound(e)) return [];
        return explain(e, `the balance transactions of ${customer}`);
      }
    },
    async subscriptionItems(subscription) {
      return arr(stripe.subscriptionItems.list({ subscription, limit: 100 }), 10_000).catch((e) => explain(e, `the items of ${subscription}`));
    },
    async invoiceLines(invoice) {
      return arr(stripe.invoices.listLineItems(invoice, { limit: 100 }), 10_000).catch((e) => explain(e, `the lines of ${invoice}`));
    },
    async creditNoteLines(creditNote) {
      return arr(stripe.creditNotes.listLineItems(creditNote, { limit: 100 }), 10_000).catch((e) => explain(e, `the lines of ${creditNote}`));
    },
    async retrieve(kind, id, parent) {
      try {
        const obj = (await retrievers[kind](id, parent)) as ApiObject;
        return obj.deleted === true ? null : obj;
      } catch (e) {
        if (notFound(e)) return null;
        return explain(e, `${kind.replace("_", " ")} ${id}`);
      }
    },
    async accountId() {
      try {
        const acct = await stripe.accounts.retrieveCurrent();
        return acct.id;
      } catch (e) {
        const code = (e as { statusCode?: number }).statusCode;
        if (code === 404 || code === 403) return null;
        return explain(e, "the account");
      }
    },
  };
}
