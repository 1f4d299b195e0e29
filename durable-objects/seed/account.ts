// The account layer of a seed: what its seeders make of everything but the tickets and the task's tools/replay
// block. An isolated task's world is the account plus that task's one ticket, so every world of a run had a seed
// of its own and ran every seeder again (World.init was 46% of the server's CPU at c100, docs/performance.md);
// now the account is seeded once per isolate, keyed by a digest of exactly what its seeders read, and each world
// seeds only its own rows (the tickets, the tools block's records) over it.
import type { SeedDocument } from "../../src/core/world/seed/schema";
import { sha256Hex } from "../../src/core/util/canonical";
import { BoundedLru } from "../../src/core/util/lru";
import type { SeededDesk } from "../helpdesk/seed";

export interface SeededAccount {
  /** The content key of the account's rows: the shared base (store/base.ts, R2 bases/<key>.json). */
  baseKey: string;
  /** The world's meta as the account's seeders left it (counters, the desk's agent, the last sequence number). */
  meta: Array<[string, string]>;
  objects: number;
  desk: SeededDesk;
}

/** Weighed by the meta's characters and a few hundred per user held in the desk's maps. */
const accounts = new BoundedLru<string, SeededAccount>(512, 64 * 1024 * 1024);
const USER_WEIGHT = 512;

/**
 * The seed without what differs between the tasks of one account: its tickets and the tools and replay blocks.
 * No account seeder reads them (durable-objects/helpdesk/seed.ts splits the desk there), so one digest names
 * one account layer.
 */
export function accountDigest(seed: SeedDocument): Promise<string> {
  const { tools: _tools, replay: _replay, ...rest } = seed;
  return sha256Hex(JSON.stringify({ ...rest, data: { ...rest.data, tickets: [] } }));
}

export function cachedAccount(digest: string): SeededAccount | undefined {
  return accounts.get(digest);
}

export function rememberAccount(digest: string, account: SeededAccount): void {
  accounts.set(digest, account, account.meta.reduce((a, [k, v]) => a + k.length + v.length, 0) + account.desk.users.size * USER_WEIGHT);
}

/** As a fresh isolate starts: no account seeded yet (tests of the cold path). */
export function forgetAccounts(): void {
  accounts.clear();
}
