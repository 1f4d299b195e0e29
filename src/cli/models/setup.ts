// The CLI's model client for one command: endpoints from the environment (keys only from there) or a base-URL
// flag, the shipped prices with an optional override file, a budget in dollars, and the file cache unless
// --no-cache. Every problem is a configuration error the command reports with exit 2 before anything runs.
import { existsSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  dollarsToMicros,
  MemoryBudget,
  mergePrices,
  ModelClient,
  pickModelEnv,
  priceOf,
  priceTable,
  resolveEndpoint,
  SHIPPED_PRICES,
  modelLabel,
  priceName,
  type ModelName,
  type PriceTable,
} from "../../core/models/index";
import { FileCache, MODEL_CACHE_DIR } from "./file-cache";

export interface ClientFlags {
  model: ModelName;
  baseUrl?: string;
  /** Dollars; absent: no limit. */
  budgetDollars?: number;
  /** What one call reserves at most against the budget (micro-dollars); absent: its worst case. */
  reserveMicros?: number;
  noCache?: boolean;
  pricesFile?: string;
  timeoutS?: number;
  concurrency?: number;
}

export type ClientSetup = { ok: true; client: ModelClient; budgetDollars: number | null; cacheDir: string | null } | { ok: false; message: string; nextAction: string };

export function setupModelClient(f: ClientFlags, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): ClientSetup {
  const modelEnv = pickModelEnv(env);
  const endpoint = resolveEndpoint(f.model.provider, modelEnv, f.baseUrl);
  if (!endpoint.ok) return endpoint;
  const pricesFile = f.pricesFile ?? env.WORLDS_MODEL_PRICES;
  let prices: PriceTable = SHIPPED_PRICES;
  if (pricesFile) {
    const read = readPrices(resolve(cwd, pricesFile), pricesFile);
    if (!read.ok) return { ok: false, message: read.message, nextAction: "fix the price file (docs/models.md shows its shape), or leave it out to use the shipped prices" };
    prices = mergePrices(SHIPPED_PRICES, read.table);
  }
  const budgetDollars = f.budgetDollars ?? null;
  if (budgetDollars !== null && !priceOf(prices, f.model))
    return { ok: false, message: `${modelLabel(f.model)} has no price in the price table, so a budget cannot be held`, nextAction: `give it a price with --model-prices FILE (e.g. {"version":1,"models":{"${priceName(f.model)}":{"input":0,"output":0}}}), or drop the budget` };
  const cacheDir = f.noCache ? null : join(cwd, MODEL_CACHE_DIR);
  const client = new ModelClient({
    endpoints: { [f.model.provider]: endpoint.endpoint },
    prices,
    budget: budgetDollars === null ? null : new MemoryBudget(dollarsToMicros(budgetDollars), f.reserveMicros),
    cache: cacheDir ? new FileCache(cacheDir) : null,
    timeoutMs: f.timeoutS === undefined ? undefined : Math.round(f.timeoutS * 1000),
    concurrency: f.concurrency,
  });
  return { ok: true, client, budgetDollars, cacheDir };
}

export function readPrices(path: string, shown: string): { ok: true; table: PriceTable } | { ok: false; message: string } {
  if (!existsSync(path)) return { ok: false, message: `the price file ${shown} does not exist` };
  if (statSync(path).size > 1024 * 1024) return { ok: false, message: `the price file ${shown} is over 1 MB` };
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    return { ok: false, message: `the price file ${shown} is not JSON: ${(e as Error).message}` };
  }
  const parsed = priceTable.safeParse(doc);
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    return { ok: false, message: `the price file ${shown}: ${i.path.join(".") || "(top level)"}: ${i.message}` };
  }
  return { ok: true, table: parsed.data };
}
