// Token prices, shipped as data (prices.json) and overridable by a file of the same shape: the cost of every
// call and the judge's budget are computed from them. Money is kept in micro-dollars (whole numbers), so sums
// over thousands of calls never drift.
import { z } from "zod";
import shipped from "./prices.json";
import { priceName, type ModelName } from "./names";
import type { Usage } from "./types";
import { dict } from "../util/safe-tree";

const price = z.strictObject({
  /** Dollars per million input tokens. */
  input: z.number().nonnegative().max(10_000),
  /** Dollars per million output tokens. */
  output: z.number().nonnegative().max(10_000),
});
export type Price = z.infer<typeof price>;

export const priceTable = z.strictObject({
  version: z.literal(1),
  unit: z.literal("usd_per_million_tokens").optional(),
  note: z.string().optional(),
  models: z.record(z.string().regex(/^(openai|anthropic):[^\s]+$/, "must be provider:model (a trailing * covers a prefix)"), price),
});
export type PriceTable = z.infer<typeof priceTable>;

export const SHIPPED_PRICES: PriceTable = priceTable.parse(shipped);

/** The shipped table with `override`'s entries on top (an override wins over a shipped entry of the same name). */
export function mergePrices(base: PriceTable, override: PriceTable | null): PriceTable {
  if (!override) return base;
  const models = dict<Price>();
  for (const [k, v] of Object.entries(base.models)) models[k] = v;
  for (const [k, v] of Object.entries(override.models)) models[k] = v;
  return { version: 1, models };
}

/** Exact name first, then the longest `prefix*` entry that covers it. */
export function priceOf(table: PriceTable, model: ModelName): Price | null {
  const name = priceName(model);
  const exact = Object.prototype.hasOwnProperty.call(table.models, name) ? table.models[name] : undefined;
  if (exact) return exact;
  let best: { len: number; price: Price } | null = null;
  for (const [k, v] of Object.entries(table.models)) {
    if (!k.endsWith("*")) continue;
    const prefix = k.slice(0, -1);
    if (name.startsWith(prefix) && (!best || prefix.length > best.len)) best = { len: prefix.length, price: v };
  }
  return best?.price ?? null;
}

/** Micro-dollars for this usage at this price (a million tokens at $1 is 1,000,000 micro-dollars). */
export function costMicros(p: Price, u: Usage): number {
  return Math.ceil(u.input_tokens * p.input + u.output_tokens * p.output);
}

export function microsToDollars(micros: number): number {
  return Math.round(micros) / 1e6;
}

export function dollarsToMicros(dollars: number): number {
  return Math.round(dollars * 1e6);
}
