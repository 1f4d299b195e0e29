// The recipes' names and dials, apart from the generator: the settings schema reads them (in the Worker too)
// without pulling in the tokenizer that the history dial needs.
import type { DialName } from "./catalog";

export const RECIPES = {
  /** One dial that bit on the built-in tasks, first and top level: the cheapest look at where a setup breaks. */
  "first-look": { dials: ["depth", "faults", "history", "shape"], any: true },
  recovery: { dials: ["faults"], any: false },
  "long-context": { dials: ["history"], any: false },
  chains: { dials: ["depth", "shape"], any: false },
  choosing: { dials: ["similarity", "block", "arguments"], any: true },
  full: { dials: ["similarity", "faults", "history", "block", "arguments", "spread", "depth", "shape"], any: true },
} as const satisfies Record<string, { dials: readonly DialName[]; any: boolean }>;
export type RecipeName = keyof typeof RECIPES;
export const RECIPE_NAMES = Object.keys(RECIPES) as RecipeName[];

