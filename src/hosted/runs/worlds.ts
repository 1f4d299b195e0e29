// A run's worlds: created with the episode's seed, removed without archiving (the consumer writes the trace
// under the run itself). Removing is idempotent, since a redelivery may find a world a dead attempt left.
import { eq } from "drizzle-orm";
import type { Env } from "../../env";
import { worlds } from "../../db/schema";
import { database } from "./store";

export async function discardWorld(env: Env, worldId: string): Promise<void> {
  await env.WORLD.getByName(worldId).destroy(); // a no-op for a world already gone
  await database(env.DB).update(worlds).set({ deletedAt: new Date() }).where(eq(worlds.id, worldId)).run();
}

/** Whether a world is still held (created and not yet removed), by the registry. */
export async function worldAlive(env: Env, worldId: string): Promise<boolean> {
  const row = await database(env.DB).select({ deletedAt: worlds.deletedAt }).from(worlds).where(eq(worlds.id, worldId)).get();
  // No registry row: the world may exist without one (a crash between seeding and registering); ask it.
  if (!row) return env.WORLD.getByName(worldId).exists();
  return row.deletedAt === null;
}
