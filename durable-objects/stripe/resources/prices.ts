// Prices: list (active ones unless `active` says otherwise, as the real API does), retrieve, search.
import type { z } from "zod";
import type { SeedDocument } from "../../../src/core/world/seed/schema";
import type { SeedContext, SeedRow } from "../../seed/rows";
import type { StoredObject } from "../../store/store";
import { noSuch } from "../errors";
import { paginate } from "../list";
import { array, bool, inRange, listShape, oneOf, range, searchShape, str, strict } from "../params";
import { searchPage } from "../search";
import { route, type Resource } from "../types";

type SeedPrice = SeedDocument["data"]["prices"][number];

export function priceShape(p: SeedPrice & { created: number; currency: string }): StoredObject {
  return {
    id: p.id,
    object: "price",
    active: p.active ?? true,
    billing_scheme: "per_unit",
    created: p.created,
    currency: p.currency,
    custom_unit_amount: null,
    livemode: false,
    lookup_key: p.lookup_key ?? null,
    metadata: p.metadata ?? {},
    nickname: p.nickname ?? null,
    product: p.product,
    recurring: p.recurring
      ? { interval: p.recurring.interval, interval_count: p.recurring.interval_count ?? 1, meter: null, trial_period_days: null, usage_type: "licensed" }
      : null,
    tax_behavior: "unspecified",
    tiers_mode: null,
    transform_quantity: null,
    type: p.recurring ? "recurring" : "one_time",
    unit_amount: p.unit_amount,
    unit_amount_decimal: String(p.unit_amount),
  };
}

/** The stored price objects a seed defines, by id (subscription items embed them). */
export function seedPriceObjects(doc: SeedDocument, ctx: SeedContext): Map<string, StoredObject> {
  return new Map(doc.data.prices.map((p) => [p.id, priceShape({ ...p, created: p.created ?? ctx.clock, currency: p.currency ?? doc.currency })]));
}

function seedPrices(doc: SeedDocument, ctx: SeedContext): SeedRow[] {
  return [...seedPriceObjects(doc, ctx).values()].map((obj) => ({ type: "prices", obj, customer: null, created: obj.created as number }));
}

const listParams = strict({
  ...listShape,
  active: bool().optional(),
  created: range().optional(),
  currency: str().optional(),
  lookup_keys: array(str()).optional(),
  product: str().optional(),
  recurring: strict({ interval: oneOf(["day", "week", "month", "year"]).optional(), usage_type: oneOf(["licensed", "metered"]).optional() }).optional(),
  type: oneOf(["one_time", "recurring"]).optional(),
});

export const prices: Resource = {
  type: "prices",
  object: "price",
  prefix: "price",
  seed: seedPrices,
  expandable: ["product"],
  searchFields: {
    active: { kind: "token", get: (p) => String(p.active) },
    currency: { kind: "token" },
    lookup_key: { kind: "token" },
    product: { kind: "token" },
    type: { kind: "token" },
  },
  routes: [
    route("GET", "/v1/prices", listParams, (ctx, a: z.output<typeof listParams>) => {
      const active = a.active ?? true;
      const recurring = (p: StoredObject) => p.recurring as { interval: string; usage_type: string } | null;
      const items = ctx.store
        .list("prices")
        .filter(
          (p) =>
            p.active === active &&
            (a.currency === undefined || p.currency === a.currency.toLowerCase()) &&
            (a.product === undefined || p.product === a.product) &&
            (a.type === undefined || p.type === a.type) &&
            (a.lookup_keys === undefined || a.lookup_keys.includes(p.lookup_key as string)) &&
            (a.recurring?.interval === undefined || recurring(p)?.interval === a.recurring.interval) &&
            (a.recurring?.usage_type === undefined || recurring(p)?.usage_type === a.recurring.usage_type) &&
            inRange(p.created, a.created),
        );
      return paginate(items, a, "/v1/prices", "price", (id) => ctx.store.get("prices", id));
    }),
    route("GET", "/v1/prices/search", strict(searchShape), (ctx, a) =>
      searchPage(ctx.store.list("prices"), a, "/v1/prices/search", prices.searchFields!, "price"),
    ),
    route("GET", "/v1/prices/:id", strict({}), (ctx, _a, p) => {
      const price = ctx.store.get("prices", p.id);
      if (!price) throw noSuch("price", p.id);
      return price;
    }),
  ],
};
