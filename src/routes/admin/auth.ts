import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../../env";
import { adminError } from "./errors";

/** Admin routes need the server token. A server with no token configured refuses every admin call. */
export const requireToken = createMiddleware<AppEnv>(async (c, next) => {
  const token = c.env.WORLDS_TOKEN;
  if (!token) return adminError(c, 503, "server_token_missing", "This server has no WORLDS_TOKEN configured; set it (wrangler secret put WORLDS_TOKEN) to use the admin API.");
  const header = c.req.header("authorization") ?? "";
  const presented = /^Bearer\s+(.+)$/i.exec(header.trim())?.[1] ?? "";
  if (!timingSafeEqual(presented, token)) return adminError(c, 401, "unauthorized", "Admin routes need `Authorization: Bearer <server token>`.");
  await next();
});

function timingSafeEqual(a: string, b: string): boolean {
  const ea = new TextEncoder().encode(a);
  const eb = new TextEncoder().encode(b);
  let diff = ea.length ^ eb.length;
  for (let i = 0; i < Math.max(ea.length, eb.length); i++) diff |= (ea[i] ?? 0) ^ (eb[i] ?? 0);
  return diff === 0;
}
