// Validating a seed is the expensive part of creating a world from it (10k objects through zod), and the same
// seed is used for many worlds (k x n in a crash test), so validated seeds are kept per isolate, keyed by the
// SHA-256 of their JSON text (a different byte means a different key: nothing stale can be served).
import { parseSeed, seedHash, type SeedIssue } from "../../core/world/seed/parse";
import type { SeedDocument } from "../../core/world/seed/schema";
import { sha256Hex } from "../../core/util/canonical";
import { BoundedLru } from "../../core/util/lru";
import type { PersonSetup } from "../../core/kinds/replay/person/setup";
import { moneyIndex, SeedConsistencyError } from "../../../durable-objects/stripe/resources/money/seed-index";

export type PreparedSeed = { ok: true; seed: SeedDocument; hash: string } | { ok: false; issues: SeedIssue[] };

// Bounded by the seeds' JSON text; a task file's worth of per-task seeds fits many times over.
const MAX_ENTRIES = 512;
const MAX_CHARS = 64 * 1024 * 1024;
const prepared = new BoundedLru<string, { seed: SeedDocument; hash: string }>(MAX_ENTRIES, MAX_CHARS);

export async function prepareSeed(raw: unknown): Promise<PreparedSeed> {
  const text = JSON.stringify(raw);
  const key = await sha256Hex(text);
  const hit = prepared.get(key);
  if (hit) return { ok: true, ...hit };
  const parsed = parseSeed(raw);
  if (!parsed.ok) return parsed;
  // Money that does not add up (refunds over a charge, invoice totals off) is the seed author's error: a 400
  // naming the object, found before a world exists rather than as a failure inside the world's seeding.
  try {
    moneyIndex(parsed.seed);
  } catch (e) {
    if (e instanceof SeedConsistencyError) return { ok: false, issues: [{ path: e.path, message: e.message.slice(e.path.length + 2) }] };
    throw e;
  }
  const entry = { seed: parsed.seed, hash: await seedHash(parsed.seed) };
  prepared.set(key, entry, text.length);
  return { ok: true, ...entry };
}

/** A whole create-world request already validated: its seed, the seed's hash and the resolved scenario. */
export interface PreparedRequest {
  seed: SeedDocument;
  hash: string;
  scenario: unknown;
  person?: PersonSetup | null;
}

const requests = new BoundedLru<string, PreparedRequest>(MAX_ENTRIES, MAX_CHARS);

export function preparedRequest(bodyKey: string): PreparedRequest | undefined {
  return requests.get(bodyKey);
}

/** bodyChars: the request body's length, the weight of what is kept for it. */
export function rememberRequest(bodyKey: string, req: PreparedRequest, bodyChars: number): void {
  requests.set(bodyKey, req, bodyChars);
}
