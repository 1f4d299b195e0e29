// What a replay world is seeded with: the task's tools as the agent sees them and every result production
// recorded. Built from a task (replaySeed) and validated like every seed part.
import { z } from "zod";
import type { EvalTask, ReplayEnvironment } from "../task-format/format";

export const replayToolDefinition = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  description: z.string(),
  inputSchema: z.looseObject({}),
  effect: z.enum(["read", "write", "unknown"]),
});

export const replayWorldBlock = z.strictObject({
  task: z.string().min(1),
  tools: z.array(replayToolDefinition).max(256),
  observations: z.array(z.strictObject({ tool: z.string().min(1), arguments: z.record(z.string(), z.unknown()), result: z.unknown() })).max(10_000),
});
export type ReplayWorldBlock = z.infer<typeof replayWorldBlock>;

/**
 * The block is kept as one JSON value in the world's SQLite storage. Cloudflare documents 2 MB as the most a
 * Durable Object's SQLite value holds (the local runtime fails a little past that, SQLITE_TOOBIG, as a 500); a
 * task that recorded more cannot have a world, so it is refused when the seed is read, naming what to shorten.
 */
export const MAX_REPLAY_BLOCK_BYTES = 2_000_000;

/** The problem with a block too large to store, or null. */
export function replayBlockSizeProblem(block: ReplayWorldBlock): string | null {
  const bytes = new TextEncoder().encode(JSON.stringify(block)).byteLength;
  if (bytes <= MAX_REPLAY_BLOCK_BYTES) return null;
  return `the task's tools and recorded results come to ${bytes} bytes as JSON; a replay world holds at most ${MAX_REPLAY_BLOCK_BYTES} (record fewer or shorter observations)`;
}

/** Replay worlds all start at one fixed instant: what a tool returned carries its own dates. */
export const REPLAY_CLOCK = "2026-01-01T00:00:00Z";

export function replayBlock(slug: string, env: ReplayEnvironment): ReplayWorldBlock {
  return {
    task: slug,
    tools: env.tools.map((t) => ({
      name: t.name,
      description: t.description,
      // A schema that is not an object schema still gets an object wrapper: every provider wants one.
      inputSchema: t.inputSchema.type === "object" ? t.inputSchema : { type: "object", properties: {} },
      effect: t.effect,
    })),
    observations: env.observations.map((o) => ({ tool: o.tool, arguments: o.arguments, result: o.result })),
  };
}

/** The seed document of a replay task's world (POST /admin/worlds {seed}); the seed name is the task's slug. */
export function replaySeed(task: EvalTask & { environment: ReplayEnvironment }): Record<string, unknown> {
  const name = `replay-${task.slug.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "")}`.slice(0, 100).replace(/-+$/, "");
  return { version: 1, kind: "replay", name, clock: REPLAY_CLOCK, currency: "usd", replay: replayBlock(task.slug, task.environment), data: {} };
}
