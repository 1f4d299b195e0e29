// How a world's service handlers plug into it: they get the store, the request and a way to run a transaction.
import type { Store } from "./store/store";
import type { TwinRequest, TwinResponse } from "./protocol";

export type { Service, TraceService, TwinNote, TwinRequest, TwinResponse, TraceRecord } from "./protocol";

/** Runs fn as one transaction: everything it wrote is rolled back if it throws. */
export type Transact = <T>(fn: () => T) => T;

export interface ServiceHandler {
  handle(store: Store, req: TwinRequest, transact: Transact): TwinResponse;
}

