// Seeding a replay world: the block goes to the world's meta (read on every call). Nothing is pre-placed in the
// store: what the agent writes is all the diff will show.
import type { SeedDocument } from "../../src/core/world/seed/schema";
import type { SeedRow } from "../seed/rows";
import type { Store } from "../store/store";

export const REPLAY_BLOCK_META = "replay_block";

export function seedReplay(seed: SeedDocument, store: Store): SeedRow[] {
  if (seed.replay) store.setMeta(REPLAY_BLOCK_META, JSON.stringify(seed.replay));
  return [];
}
