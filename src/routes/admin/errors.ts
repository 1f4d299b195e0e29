import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/** The admin API's one error shape: {error: {code, message, issues?}}. */
export function adminError(c: Context, status: ContentfulStatusCode, code: string, message: string, issues?: unknown): Response {
  return c.json({ error: { code, message, ...(issues === undefined ? {} : { issues }) } }, status);
}
