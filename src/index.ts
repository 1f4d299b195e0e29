// Worker entry: HTTP (Hono) and the episode queue consumer. Durable Object classes are exported from here.
import { app } from "./app";
import type { Env } from "./env";
import { consumeEpisodes } from "../queues/episodes";

export { World } from "../durable-objects/world";

export default {
  fetch: app.fetch,
  queue: (batch, env) => consumeEpisodes(batch, env),
} satisfies ExportedHandler<Env, unknown>;
