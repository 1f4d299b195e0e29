import type { Context } from "hono";
import type { z } from "zod";
import { ADMIN_BODY_LIMIT, readBodyLimited } from "../../http/limits";
import { formatPath, zodIssues } from "../../core/world/seed/parse";
import { describeTreeProblem, FILE_MAX_DEPTH, findTreeProblem } from "../../core/util/safe-tree";
import { adminError } from "./errors";

export type Parsed<T> = { ok: true; value: T } | { ok: false; response: Response };

/** Reads a JSON body within the admin limit and validates it, answering 400/413 with the paths at fault. */
export async function jsonBody<S extends z.ZodType>(c: Context, schema: S): Promise<Parsed<z.infer<S>>> {
  const raw = await readBodyLimited(c.req.raw, ADMIN_BODY_LIMIT);
  if (raw === null) return { ok: false, response: adminError(c, 413, "body_too_large", `Request body is larger than ${ADMIN_BODY_LIMIT} bytes.`) };
  return parseJsonBody(c, raw, schema);
}

/** Validates a JSON body already read, answering 400 with the paths at fault. */
export function parseJsonBody<S extends z.ZodType>(c: Context, raw: string, schema: S): Parsed<z.infer<S>> {
  let json: unknown;
  try {
    json = raw.trim() === "" ? {} : JSON.parse(raw);
  } catch (e) {
    return { ok: false, response: adminError(c, 400, "invalid_json", `Request body is not valid JSON: ${(e as Error).message}`) };
  }
  const unsafe = findTreeProblem(json, FILE_MAX_DEPTH);
  if (unsafe)
    return { ok: false, response: adminError(c, 400, "invalid_request", `Request body is refused: ${describeTreeProblem(unsafe, formatPath)}.`, [{ path: formatPath(unsafe.path), message: describeTreeProblem(unsafe, formatPath) }]) };
  const parsed = schema.safeParse(json);
  if (!parsed.success) return { ok: false, response: adminError(c, 400, "invalid_request", "Request body does not match the expected shape.", zodIssues(parsed.error)) };
  return { ok: true, value: parsed.data };
}
