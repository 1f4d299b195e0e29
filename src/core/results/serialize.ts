import type { Results } from "./types";

/** The results as a file: the builder's key order, two-space indent, trailing newline. */
export function serializeResults(results: Results): string {
  return JSON.stringify(results, null, 2) + "\n";
}
