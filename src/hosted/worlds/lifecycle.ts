// Creating and destroying worlds: shared by the admin API and the episode consumer.
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import type { Env } from "../../env";
import { worlds } from "../../db/schema";
import type { SeedDocument } from "../../core/world/seed/schema";
import { seedHash } from "../../core/world/seed/parse";
import { sha256Hex } from "../../core/util/canonical";
import { newWorldId, newWorldKey } from "../../http/ids";
import { requireScenario } from "../../scenarios/resolve";
import type { WorldDiff } from "../../core/world/diff/types";
import type { TraceRecord } from "../../../durable-objects/protocol";
import type { WorldEnd } from "../../../durable-objects/world";
import type { PersonState } from "../../../durable-objects/replay/person";
import type { PersonSetup } from "../../core/kinds/replay/person/setup";

export interface CreatedWorld {
  id: string;
  key: string;
  seed: { name: string; hash: string };
  objects: number;
  stripe_api_base: string;
  zendesk_url: string;
  /** MCP (Streamable HTTP) and the plain JSON tool surface, both opened by the same key. */
  mcp_url: string;
  tools_url: string;
  /** The person to talk to (POST <person_url>/respond), only when the world has one. */
  person_url?: string;
}

export function worldEndpoints(origin: string): { stripe_api_base: string; zendesk_url: string; mcp_url: string; tools_url: string } {
  return { stripe_api_base: origin, zendesk_url: origin, mcp_url: `${origin}/mcp`, tools_url: `${origin}/tools/v1` };
}

export interface CreateWorldOptions {
  scenario?: unknown;
  runId?: string;
  hash?: string;
  /** The world's id and key, when the request names them (an idempotent request: worldFromIdempotencyKey). */
  identity?: { id: string; key: string };
  /** The person the agent talks to; absent or null for none. */
  person?: PersonSetup | null;
}

/** Creates and registers a world; with `identity`, a repeat of the same creation answers the same world. */
export async function createWorld(env: Env, seed: SeedDocument, origin: string, opts: CreateWorldOptions = {}): Promise<CreatedWorld> {
  const id = opts.identity?.id ?? newWorldId();
  const key = opts.identity?.key ?? newWorldKey(id);
  const hash = opts.hash ?? (await seedHash(seed));
  const stub = env.WORLD.getByName(id);
  // A library name becomes its document here, so a world stores the exact rules it runs under.
  const identity = { worldId: id, keyHash: await sha256Hex(key), seedHash: hash, scenario: requireScenario(opts.scenario), person: opts.person ?? null };
  // Most worlds are seeded with a seed their isolate has seeded before: try the snapshot first.
  const outcome = (await stub.initFromCache(identity)) ?? (await stub.init({ ...identity, seed }));
  if ("refused" in outcome) throw new WorldIdTaken(id, outcome.refused);
  const { objects } = outcome;
  await drizzle(env.DB)
    .insert(worlds)
    .values({ id, seedName: seed.name, seedHash: hash, objects, createdAt: new Date(), runId: opts.runId ?? null })
    .onConflictDoNothing();
  return { id, key, seed: { name: seed.name, hash }, objects, ...worldEndpoints(origin), ...(opts.person ? { person_url: `${origin}/person/v1` } : {}) };
}

export interface DestroyedWorld {
  trace_key: string;
  /** Every request the agent made, as archived. */
  trace: TraceRecord[];
  /** The world's final diff, when asked for (one call instead of a diff request before the delete). */
  diff: WorldDiff | null;
  /** The person's setup and conversation as the world ended; null without a person. */
  person: PersonState | null;
}

/** Archives the world's trace to R2 (traces/<world>.jsonl), then deletes its storage and marks it deleted. */
export async function destroyWorld(env: Env, id: string, opts: { diff?: boolean } = {}): Promise<DestroyedWorld> {
  const traceKey = `traces/${id}.jsonl`;
  // Cast: the RPC stub's types cannot express the diff's free-form documents (`unknown` fields) and make it never.
  const closed = (await env.WORLD.getByName(id).end({ archiveKey: traceKey, diff: opts.diff ?? false })) as WorldEnd | null;
  if (!closed) throw new WorldNotFound(id);
  await drizzle(env.DB).update(worlds).set({ deletedAt: new Date() }).where(eq(worlds.id, id));
  return { trace_key: traceKey, trace: closed.trace, diff: closed.diff, person: closed.person ?? null };
}

export class WorldNotFound extends Error {
  constructor(readonly worldId: string) {
    super(`No world ${worldId}.`);
  }
}

/** The id a creation request named (by its Idempotency-Key) belongs to another world, or to one that ended. */
export class WorldIdTaken extends Error {
  constructor(readonly worldId: string, readonly reason: "seeded" | "ended") {
    super(`World ${worldId} ${reason === "seeded" ? "exists with another seed or scenario" : "was deleted"}.`);
  }
}
