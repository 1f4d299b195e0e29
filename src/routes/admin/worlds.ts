import { Hono, type Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../env";
import { BUNDLED_SEEDS } from "../../seeds/bundled";
import { preparedRequest, prepareSeed, rememberRequest } from "../../hosted/worlds/seed-cache";
import { ADMIN_BODY_LIMIT, readBodyLimited } from "../../http/limits";
import { sha256Hex } from "../../core/util/canonical";
import { OBJECT_TYPES } from "../../core/world/diff/types";
import { createWorld, destroyWorld, WorldIdTaken, WorldNotFound, type CreatedWorld } from "../../hosted/worlds/lifecycle";
import { worldFromIdempotencyKey } from "../../http/ids";
import { resolveScenario } from "../../scenarios/resolve";
import { parseJsonBody } from "./body";
import { adminError } from "./errors";
import { personRequest } from "../../core/kinds/replay/person/setup";
import { checkPersonModel } from "./person-check";

export const worldsRoutes = new Hono<AppEnv>();

const createBody = z.strictObject({
  seed: z.union([z.string().min(1), z.record(z.string(), z.unknown())]),
  scenario: z.union([z.string(), z.record(z.string(), z.unknown()), z.null()]).optional(),
  /** A person for the agent to talk to at /person/v1 (docs/replay.md). */
  person: personRequest.optional(),
});

// Idempotency-Key (optional): the same key names the same world, so a client that lost the answer to a
// connection reset can send the request again and get that world back rather than a second one.
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

worldsRoutes.post("/", async (c) => {
  const text = await readBodyLimited(c.req.raw, ADMIN_BODY_LIMIT);
  if (text === null) return adminError(c, 413, "body_too_large", `Request body is larger than ${ADMIN_BODY_LIMIT} bytes.`);
  const idempotencyKey = c.req.header("idempotency-key");
  if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY.test(idempotencyKey))
    return adminError(c, 400, "invalid_idempotency_key", "Idempotency-Key must be 1 to 255 printable characters without spaces.");
  // The admin token is the secret: requireToken has made sure there is one.
  const identity = idempotencyKey === undefined ? undefined : await worldFromIdempotencyKey(c.env.WORLDS_TOKEN ?? "", idempotencyKey);
  // A crash test creates many worlds from one request body; the same bytes skip parsing and validation.
  const bodyKey = await sha256Hex(text);
  const known = preparedRequest(bodyKey);
  if (known) return created(c, () => createWorld(c.env, known.seed, new URL(c.req.url).origin, { scenario: known.scenario, hash: known.hash, identity, person: known.person }));
  const body = parseJsonBody(c, text, createBody);
  if (!body.ok) return body.response;
  const raw = typeof body.value.seed === "string" ? BUNDLED_SEEDS[body.value.seed] : body.value.seed;
  if (raw === undefined) return adminError(c, 404, "seed_not_found", `No bundled seed named '${body.value.seed}'. GET /admin/seeds lists them, or send the seed document inline.`);
  const parsed = await prepareSeed(raw);
  if (!parsed.ok) return adminError(c, 400, "invalid_seed", `The seed document has ${parsed.issues.length} problem(s).`, parsed.issues);
  const scenario = resolveScenario(body.value.scenario);
  if (!scenario.ok) return adminError(c, scenario.status, scenario.code, scenario.message, scenario.issues);
  const person = body.value.person ?? null;
  const unavailable = person && checkPersonModel(c.env, person.model);
  if (unavailable) return adminError(c, 400, "person_unavailable", unavailable);
  rememberRequest(bodyKey, { seed: parsed.seed, hash: parsed.hash, scenario: scenario.scenario, person }, text.length);
  return created(c, () => createWorld(c.env, parsed.seed, new URL(c.req.url).origin, { scenario: scenario.scenario, hash: parsed.hash, identity, person }));
});

async function created(c: Context<AppEnv>, make: () => Promise<CreatedWorld>): Promise<Response> {
  try {
    return c.json(await make(), 201);
  } catch (e) {
    // Only an idempotent request can name a world that exists: its key was used for another one.
    if (e instanceof WorldIdTaken)
      return adminError(c, 409, "idempotency_key_reused", e.reason === "seeded" ? "This Idempotency-Key already made a world from another seed or scenario; use a new key for a new world." : "This Idempotency-Key made a world that has since been deleted; use a new key for a new world.");
    throw e;
  }
}

const idParam = (c: Context<AppEnv>) => c.req.param("id") ?? "";
const validId = (id: string) => /^w_[A-Za-z0-9]{16}$/.test(id);

worldsRoutes.get("/:id", async (c) => {
  const id = idParam(c);
  const info = validId(id) ? await c.env.WORLD.getByName(id).info() : null;
  if (!info) return notFound(c, id);
  return c.json(info);
});

worldsRoutes.get("/:id/diff", async (c) => {
  const id = idParam(c);
  if (!validId(id) || !(await c.env.WORLD.getByName(id).exists())) return notFound(c, id);
  return c.json(await c.env.WORLD.getByName(id).diff());
});

worldsRoutes.get("/:id/objects", async (c) => {
  const id = idParam(c);
  const type = c.req.query("type") ?? "";
  if (!(OBJECT_TYPES as readonly string[]).includes(type))
    return adminError(c, 400, "invalid_type", `type must be one of ${OBJECT_TYPES.join(", ")}.`);
  if (!validId(id) || !(await c.env.WORLD.getByName(id).exists())) return notFound(c, id);
  return c.json({ data: await c.env.WORLD.getByName(id).objects(type as (typeof OBJECT_TYPES)[number]) });
});

worldsRoutes.get("/:id/trace", async (c) => {
  const id = idParam(c);
  if (!validId(id) || !(await c.env.WORLD.getByName(id).exists())) return notFound(c, id);
  const lines = (await c.env.WORLD.getByName(id).traceRecords()).map((t) => JSON.stringify(t) + "\n").join("");
  return c.body(lines, 200, { "content-type": "application/x-ndjson" });
});

worldsRoutes.delete("/:id", (c) => destroyAndAnswer(c, false));

// The delete, answered with what the world held at its end (its final diff and every traced request): what an
// episode reads when its agent is done, in one round trip instead of three (bench/harness-overhead.mjs). A route
// of its own rather than a DELETE option, so a client talking to an older server gets a 404 for the route (and
// falls back) instead of a delete that ignored the option and lost the diff.
worldsRoutes.post("/:id/end", (c) => destroyAndAnswer(c, true));

async function destroyAndAnswer(c: Context<AppEnv>, withContents: boolean): Promise<Response> {
  const id = idParam(c);
  if (!validId(id)) return notFound(c, id);
  try {
    const gone = await destroyWorld(c.env, id, { diff: withContents });
    return c.json({ id, deleted: true, trace: gone.trace_key, ...(withContents ? { diff: gone.diff, trace_records: gone.trace, person: gone.person && { turns: gone.person.conversation.turns, done: gone.person.conversation.done } } : {}) });
  } catch (e) {
    if (e instanceof WorldNotFound) return notFound(c, id);
    throw e;
  }
}

function notFound(c: Context, id: string): Response {
  return adminError(c, 404, "world_not_found", `No world '${id}' on this server (it may have been deleted).`);
}
