import type { SeedDocument } from "../../src/core/seed/schema";
import type { SeedContext, SeedRow } from "../seed/rows";
// PLACEHOLDER being replaced by the billing twin work.
export function seedBilling(seed: SeedDocument, ctx: SeedContext): SeedRow[] {
  return seed.data.customers.map((c) => ({ type: "customers", obj: { ...c, object: "customer" }, customer: c.id, created: c.created ?? ctx.clock }));
}
