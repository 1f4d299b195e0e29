// Requesters and decoys by email: the seed's own customers first, then real emails through the identity map
// (real address -> the seed's pseudonymised customer). The map is a local, private file; the server never
// has one, so every hint says what to do without it.
import type { SeedCustomer } from "../../../world/seed/schema";
import type { SeedDocument } from "../../../world/seed/schema";
import { pathText } from "./source";
import { identityMapDocument, type IdentityMap } from "./schema";
import type { SeedIndex } from "./seed-index";

/** What the compiler knows about the identity map the file names. */
export type IdentityState =
  | { kind: "none" }
  | { kind: "missing"; path: string }
  | { kind: "unavailable"; reason: string }
  | { kind: "refused"; path: string }
  | { kind: "loaded"; path: string; map: IdentityMap };

export interface EmailResolution {
  customers: SeedCustomer[];
  /** True when the email is a real one the identity map turned into the seed's pseudonym. */
  mapped: boolean;
}

export function resolveEmail(ix: SeedIndex, identities: IdentityState, email: string): EmailResolution {
  const direct = ix.customersWithEmail(email);
  if (direct.length) return { customers: direct, mapped: false };
  if (identities.kind !== "loaded") return { customers: [], mapped: false };
  const want = email.trim().toLowerCase();
  const seen = new Set<string>();
  const customers: SeedCustomer[] = [];
  for (const entry of identities.map.customers) {
    if (entry.email?.trim().toLowerCase() !== want) continue;
    const c = ix.customers.get(entry.pseudonym.id);
    if (c && !seen.has(c.id)) seen.add(c.id), customers.push(c);
  }
  // Keep seed order so candidates and decoys list the same way every build.
  const order = new Map(ix.seed.data.customers.map((c, i) => [c.id, i]));
  customers.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  return { customers, mapped: customers.length > 0 };
}

/** The tail of an "unknown email" problem: what would make the address resolve. */
export function unknownEmailHint(identities: IdentityState): string {
  switch (identities.kind) {
    case "none":
      return "use the seed's own (pseudonymised) email, or if this is a real address add identity_map: (written by worlds seed import --identity-map)";
    case "missing":
      return `the identity map ${identities.path} does not exist here; run tasks build --rewrite where it does, so the file carries the seed's emails`;
    case "unavailable":
      return identities.reason;
    case "refused":
      return `the identity map ${identities.path} was refused (see its problem), so real addresses cannot be looked up`;
    case "loaded":
      return `the identity map ${identities.path} does not know it either (it lists only customers the seed import took)`;
  }
}

/** The identity map as the caller found it: parsed JSON, absent, or refused (e.g. readable by other users). */
export type IdentityMapInput = { path: string; document: unknown } | { path: string; missing: true } | { path: string; error: string } | { unavailable: string };

/** A map is only trusted for the seed it was written for, byte for byte (its name and its hash). */
export function checkIdentityMap(input: IdentityMapInput | null | undefined, seed: SeedDocument, seedHash: string): { state: IdentityState; error: string | null } {
  if (!input) return { state: { kind: "none" }, error: null };
  if ("unavailable" in input) return { state: { kind: "unavailable", reason: input.unavailable }, error: null };
  if ("missing" in input) return { state: { kind: "missing", path: input.path }, error: null };
  const refused: IdentityState = { kind: "refused", path: input.path };
  if ("error" in input) return { state: refused, error: input.error };
  const parsed = identityMapDocument.safeParse(input.document);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const value = first.path.reduce<unknown>((v, k) => (v && typeof v === "object" ? (v as Record<PropertyKey, unknown>)[k] : undefined), input.document);
    const what = value === undefined ? "is missing" : `is not valid (${first.message})`;
    return { state: refused, error: `${input.path} is not an identity map: ${pathText(first.path) || "the document"} ${what}` };
  }
  const map = parsed.data;
  if (map.seed !== seed.name) return { state: refused, error: `${input.path} was written for seed '${map.seed}', not '${seed.name}'; use the map seed import wrote beside this seed` };
  if (map.seed_hash !== seedHash) {
    return {
      state: refused,
      error: `${input.path} was written for another version of seed '${seed.name}' (hash ${map.seed_hash.slice(0, 12)}, the seed is ${seedHash.slice(0, 12)}); re-run worlds seed import --identity-map`,
    };
  }
  return { state: { kind: "loaded", path: input.path, map }, error: null };
}
