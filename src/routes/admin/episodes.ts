// The RL episode API (docs/replay.md): POST /admin/episodes {task} starts one episode and answers its surfaces;
// POST /admin/episodes/:id/grade ends it and answers the reward, the criteria with reasons, the transcript, the
// tool calls and the error. The server token guards both, as every admin route.
import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { ADMIN_BODY_LIMIT, readBodyLimited } from "../../http/limits";
import { EPISODE_ID, episodeRequest, gradeRequest } from "../../core/episode-api/request";
import { startEpisode } from "../../hosted/episodes/create";
import { gradeEpisode } from "../../hosted/episodes/grade";
import { parseJsonBody } from "./body";
import { adminError } from "./errors";

export const episodesRoutes = new Hono<AppEnv>();

episodesRoutes.post("/", async (c) => {
  const text = await readBodyLimited(c.req.raw, ADMIN_BODY_LIMIT);
  if (text === null) return adminError(c, 413, "body_too_large", `Request body is larger than ${ADMIN_BODY_LIMIT} bytes.`);
  const body = parseJsonBody(c, text, episodeRequest);
  if (!body.ok) return body.response;
  const started = await startEpisode(c.env, body.value, new URL(c.req.url).origin);
  if (!started.ok) return adminError(c, started.status, started.code, started.message, started.issues);
  return c.json(started.surfaces, 201);
});

episodesRoutes.post("/:id/grade", async (c) => {
  const id = c.req.param("id");
  if (!EPISODE_ID.test(id)) return adminError(c, 404, "episode_not_found", `No episode '${id}' on this server.`);
  const text = await readBodyLimited(c.req.raw, ADMIN_BODY_LIMIT);
  // An oversized body is refused, not read as an empty one (which would grade with no policy reply at all).
  if (text === null) return adminError(c, 413, "body_too_large", `Request body is larger than ${ADMIN_BODY_LIMIT} bytes.`);
  const body = parseJsonBody(c, text.trim() === "" ? "{}" : text, gradeRequest);
  if (!body.ok) return body.response;
  const graded = await gradeEpisode(c.env, id, body.value);
  if (!graded.ok) return adminError(c, graded.status, graded.code, graded.message);
  return c.json(graded.grade);
});
