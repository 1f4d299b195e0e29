// POST /admin/worlds/:id/grade — grades a world's diff against a rubric (inline, or by its hash in R2) and the
// replies the caller collected. The grading itself is src/core/kinds/account/grader, the same code the CLI runs.
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../env";
import type { ObjectType, WorldDiff } from "../../core/world/diff/types";
import { gradeWorld, mergeWorlds, parseInvariant, UnknownTicket, type WorldObjects } from "../../core/kinds/account/grader";
import { rubricDocument, type RubricDocument } from "../../core/rubric/schema";
import { zodIssues } from "../../core/world/seed/parse";
import { jsonBody } from "./body";
import { adminError } from "./errors";

export const gradeRoutes = new Hono<AppEnv>();

const gradeBody = z.strictObject({
  rubric: z.union([z.strictObject({ hash: z.string().regex(/^[0-9a-f]{64}$/, "must be a sha256 hex digest") }), z.record(z.string(), z.unknown())]),
  replies: z.record(z.string(), z.string()).default({}),
  mode: z.enum(["isolated", "shift"]).optional(),
  /** The tickets this world holds (ids or labels); default per docs/grading.md. */
  tickets: z.array(z.union([z.number().int().positive(), z.string().min(1)])).optional(),
});

/** Collections whose current state helps the grader link objects and read statuses the diff does not carry. */
const CONTEXT: ObjectType[] = ["charges", "invoices", "payment_intents", "prices", "products", "tickets"];

gradeRoutes.post("/:id/grade", async (c) => {
  const id = c.req.param("id");
  const body = await jsonBody(c, gradeBody);
  if (!body.ok) return body.response;
  if (!/^w_[A-Za-z0-9]{16}$/.test(id)) return adminError(c, 404, "world_not_found", `No world '${id}' on this server (it may have been deleted).`);

  const loaded = await loadRubric(c.env.ARTIFACTS, body.value.rubric);
  if (!loaded.ok) return adminError(c, loaded.status, loaded.code, loaded.message, loaded.issues);
  const rubric = loaded.rubric;

  const stub = c.env.WORLD.getByName(id);
  if (!(await stub.exists())) return adminError(c, 404, "world_not_found", `No world '${id}' on this server (it may have been deleted).`);
  const diff: WorldDiff = await stub.diff();
  const objects: WorldObjects = {};
  for (const type of CONTEXT) objects[type] = (await stub.objects(type)) as Array<Record<string, unknown>>;

  const mode = body.value.mode ?? rubric.mode;
  try {
    const grade = gradeWorld(rubric, diff, body.value.replies, { mode, tickets: body.value.tickets, objects });
    const warnings: string[] = [];
    if (rubric.seed.hash !== diff.seed.hash)
      warnings.push(`the rubric was built for seed ${rubric.seed.name} (${rubric.seed.hash.slice(0, 12)}), but this world runs ${diff.seed.name} (${diff.seed.hash.slice(0, 12)})`);
    return c.json({ world: id, mode, rubric: { hash: "hash" in body.value.rubric ? body.value.rubric.hash : null, seed: rubric.seed }, warnings, grade, run: mergeWorlds(rubric, [grade], mode) });
  } catch (e) {
    if (e instanceof UnknownTicket) return adminError(c, 400, "unknown_ticket", e.message);
    throw e;
  }
});

type Loaded = { ok: true; rubric: RubricDocument } | { ok: false; status: 400 | 404; code: string; message: string; issues?: unknown };

async function loadRubric(bucket: R2Bucket, ref: { hash: string } | Record<string, unknown>): Promise<Loaded> {
  let raw: unknown = ref;
  const hash = typeof ref.hash === "string" && Object.keys(ref).length === 1 ? ref.hash : null;
  if (hash) {
    const object = await bucket.get(`rubrics/${hash}.json`);
    if (!object) return { ok: false, status: 404, code: "rubric_not_found", message: `No rubric stored under rubrics/${hash}.json. Build it with POST /admin/tasks/build, or send the rubric inline.` };
    try {
      raw = JSON.parse(await object.text());
    } catch (e) {
      return { ok: false, status: 400, code: "invalid_rubric", message: `rubrics/${hash}.json is not valid JSON: ${(e as Error).message}` };
    }
  }
  const parsed = rubricDocument.safeParse(raw);
  if (!parsed.success) return { ok: false, status: 400, code: "invalid_rubric", message: "The rubric does not match the rubric schema.", issues: zodIssues(parsed.error, ["rubric"]) };
  const bad = parsed.data.invariants.map((s, i) => ({ i, r: parseInvariant(s) })).filter((x) => !x.r.ok);
  if (bad.length)
    return { ok: false, status: 400, code: "invalid_rubric", message: "The rubric has invariants that do not parse.", issues: bad.map((x) => ({ path: `rubric.invariants[${x.i}]`, message: x.r.ok ? "" : x.r.message })) };
  return { ok: true, rubric: parsed.data };
}
