// Numeric ids for the help desk's objects. The store's counter is raised past every id already present, so ids
// a seed wrote explicitly (tickets 1001..., users 1...) are never minted again.
import type { ObjectType } from "../../src/core/world/diff/types";
import type { Store } from "../store/store";

export function nextNumericId(store: Store, kind: string, type: ObjectType): number {
  const max = store.list(type, { includeDeleted: true }).reduce((m, o) => Math.max(m, Number(o.id) || 0), 0);
  return store.nextNumber(kind, max);
}
