// The person an agent talks to: POST /person/v1/respond {said} -> {reply, done}, and GET /person/v1/conversation
// for the conversation so far, with the world's key as Bearer (as for the tools). The world keeps the person and
// the conversation; the model call is made here, on the server's keys, then the turn is saved in the world. A
// failure answers {"error": {"code", "message"}} with the code's status, as the JSON tool surface does.
import { Hono, type Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../env";
import { MAX_SAID_CHARS, respondAsPerson } from "../core/kinds/replay/person/index";
import type { PersonState } from "../../durable-objects/replay/person";
import { serverModel } from "../hosted/models/server-client";
import { readJsonBody } from "./tool-input";
import { toolWorld, UNAUTHORIZED_MESSAGE } from "./tool-world";

export const personRoutes = new Hono<AppEnv>();

const STATUS = { unauthorized: 401, invalid_request: 400, request_too_large: 413, no_person: 404, method_not_allowed: 405, conversation_over: 409, busy: 409, person_unavailable: 502 } as const;
type PersonCode = keyof typeof STATUS;

function refuse(c: Context<AppEnv>, code: PersonCode, message: string): Response {
  const headers: Record<string, string> = code === "unauthorized" ? { "www-authenticate": 'Bearer realm="worlds"' } : code === "method_not_allowed" ? { allow: c.req.path.endsWith("/respond") ? "POST" : "GET" } : {};
  return c.json({ error: { code, message } }, STATUS[code], headers);
}

const NO_PERSON = "This world has no person to talk to: its task has no person brief.";
const respondBody = z.strictObject({ said: z.string().trim().min(1, "say something").max(MAX_SAID_CHARS) });

personRoutes.get("/person/v1/conversation", async (c) => {
  const world = await toolWorld(c);
  if (!world) return refuse(c, "unauthorized", UNAUTHORIZED_MESSAGE);
  const state = (await world.stub.personConversation(world.keyHash)) as PersonState | { none: true } | null;
  if (!state) return refuse(c, "unauthorized", UNAUTHORIZED_MESSAGE);
  if ("none" in state) return refuse(c, "no_person", NO_PERSON);
  return c.json({ turns: state.conversation.turns, done: state.conversation.done });
});

personRoutes.post("/person/v1/respond", async (c) => {
  const world = await toolWorld(c);
  if (!world) return refuse(c, "unauthorized", UNAUTHORIZED_MESSAGE);
  const read = await readJsonBody(c.req.raw);
  if (!read.ok) return refuse(c, read.problem === "too_large" ? "request_too_large" : "invalid_request", read.message);
  const body = respondBody.safeParse(read.value);
  if (!body.success) {
    const issue = body.error.issues[0];
    return refuse(c, "invalid_request", `${issue?.path.length ? issue.path.join(".") : "the body"}: ${issue?.message ?? "invalid"}. The body is {"said": "<what the agent says to the person>"}.`);
  }
  const state = (await world.stub.personConversation(world.keyHash)) as PersonState | { none: true } | null;
  if (!state) return refuse(c, "unauthorized", UNAUTHORIZED_MESSAGE);
  if ("none" in state) return refuse(c, "no_person", NO_PERSON);
  const { setup, conversation } = state;
  if (conversation.done) return refuse(c, "conversation_over", "The person is done: the conversation is over. Finish the episode.");
  const model = serverModel(c.env, setup.model, { cache: setup.cache });
  if (!model.ok) return refuse(c, "person_unavailable", `The person cannot answer: ${model.message}.`);
  const turn = await respondAsPerson({ spec: setup.spec, opening: setup.opening, conversation, said: body.data.said, person: model, turnLimit: setup.turn_limit });
  if (!turn.ok) return refuse(c, "person_unavailable", `The person's model failed (${turn.error.kind}): ${turn.error.message}. Nothing was said; try again.`);
  const saved = await world.stub.personSave(world.keyHash, conversation.turns.length, turn.conversation);
  if (saved === null) return refuse(c, "unauthorized", UNAUTHORIZED_MESSAGE);
  if (saved === "conflict") return refuse(c, "busy", "Another message to the person was answered first; read GET /person/v1/conversation and send one message at a time.");
  if (saved === "no_person") return refuse(c, "no_person", NO_PERSON);
  return c.json({ reply: turn.reply, done: turn.done });
});

personRoutes.all("/person/v1/respond", (c) => refuse(c, "method_not_allowed", 'Use POST /person/v1/respond with {"said": "..."}.'));
personRoutes.all("/person/v1/conversation", (c) => refuse(c, "method_not_allowed", "Use GET /person/v1/conversation."));
