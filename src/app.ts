import { Hono } from "hono";
import type { AppEnv } from "./env";
import { twin } from "./routes/twin";
import { requireToken } from "./routes/admin/auth";
import { seeds } from "./routes/admin/seeds";
import { worldsRoutes } from "./routes/admin/worlds";
import { gradeRoutes } from "./routes/admin/grade";
import { tasksRoutes } from "./routes/admin/tasks";
import { adminError } from "./routes/admin/errors";
import { webhooks } from "./routes/webhooks";
import { hooksRoutes } from "./routes/admin/hooks";
import { runsRoutes } from "./routes/admin/runs";
import { localEncoding } from "./http/compression";
import { notReadyMessage, pendingAfterMigrating } from "./db/ready";
import { requireReady } from "./routes/ready";
import { toolsRoutes } from "./routes/tools";
import { mcpRoutes } from "./routes/mcp";
import { personRoutes } from "./routes/person";
import { episodesRoutes } from "./routes/admin/episodes";

export const app = new Hono<AppEnv>();

app.use("*", localEncoding);

// Health means ready: 200 only once the server can create worlds and runs (its D1 schema is in place).
app.get("/health", async (c) => {
  const pending = await pendingAfterMigrating(c.env.DB, c.env.WORLDS_MIGRATIONS);
  if (pending.length > 0) return c.json({ ok: false, service: "worlds", ready: false, message: notReadyMessage(pending), pending_migrations: pending }, 503, { "retry-after": "1" });
  return c.json({ ok: true, service: "worlds" });
});

app.use("/webhooks/*", requireReady);
app.route("/webhooks", webhooks);
app.use("/admin/*", requireToken, requireReady);
app.route("/admin/seeds", seeds);
app.route("/admin/worlds", gradeRoutes);
app.route("/admin/worlds", worldsRoutes);
app.route("/admin/runs", runsRoutes);
app.route("/admin/hooks", hooksRoutes);
app.route("/admin/tasks", tasksRoutes);
app.route("/admin/episodes", episodesRoutes);

app.route("/", twin);
// Every world's tools: plain JSON at /tools/v1, MCP at /mcp (the world key as Bearer, as for the twins).
app.route("/", toolsRoutes);
app.route("/", mcpRoutes);
// The person a task's agent talks to (/person/v1), the same key.
app.route("/", personRoutes);

app.notFound((c) => adminError(c, 404, "not_found", `No route ${c.req.method} ${new URL(c.req.url).pathname}.`));
app.onError((err, c) => {
  console.error("worlds: unhandled error", err);
  return adminError(c, 500, "internal_error", err instanceof Error ? err.message : String(err));
});
