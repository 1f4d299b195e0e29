// Products: list (all, or filtered by active/ids/shippable/type/url/created), retrieve, search.
import type { z } from "zod";
import type { SeedDocument } from "../../../src/core/world/seed/schema";
import type { SeedContext, SeedRow } from "../../seed/rows";
import type { StoredObject } from "../../store/store";
import { noSuch } from "../errors";
import { paginate } from "../list";
import { array, bool, inRange, listShape, oneOf, range, searchShape, str, strict } from "../params";
import { searchPage } from "../search";
import { route, type Resource, type StripeContext } from "../types";
import { versionBefore } from "../versions";

/** The release that dropped the product's `attributes` (never operational for service products) from the object. */
export const PRODUCT_ATTRIBUTES_DROPPED = "2023-08-16";

/** A product in the request's version: stored in the current shape, with the empty `attributes` older versions carry. */
function presentProduct(obj: StoredObject, ctx: StripeContext): StoredObject {
  if (obj.object !== "product" || !versionBefore(ctx.apiVersion, PRODUCT_ATTRIBUTES_DROPPED)) return obj;
  const { id, object, active, ...rest } = obj;
  return { id, object, active, attributes: [], ...rest };
}

export function productShape(fields: Partial<StoredObject> & { id: string; name: string; created: number }): StoredObject {
  return {
    id: fields.id,
    object: "product",
    active: fields.active ?? true,
    created: fields.created,
    default_price: fields.default_price ?? null,
    description: fields.description ?? null,
    images: [],
    livemode: false,
    marketing_features: [],
    metadata: fields.metadata ?? {},
    name: fields.name,
    package_dimensions: null,
    shippable: null,
    statement_descriptor: null,
    tax_code: null,
    tax_details: null,
    type: "service",
    unit_label: null,
    updated: fields.created,
    url: null,
  };
}

function seedProducts(doc: SeedDocument, ctx: SeedContext): SeedRow[] {
  return doc.data.products.map((p) => {
    const created = p.created ?? ctx.clock;
    return { type: "products", obj: productShape({ ...p, created }), customer: null, created };
  });
}

const listParams = strict({
  ...listShape,
  active: bool().optional(),
  created: range().optional(),
  ids: array(str()).optional(),
  shippable: bool().optional(),
  type: oneOf(["good", "service"]).optional(),
  url: str().optional(),
});

export const products: Resource = {
  type: "products",
  object: "product",
  prefix: "prod",
  seed: seedProducts,
  present: presentProduct,
  expandable: ["default_price", "tax_code"],
  searchFields: {
    active: { kind: "token", get: (p) => String(p.active) },
    description: { kind: "string" },
    name: { kind: "string" },
    shippable: { kind: "token", get: (p) => (p.shippable === null ? null : String(p.shippable)) },
    url: { kind: "string" },
  },
  routes: [
    route("GET", "/v1/products", listParams, (ctx, a: z.output<typeof listParams>) => {
      const items = ctx.store
        .list("products")
        .filter(
          (p) =>
            (a.active === undefined || p.active === a.active) &&
            (a.ids === undefined || a.ids.includes(p.id)) &&
            (a.shippable === undefined || p.shippable === a.shippable) &&
            (a.type === undefined || p.type === a.type) &&
            (a.url === undefined || p.url === a.url) &&
            inRange(p.created, a.created),
        );
      return paginate(items, a, "/v1/products", "product", (id) => ctx.store.get("products", id));
    }),
    route("GET", "/v1/products/search", strict(searchShape), (ctx, a) =>
      searchPage(ctx.store.list("products"), a, "/v1/products/search", products.searchFields!, "product"),
    ),
    route("GET", "/v1/products/:id", strict({}), (ctx, _a, p) => {
      const prod = ctx.store.get("products", p.id);
      if (!prod) throw noSuch("product", p.id);
      return prod;
    }),
  ],
};
