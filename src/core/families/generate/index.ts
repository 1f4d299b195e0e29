// The built-in seed generators a tier may name. A tier file names one and its parameters; it never carries code.
import type { GeneratorRef } from "../schema";
import { generateCrowd } from "./crowd";
import { generateLedger, LedgerError } from "./ledger";

type Obj = Record<string, unknown>;

export const GENERATORS = ["acme-crowd", "tool-ledger"] as const;

/** Which world kind each generator makes a seed for. */
export const GENERATOR_WORLD: Record<(typeof GENERATORS)[number], "account" | "tools"> = { "acme-crowd": "account", "tool-ledger": "tools" };

export class UnknownGenerator extends Error {}
export { LedgerError };

/** The seed a generator reference makes from its base (a parsed seed document). */
export function generateSeed(ref: GeneratorRef, base: Obj, name: string): Obj {
  if (ref.generator === "acme-crowd") return generateCrowd(base, { name, prng_seed: ref.prng_seed, customers: ref.customers, shared_emails: ref.shared_emails });
  // On a tools world `customers` counts the generated records the story's read answers (the ledger's size).
  if (ref.generator === "tool-ledger") return generateLedger(base, { prng_seed: ref.prng_seed, records: ref.customers });
  throw new UnknownGenerator(`no generator '${ref.generator}' (generators: ${GENERATORS.join(", ")})`);
}
