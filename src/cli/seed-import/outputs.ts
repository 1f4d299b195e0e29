// What an import writes besides the seed: the shareable manifest (what was read, counts and hashes; nothing that
// leads back to a person or the account) and the private identity map (real customers to their pseudonyms).
import { chmodSync, existsSync, mkdirSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { SeedDocument } from "../../core/world/seed/schema";
import { canonicalJson, sha256Hex } from "../../core/util/canonical";
import type { IdentityEntry } from "./map";
import type { SaltSource } from "./pseudonym";
import { IMPORT_API_VERSION } from "./source";

export interface ManifestInput {
  seed: SeedDocument;
  seedHash: string;
  sample: number;
  salt: SaltSource;
  tickets: { requesters: number; copied_in: number; not_customers: number } | null;
  warnings: string[];
}

export async function manifestDocument(m: ManifestInput): Promise<Record<string, unknown>> {
  const counts: Record<string, number> = {};
  const hashes: Record<string, string> = { seed: m.seedHash };
  for (const [k, v] of Object.entries(m.seed.data)) {
    counts[k] = v.length;
    hashes[k] = await sha256Hex(canonicalJson(v));
  }
  return {
    version: 1,
    seed: m.seed.name,
    seed_hash: m.seedHash,
    clock: m.seed.clock,
    source: { api: "stripe", api_version: IMPORT_API_VERSION, newest_per_resource: m.sample, references_followed: true },
    pseudonymised: { customers: m.seed.data.customers.length, fields: ["id", "email", "name"], method: "HMAC-SHA256", salt: m.salt === "account" ? "derived from the account id" : "derived from a phrase given with --salt" },
    counts,
    hashes,
    tickets: m.tickets,
    warnings: m.warnings,
  };
}

export function identityMapDocument(seed: SeedDocument, seedHash: string, identities: IdentityEntry[]): Record<string, unknown> {
  return { version: 1, seed: seed.name, seed_hash: seedHash, customers: identities };
}

/** Writes every file or none: each goes to a temporary name first. `private` files get mode 0600. */
export function writeOutputs(files: Array<{ path: string; text: string; private?: boolean }>): void {
  const temps: string[] = [];
  try {
    for (const f of files) {
      mkdirSync(dirname(f.path), { recursive: true });
      const tmp = join(dirname(f.path), `.${basename(f.path)}.${process.pid}.tmp`);
      writeFileSync(tmp, f.text, { mode: f.private ? 0o600 : 0o644 });
      if (f.private) chmodSync(tmp, 0o600);
      temps.push(tmp);
    }
    files.forEach((f, i) => renameSync(temps[i], f.path));
  } catch (e) {
    for (const t of temps) if (existsSync(t)) unlinkSync(t);
    throw e;
  }
}
