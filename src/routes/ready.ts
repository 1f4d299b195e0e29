import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { notReadyMessage, pendingAfterMigrating } from "../db/ready";

/** Routes that read or write D1 answer 503 (retry shortly) rather than a 500 from a missing table. */
export const requireReady = createMiddleware<AppEnv>(async (c, next) => {
  const pending = await pendingAfterMigrating(c.env.DB, c.env.WORLDS_MIGRATIONS);
  if (pending.length > 0) return c.json({ error: { code: "server_not_ready", message: notReadyMessage(pending), pending_migrations: pending } }, 503, { "retry-after": "1" });
  await next();
});
