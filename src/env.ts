// Bindings the Worker sees (wrangler.toml) plus the server token secret.
import type { World } from "../durable-objects/world";

export interface Env {
  WORLD: DurableObjectNamespace<World>;
  EPISODES: Queue<unknown>;
  DB: D1Database;
  ARTIFACTS: R2Bucket;
  /** Admin token (`wrangler secret put WORLDS_TOKEN`; `worlds serve` and `--server auto` mint one). */
  WORLDS_TOKEN?: string;
  /** "off" on the local server (`worlds serve`, `--server auto`): answers go out uncompressed (src/http/compression.ts). */
  COMPRESSION?: string;
  /** The local server only: migrations/*.sql, split, for the Worker to apply to DB itself (src/db/ready.ts). */
  WORLDS_MIGRATIONS?: unknown;
  /** The policy judge's model keys (`wrangler secret put OPENAI_API_KEY`) and base URLs (vars); docs/judge.md. */
  OPENAI_API_KEY?: string;
  ANTHROPIC_API_KEY?: string;
  OPENAI_BASE_URL?: string;
  ANTHROPIC_BASE_URL?: string;
}

export type AppEnv = { Bindings: Env; Variables: { requestId: string } };
