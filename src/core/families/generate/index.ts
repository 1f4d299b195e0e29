// The built-in seed generators a tier may name. A tier file names one and its parameters; it never carries code.
import type { GeneratorRef } from "../schema";
import { generateCrowd } from "./crowd";

type Obj = Record<string, unknown>;

export const GENERATORS = ["acme-crowd"] as const;

export class UnknownGenerator extends Error {}

/** The seed a generator reference makes from its base (a parsed seed document). */
export function generateSeed(ref: GeneratorRef, base: Obj, name: string): Obj {
  if (ref.generator === "acme-crowd") return generateCrowd(base, { name, prng_seed: ref.prng_seed, customers: ref.customers, shared_emails: ref.shared_emails });
  throw new UnknownGenerator(`no generator '${ref.generator}' (generators: ${GENERATORS.join(", ")})`);
}
