// Hosted runs (server token): POST a tasks file and an agent URL, then follow the run, read its results (the
// same contract as `worlds passk --json`), its HTML report, its episodes and their traces. CLI runs are
// registered through POST /admin/runs/import and read back the same way.
import { Hono, type Context } from "hono";
import type { AppEnv } from "../../env";
import { runRequest, RUN_STATUSES } from "../../core/pipeline/index";
import { createRun } from "../../hosted/runs/create";
import { reportKey } from "../../hosted/runs/keys";
import { database, episodeBySeq, episodePage, episodesFinishedAfter, getRun, listRuns } from "../../hosted/runs/store";
import { episodeViews, runResults, runSummary, runView } from "../../hosted/runs/view";
import { renderHtml } from "../../core/report/index";
import { importRun } from "../../hosted/runs/import";
import { runImport } from "../../hosted/runs/import-request";
import { recoverRuns } from "../../hosted/runs/recover";
import { z } from "zod";
import { jsonBody } from "./body";
import { adminError } from "./errors";

export const runsRoutes = new Hono<AppEnv>();

runsRoutes.post("/", async (c) => {
  const body = await jsonBody(c, runRequest);
  if (!body.ok) return body.response;
  const created = await createRun(c.env, body.value, { origin: new URL(c.req.url).origin, source: "api" });
  if (!created.ok) return adminError(c, created.status, created.code, created.message, created.issues);
  return c.json({ run_id: created.runId, episodes: created.episodes, summary: created.summary, links: { run: `/admin/runs/${created.runId}` } }, 201);
});

// A run `worlds passk` drove with a process agent, registered once it finished (src/hosted/runs/import.ts).
runsRoutes.post("/import", async (c) => {
  const body = await jsonBody(c, runImport);
  if (!body.ok) return body.response;
  const out = await importRun(c.env, body.value);
  if (!out.ok) return adminError(c, out.status, out.code, out.message);
  return c.json({ run_id: out.runId, created: out.created, links: { run: `/admin/runs/${out.runId}` } }, out.created ? 201 : 200);
});

// For a server whose queue lost its messages (the local server keeps them in memory): every unfinished run
// started before `before` is driven again (src/hosted/runs/recover.ts). `worlds serve --persist` calls it on start.
const recoverBody = z.strictObject({ before: z.number().int().positive() });

runsRoutes.post("/recover", async (c) => {
  const body = await jsonBody(c, recoverBody);
  if (!body.ok) return body.response;
  return c.json(await recoverRuns(c.env, body.value.before));
});

runsRoutes.get("/", async (c) => {
  const status = c.req.query("status");
  if (status !== undefined && !(RUN_STATUSES as readonly string[]).includes(status)) return adminError(c, 400, "invalid_status", `status must be one of ${RUN_STATUSES.join(", ")}.`);
  const limit = Number(c.req.query("limit") ?? "50");
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) return adminError(c, 400, "invalid_limit", "limit must be an integer from 1 to 200.");
  const cursor = c.req.query("cursor");
  let before: { createdAt: number; id: string } | undefined;
  if (cursor) {
    const m = /^(\d+):(run_[A-Za-z0-9]+)$/.exec(cursor);
    if (!m) return adminError(c, 400, "invalid_cursor", "cursor must be the next_cursor of a previous page.");
    before = { createdAt: Number(m[1]), id: m[2] };
  }
  const rows = await listRuns(database(c.env.DB), { status, before, limit: limit + 1 });
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return c.json({ data: page.map(runSummary), next_cursor: rows.length > limit && last ? `${last.createdAt.getTime()}:${last.id}` : null });
});

runsRoutes.get("/:id", async (c) => {
  const run = await findRun(c);
  if (!run) return notFound(c);
  return c.json(await runView(c.env, run));
});

runsRoutes.get("/:id/results", async (c) => {
  const run = await findRun(c);
  if (!run) return notFound(c);
  const results = await runResults(c.env, run);
  if (!results) return adminError(c, 409, "run_not_done", `Run ${run.id} is ${run.status}${run.error ? ` (${run.error})` : ""}; results exist once it is done.`);
  return c.json(results);
});

runsRoutes.get("/:id/report", async (c) => {
  const run = await findRun(c);
  if (!run) return notFound(c);
  const cached = await c.env.ARTIFACTS.get(reportKey(run.id));
  if (cached) return c.body(await cached.text(), 200, { "content-type": "text/html; charset=utf-8" });
  const results = await runResults(c.env, run);
  if (!results) return adminError(c, 409, "run_not_done", `Run ${run.id} is ${run.status}; its report exists once it is done.`);
  const html = renderHtml(results);
  await c.env.ARTIFACTS.put(reportKey(run.id), html, { httpMetadata: { contentType: "text/html; charset=utf-8" } });
  return c.body(html, 200, { "content-type": "text/html; charset=utf-8" });
});

runsRoutes.get("/:id/episodes", async (c) => {
  const run = await findRun(c);
  if (!run) return notFound(c);
  const after = Number(c.req.query("after") ?? "0");
  const limit = Number(c.req.query("limit") ?? "200");
  if (!Number.isInteger(after) || after < 0) return adminError(c, 400, "invalid_after", "after must be an episode number (0 for the start).");
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) return adminError(c, 400, "invalid_limit", "limit must be an integer from 1 to 1000.");
  const since = c.req.query("finished_after");
  if (since !== undefined) {
    // Followers poll with the last finished_at they saw (ms); ties are theirs to drop by episode number.
    const ms = Number(since);
    if (!Number.isFinite(ms) || ms < 0) return adminError(c, 400, "invalid_finished_after", "finished_after must be a time in milliseconds since the epoch.");
    const rows = await episodesFinishedAfter(database(c.env.DB), run.id, ms, limit);
    return c.json({ data: await episodeViews(c.env, run, rows), next_after: null });
  }
  const rows = await episodePage(database(c.env.DB), run.id, after, limit);
  const data = await episodeViews(c.env, run, rows);
  return c.json({ data, next_after: rows.length === limit ? rows[rows.length - 1].seq : null });
});

runsRoutes.get("/:id/episodes/:n/trace", async (c) => {
  const run = await findRun(c);
  if (!run) return notFound(c);
  const n = Number(c.req.param("n"));
  const ep = Number.isInteger(n) && n > 0 ? await episodeBySeq(database(c.env.DB), run.id, n) : null;
  if (!ep) return adminError(c, 404, "episode_not_found", `Run ${run.id} has no episode ${c.req.param("n")} (episodes are numbered 1 to ${run.episodesTotal}).`);
  if (!ep.traceKey) return adminError(c, 404, "trace_not_found", `Episode ${n} of run ${run.id} has no trace yet (it is ${ep.status}).`);
  const obj = await c.env.ARTIFACTS.get(ep.traceKey);
  if (!obj) return adminError(c, 404, "trace_not_found", `The trace ${ep.traceKey} is missing from R2.`);
  return c.body(obj.body, 200, { "content-type": "application/x-ndjson" });
});

async function findRun(c: Context<AppEnv>) {
  const id = c.req.param("id") ?? "";
  return /^run_[A-Za-z0-9]{16}$/.test(id) ? getRun(database(c.env.DB), id) : null;
}

function notFound(c: Context<AppEnv>): Response {
  return adminError(c, 404, "run_not_found", `No run '${c.req.param("id")}' on this server (GET /admin/runs lists them).`);
}
