// What a service's seeder produces: stored documents with the columns the store indexes.
import type { ObjectType } from "../../src/core/world/diff/types";
import type { StoredObject } from "../store/store";

export interface SeedRow {
  type: ObjectType;
  obj: StoredObject;
  customer: string | null;
  created: number;
}

export interface SeedContext {
  /** World clock, unix seconds. */
  clock: number;
  currency: string;
}
