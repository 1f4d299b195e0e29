// The twin entry: /v1/* is the billing API, /api/v2/* the help desk. The key alone selects the world; the world
// checks the key's hash, so a key never opens another world. Bodies are bounded before anything is parsed.
import { Hono, type Context } from "hono";
import type { AppEnv } from "../env";
import type { Service, TwinRequest } from "../../durable-objects/twin";
import { unauthorized } from "../../durable-objects/unauthorized";
import { readBodyLimited, TWIN_BODY_LIMIT } from "../http/limits";
import { newRequestId, worldIdFromKey } from "../http/ids";
import { sha256Hex } from "../core/util/canonical";
import { BoundedLru } from "../core/util/lru";
import { tooLarge } from "./twin-errors";

export const twin = new Hono<AppEnv>();

twin.all("/v1/*", (c) => forward(c, "stripe"));
twin.all("/api/v2/*", (c) => forward(c, "helpdesk"));

/** Extracts the world key: Bearer KEY, Basic KEY: (billing clients), Basic email/token:KEY (help desk clients). */
export function presentedKey(authorization: string | null): string | null {
  if (!authorization) return null;
  const [scheme, value] = authorization.trim().split(/\s+/, 2);
  if (!value) return null;
  if (/^bearer$/i.test(scheme)) return value;
  if (/^basic$/i.test(scheme)) {
    let decoded: string;
    try {
      decoded = atob(value);
    } catch {
      return null;
    }
    const colon = decoded.indexOf(":");
    const user = colon >= 0 ? decoded.slice(0, colon) : decoded;
    const pass = colon >= 0 ? decoded.slice(colon + 1) : "";
    if (/\/token$/.test(user)) return pass;
    return user || pass || null;
  }
  return null;
}

async function forward(c: Context<AppEnv>, service: Service): Promise<Response> {
  const key = presentedKey(c.req.header("authorization") ?? null);
  const worldId = key ? worldIdFromKey(key) : null;
  if (!key || !worldId) return toResponse(unauthorized(service));
  const body = await readBodyLimited(c.req.raw, TWIN_BODY_LIMIT);
  if (body === null) return toResponse(tooLarge(service));
  const url = new URL(c.req.url);
  const req: TwinRequest = {
    service,
    // HEAD is a GET whose body the app drops (Hono dispatches it so); both twins must answer it the same way.
    method: c.req.method.toUpperCase() === "HEAD" ? "GET" : c.req.method.toUpperCase(),
    path: url.pathname,
    query: url.search.startsWith("?") ? url.search.slice(1) : url.search,
    body,
    contentType: c.req.header("content-type") ?? null,
    headers: { idempotencyKey: c.req.header("idempotency-key") ?? null, stripeVersion: c.req.header("stripe-version") ?? null },
    keyHash: await keyHashOf(key),
    requestId: newRequestId(),
    origin: url.origin,
  };
  const stub = c.env.WORLD.getByName(worldId);
  return toResponse(await stub.twin(req));
}

/**
 * A key's SHA-256, remembered per isolate: an agent sends the same key on every call, and hashing it cost a
 * few percent of a read. Bounded, least recently used dropped first; a hash is no secret the world does not already hold.
 */
const keyHashes = new BoundedLru<string, string>(1024);

export async function keyHashOf(key: string): Promise<string> {
  const known = keyHashes.get(key);
  if (known !== undefined) return known;
  const hash = await sha256Hex(key);
  keyHashes.set(key, hash);
  return hash;
}

function toResponse(res: { status: number; headers: Record<string, string>; body: string | Uint8Array }): Response {
  // A 204 (the help desk's ticket delete) must have a null body: the Response constructor refuses any other.
  return new Response(res.status === 204 ? null : res.body, { status: res.status, headers: res.headers });
}
