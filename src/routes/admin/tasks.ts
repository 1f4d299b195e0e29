// POST /admin/tasks/validate and /admin/tasks/build: the same compiler the CLI runs, on the server. The body is
// the tasks file itself (YAML, with ?seed= and ?file= in the query) or JSON {tasks, seed?, file?,
// keep_seed_tickets?}; the seed is a bundled name (or an inline document). A built rubric is stored in R2 under
// its content hash, rubrics/<sha256>.json, where POST /admin/worlds/:id/grade finds it.
import { Hono, type Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../env";
import { ADMIN_BODY_LIMIT, readBytesLimited } from "../../http/limits";
import { BUNDLED_SEEDS } from "../../seeds/bundled";
import { formatPath, zodIssues } from "../../core/world/seed/parse";
import { describeTreeProblem, FILE_MAX_DEPTH, findTreeProblem } from "../../core/util/safe-tree";
import { canonicalJson } from "../../core/util/canonical";
import { compileTasksFile, type CompileResult, type SeedLoad } from "../../core/kinds/account/tasks/index";
import { adminError } from "./errors";

export const tasksRoutes = new Hono<AppEnv>();

const jsonRequest = z.strictObject({
  tasks: z.string(),
  seed: z.union([z.string().min(1), z.record(z.string(), z.unknown())]).optional(),
  file: z.string().min(1).max(200).optional(),
  keep_seed_tickets: z.boolean().optional(),
});

interface TasksRequest {
  text: string | Uint8Array;
  seed: string | Record<string, unknown> | undefined;
  file: string;
  keepSeedTickets: boolean;
}

const NO_MAPS = "the server never reads identity maps; run worlds tasks build --rewrite where the map is, so the file carries the seed's emails";

async function readRequest(c: Context<AppEnv>): Promise<{ ok: true; value: TasksRequest } | { ok: false; response: Response }> {
  const bytes = await readBytesLimited(c.req.raw, ADMIN_BODY_LIMIT);
  if (bytes === null) return { ok: false, response: adminError(c, 413, "body_too_large", `Request body is larger than ${ADMIN_BODY_LIMIT} bytes.`) };
  const type = (c.req.header("content-type") ?? "").toLowerCase();
  if (type.startsWith("application/json")) {
    let json: unknown;
    try {
      json = JSON.parse(new TextDecoder().decode(bytes));
    } catch (e) {
      return { ok: false, response: adminError(c, 400, "invalid_json", `Request body is not valid JSON: ${(e as Error).message}`) };
    }
    const unsafe = findTreeProblem(json, FILE_MAX_DEPTH);
    if (unsafe) return { ok: false, response: adminError(c, 400, "invalid_request", `Request body is refused: ${describeTreeProblem(unsafe, formatPath)}.`) };
    const parsed = jsonRequest.safeParse(json);
    if (!parsed.success) return { ok: false, response: adminError(c, 400, "invalid_request", "Send {tasks: <the YAML text>, seed?: <name or document>, file?, keep_seed_tickets?}.", zodIssues(parsed.error)) };
    const v = parsed.data;
    return { ok: true, value: { text: v.tasks, seed: v.seed, file: v.file ?? "tasks.yaml", keepSeedTickets: v.keep_seed_tickets ?? false } };
  }
  const keep = c.req.query("keep_seed_tickets");
  return { ok: true, value: { text: bytes, seed: c.req.query("seed") || undefined, file: c.req.query("file") || "tasks.yaml", keepSeedTickets: keep === "1" || keep === "true" } };
}

/** The seed a request names (overriding the file's seed:), else the file's own, looked up among the bundled seeds. */
function seedLoader(override: TasksRequest["seed"]): (ref: string) => Promise<SeedLoad> {
  return async (ref) => {
    if (override && typeof override === "object") return { ok: true, document: override, label: "the seed sent with the request" };
    const name = override ?? ref;
    const doc = BUNDLED_SEEDS[name];
    if (doc) return { ok: true, document: doc, label: name };
    if (name.endsWith(".json")) return { ok: false, message: `the server reads no seed files (${name}); send the seed in the request ({"tasks": ..., "seed": {...}}) or name a bundled seed` };
    return { ok: false, message: `the server holds no seed named '${name}' (GET /admin/seeds lists them)` };
  };
}

async function compileRequest(r: TasksRequest): Promise<CompileResult> {
  return compileTasksFile({ text: r.text, fileName: r.file, loadSeed: seedLoader(r.seed), noIdentityMapHint: NO_MAPS, options: { keepSeedTickets: r.keepSeedTickets } });
}

function problemsResponse(c: Context<AppEnv>, result: Extract<CompileResult, { ok: false }>): Response {
  const n = result.problems.length;
  return adminError(c, 422, "invalid_tasks_file", `The tasks file has ${n} problem${n === 1 ? "" : "s"}.`, result.problems);
}

tasksRoutes.post("/validate", async (c) => {
  const req = await readRequest(c);
  if (!req.ok) return req.response;
  const result = await compileRequest(req.value);
  if (!result.ok) return problemsResponse(c, result);
  return c.json({ ok: true, summary: result.summary, hashes: result.hashes, tasks: result.build.tasks });
});

tasksRoutes.post("/build", async (c) => {
  const req = await readRequest(c);
  if (!req.ok) return req.response;
  const result = await compileRequest(req.value);
  if (!result.ok) return problemsResponse(c, result);
  // Stored as canonical JSON, so the key is the hash of the stored bytes.
  const rubricKey = `rubrics/${result.hashes.rubric}.json`;
  const seedKey = `built-seeds/${result.hashes.seed}.json`;
  await Promise.all([
    c.env.ARTIFACTS.put(rubricKey, canonicalJson(result.rubric), { httpMetadata: { contentType: "application/json" } }),
    c.env.ARTIFACTS.put(seedKey, canonicalJson(result.seed), { httpMetadata: { contentType: "application/json" } }),
  ]);
  return c.json({ ok: true, summary: result.summary, hashes: result.hashes, stored: { rubric: rubricKey, seed: seedKey }, seed: result.seed, rubric: result.rubric, build: result.build }, 201);
});
