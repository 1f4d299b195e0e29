// Bindings the Worker sees (wrangler.toml) plus the server token secret.
import type { World } from "../durable-objects/world";

export interface Env {
  WORLD: DurableObjectNamespace<World>;
  EPISODES: Queue<unknown>;
  DB: D1Database;
  ARTIFACTS: R2Bucket;
  /** Admin token (`wrangler secret put WORLDS_TOKEN`; `worlds serve` and `--server auto` mint one). */
  WORLDS_TOKEN?: string;
  /**
   * "off" on the local server (set by `worlds serve` and `--server auto`): twin answers go out uncompressed.
   * Miniflare compresses like Cloudflare's edge, but inside the one process that also runs every world, and on
   * loopback that only costs CPU at both ends (a 100-invoice list ran at half the rate compressed). Unset when
   * deployed: there the edge compresses outside the Worker, and remote agents save bandwidth.
   */
  TWIN_COMPRESSION?: string;
}

export type AppEnv = { Bindings: Env; Variables: { requestId: string } };
