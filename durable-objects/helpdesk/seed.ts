import type { SeedDocument } from "../../src/core/seed/schema";
import type { SeedContext, SeedRow } from "../seed/rows";
import type { Store } from "../store/store";
// PLACEHOLDER being replaced by the help desk twin work.
export function seedHelpdesk(_seed: SeedDocument, _ctx: SeedContext, _store: Store): SeedRow[] {
  return [];
}
