// Seeding the billing store: every resource normalises its collection of the seed document into the stored
// (current-version, full) API shapes, with the owning customer recorded for attribution in the diff.
import type { SeedDocument } from "../../src/core/world/seed/schema";
import type { SeedContext, SeedRow } from "../seed/rows";
import { RESOURCES } from "./resources/index";

export function seedBilling(seed: SeedDocument, ctx: SeedContext): SeedRow[] {
  return RESOURCES.flatMap((r) => (r.seed ? r.seed(seed, ctx) : []));
}
