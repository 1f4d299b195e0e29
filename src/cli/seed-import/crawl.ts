// What an import reads: the newest N of each billing resource, the customers a ticket export names with their
// subscriptions, invoices and charges, and then every object those reference (and the refunds, credit notes and
// balance transactions the amounts depend on), until nothing points outside the set.
import { KINDS, type ApiObject, type BillingSource, type Kind, type SampleKind } from "./source";

export type Objects = Record<Kind, Map<string, ApiObject>>;

export interface CrawlResult {
  objects: Objects;
  /** Objects something referenced that the API no longer has (deleted customers...). */
  missing: Array<{ kind: Kind; id: string }>;
  requests: number;
}

export interface CrawlOptions {
  sample: number;
  /** Customers to copy in beyond the sample, by email. */
  requesterEmails?: string[];
  onProgress?: (line: string) => void;
}

export interface RequesterLookup {
  found: string[];
  unknown: string[];
}

const SAMPLED: SampleKind[] = ["customers", "products", "prices", "subscriptions", "invoices", "charges", "refunds", "credit_notes"];
const PARALLEL = 8;

type Ref = { kind: Kind; id: string; parent?: string };

const idOf = (v: unknown): string | null => (typeof v === "string" ? v : v && typeof v === "object" && typeof (v as { id?: unknown }).id === "string" ? (v as { id: string }).id : null);
const list = (v: unknown): ApiObject[] => (v && typeof v === "object" && Array.isArray((v as { data?: unknown }).data) ? ((v as { data: ApiObject[] }).data) : []);
const hasMore = (v: unknown): boolean => !!(v && typeof v === "object" && (v as { has_more?: unknown }).has_more === true);

/** What an object points at. */
export function referencesOf(kind: Kind, o: ApiObject): Ref[] {
  const refs: Array<[Kind, unknown]> = [];
  switch (kind) {
    case "prices":
      refs.push(["products", o.product]);
      break;
    case "subscriptions":
      refs.push(["customers", o.customer], ["invoices", o.latest_invoice]);
      for (const it of list(o.items)) refs.push(["prices", it.price]);
      break;
    case "invoices":
      refs.push(["customers", o.customer], ["subscriptions", o.subscription], ["charges", o.charge], ["payment_intents", o.payment_intent]);
      for (const l of list(o.lines)) refs.push(["prices", l.price]);
      break;
    case "charges":
      refs.push(["customers", o.customer], ["invoices", o.invoice], ["payment_intents", o.payment_intent]);
      break;
    case "payment_intents":
      refs.push(["customers", o.customer], ["charges", o.latest_charge], ["invoices", o.invoice]);
      break;
    case "refunds":
      refs.push(["charges", o.charge]);
      break;
    case "credit_notes":
      refs.push(["invoices", o.invoice], ["customers", o.customer], ["refunds", o.refund]);
      break;
    case "balance_transactions":
      refs.push(["customers", o.customer], ["invoices", o.invoice], ["credit_notes", o.credit_note]);
      break;
    default:
      break;
  }
  const out: Ref[] = [];
  for (const [k, v] of refs) {
    const id = idOf(v);
    if (id) out.push({ kind: k, id });
  }
  if (kind === "credit_notes") {
    const cbtxn = idOf(o.customer_balance_transaction);
    const customer = idOf(o.customer);
    if (cbtxn && customer) out.push({ kind: "balance_transactions", id: cbtxn, parent: customer });
  }
  return out;
}

export async function crawl(source: BillingSource, opts: CrawlOptions): Promise<CrawlResult & { requesters: RequesterLookup }> {
  const objects = Object.fromEntries(KINDS.map((k) => [k, new Map<string, ApiObject>()])) as Objects;
  const missing = new Map<string, Ref>();
  const visited = new Set<string>();
  let requests = 0;
  const queue: Array<{ kind: Kind; obj: ApiObject }> = [];
  const add = (kind: Kind, obj: ApiObject) => {
    if (objects[kind].has(obj.id)) return;
    objects[kind].set(obj.id, obj);
    queue.push({ kind, obj });
  };

  for (const kind of SAMPLED) {
    requests++;
    for (const o of await source.list(kind, {}, opts.sample)) add(kind, o);
    opts.onProgress?.(`read ${objects[kind].size} ${kind.replace("_", " ")}`);
  }

  const requesters: RequesterLookup = { found: [], unknown: [] };
  for (const email of opts.requesterEmails ?? []) {
    requests++;
    const found = await source.list("customers", { email }, 10);
    if (!found.length) {
      requesters.unknown.push(email);
      continue;
    }
    requesters.found.push(email);
    for (const c of found) {
      add("customers", c);
      for (const kind of ["subscriptions", "invoices", "charges"] as const) {
        requests++;
        for (const o of await source.list(kind, { customer: c.id }, opts.sample)) add(kind, o);
      }
    }
  }

  // The closure: each object's references, and the lists its amounts depend on.
  while (queue.length) {
    const batch = queue.splice(0, queue.length);
    const refs: Ref[] = [];
    const extras: Array<() => Promise<void>> = [];
    for (const { kind, obj } of batch) {
      for (const r of referencesOf(kind, obj)) if (!objects[r.kind].has(r.id) && !missing.has(`${r.kind}/${r.id}`)) refs.push(r);
      const key = `${kind}/${obj.id}`;
      if (visited.has(key)) continue;
      visited.add(key);
      if (kind === "customers") extras.push(async () => void (await source.balanceTransactions(obj.id, opts.sample)).forEach((b) => add("balance_transactions", b)));
      if (kind === "charges" && Number(obj.amount_refunded ?? 0) > 0) extras.push(async () => void (await source.list("refunds", { charge: obj.id }, 10_000)).forEach((r) => add("refunds", r)));
      if (kind === "invoices" && (Number(obj.pre_payment_credit_notes_amount ?? 0) > 0 || Number(obj.post_payment_credit_notes_amount ?? 0) > 0))
        extras.push(async () => void (await source.list("credit_notes", { invoice: obj.id }, 10_000)).forEach((c) => add("credit_notes", c)));
      if (kind === "subscriptions" && hasMore(obj.items)) extras.push(async () => void (obj.items = { object: "list", data: await source.subscriptionItems(obj.id), has_more: false }));
      if (kind === "invoices" && hasMore(obj.lines)) extras.push(async () => void (obj.lines = { object: "list", data: await source.invoiceLines(obj.id), has_more: false }));
      if (kind === "credit_notes" && hasMore(obj.lines)) extras.push(async () => void (obj.lines = { object: "list", data: await source.creditNoteLines(obj.id), has_more: false }));
    }
    const unique = [...new Map(refs.map((r) => [`${r.kind}/${r.id}`, r])).values()];
    const jobs: Array<() => Promise<void>> = [
      ...unique.map((r) => async () => {
        const obj = await source.retrieve(r.kind, r.id, r.parent);
        if (obj) add(r.kind, obj);
        else missing.set(`${r.kind}/${r.id}`, r);
      }),
      ...extras,
    ];
    requests += jobs.length;
    for (let i = 0; i < jobs.length; i += PARALLEL) await Promise.all(jobs.slice(i, i + PARALLEL).map((j) => j()));
    // Lines fetched in full may name prices the first look did not see.
    for (const { kind, obj } of batch) if (kind === "invoices" || kind === "subscriptions") for (const r of referencesOf(kind, obj)) if (!objects[r.kind].has(r.id) && !missing.has(`${r.kind}/${r.id}`)) queue.push({ kind, obj });
  }
  return { objects, missing: [...missing.values()].map(({ kind, id }) => ({ kind, id })), requests, requesters };
}
