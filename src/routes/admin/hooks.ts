// POST /admin/hooks (server token): registers a help-desk webhook that starts a run for every new ticket.
// Answers the URL to paste into the provider (docs/webhooks.md).
import { Hono } from "hono";
import { drizzle } from "drizzle-orm/d1";
import type { AppEnv } from "../../env";
import { hooks } from "../../db/schema";
import { hookConfig, hookRequest, newHookId } from "../../hosted/runs/hooks";
import { jsonBody } from "./body";
import { prepareRunJudge } from "../../hosted/runs/judge";
import { adminError } from "./errors";

export const hooksRoutes = new Hono<AppEnv>();

hooksRoutes.post("/", async (c) => {
  const body = await jsonBody(c, hookRequest);
  if (!body.ok) return body.response;
  const config = hookConfig(body.value);
  if (!config.ok) return adminError(c, 400, "invalid_hook", config.message, [{ path: config.path, message: config.message }]);
  // Every delivery's run would be refused for a judge this server cannot run: refuse the hook instead.
  const judge = await prepareRunJudge(c.env, body.value.judge);
  if (!judge.ok) return adminError(c, judge.status, judge.code, judge.message);
  const id = newHookId();
  await drizzle(c.env.DB).insert(hooks).values({ id, provider: body.value.provider, secret: body.value.secret, configJson: JSON.stringify(config.config), createdAt: new Date() });
  const url = `${new URL(c.req.url).origin}/webhooks/${body.value.provider}/${id}`;
  return c.json({ id, provider: body.value.provider, url, runs: config.config.runs }, 201);
});
