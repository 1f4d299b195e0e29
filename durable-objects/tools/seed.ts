// Seeding a tools world: the block goes to the world's meta (read on every call), and each write the task expects
// gets its record, pending, so the write that solves the task shows in the diff as that record moving.
import type { SeedDocument } from "../../src/core/world/seed/schema";
import type { SeedContext, SeedRow } from "../seed/rows";
import type { Store } from "../store/store";

export const TOOLS_BLOCK_META = "tools_block";
export const TOOLS_STATE_META = "tools_state";

export function seedTools(seed: SeedDocument, ctx: SeedContext, store: Store): SeedRow[] {
  if (!seed.tools) return [];
  store.setMeta(TOOLS_BLOCK_META, JSON.stringify(seed.tools));
  return seed.tools.task.writes.map((w) => ({
    type: "records" as const,
    obj: { id: w.record, object: "record", tool: w.name, status: "pending", arguments: w.arguments },
    customer: null,
    created: ctx.clock,
  }));
}
