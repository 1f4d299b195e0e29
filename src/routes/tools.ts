// The plain JSON tool surface every world offers: GET /tools/v1/list?format=openai|anthropic|mcp and POST
// /tools/v1/call {name, arguments}, with the world's key as Bearer. A call answers the tool's result object; a
// failure answers {"error": {"code", "message"}} with the code's status (OpenAI's idiom for JSON APIs).
import { Hono, type Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../env";
import { newRequestId } from "../http/ids";
import { renderToolList, TOOL_LIST_FORMATS } from "../core/kinds/tools/render";
import type { ToolDefinition } from "../core/kinds/tools/definition";
import { parseJson, readJsonBody } from "./tool-input";
import { toolWorld, UNAUTHORIZED_MESSAGE } from "./tool-world";

export const toolsRoutes = new Hono<AppEnv>();

type SurfaceCode = "unauthorized" | "invalid_request" | "request_too_large" | "method_not_allowed";
const STATUS: Record<SurfaceCode, 400 | 401 | 405 | 413> = { unauthorized: 401, invalid_request: 400, request_too_large: 413, method_not_allowed: 405 };

/** A refusal of the request itself (never reached a tool), in the same envelope as a tool's failure. */
function refuse(c: Context<AppEnv>, code: SurfaceCode, message: string): Response {
  const headers: Record<string, string> = code === "unauthorized" ? { "www-authenticate": 'Bearer realm="worlds"' } : code === "method_not_allowed" ? { allow: c.req.path.endsWith("/list") ? "GET" : "POST" } : {};
  return c.json({ error: { code, message } }, STATUS[code], headers);
}

const formatParam = z.enum(TOOL_LIST_FORMATS).default("openai");

toolsRoutes.get("/tools/v1/list", async (c) => {
  const format = formatParam.safeParse(c.req.query("format"));
  if (!format.success) return refuse(c, "invalid_request", `format must be one of ${TOOL_LIST_FORMATS.join(", ")} (default openai).`);
  const world = await toolWorld(c);
  if (!world) return refuse(c, "unauthorized", UNAUTHORIZED_MESSAGE);
  // Cast: the RPC stub's types cannot express JSON Schema's open-ended keywords and make them never.
  const tools = (await world.stub.toolList(world.keyHash)) as ToolDefinition[] | null;
  if (!tools) return refuse(c, "unauthorized", UNAUTHORIZED_MESSAGE);
  return c.json(renderToolList(tools, format.data));
});

const callBody = z.strictObject({
  name: z.string().min(1).max(256),
  /** An object, or the JSON text of one (what a model's tool call carries); absent means no arguments. Checked
   *  below, so that arguments of the wrong shape are the tool's invalid_arguments rather than a bad request. */
  arguments: z.unknown().optional(),
});

toolsRoutes.post("/tools/v1/call", async (c) => {
  const world = await toolWorld(c);
  if (!world) return refuse(c, "unauthorized", UNAUTHORIZED_MESSAGE);
  const read = await readJsonBody(c.req.raw);
  if (!read.ok) return refuse(c, read.problem === "too_large" ? "request_too_large" : "invalid_request", read.message);
  const body = callBody.safeParse(read.value);
  if (!body.success) {
    const issue = body.error.issues[0];
    const where = issue?.path.length ? issue.path.join(".") : "the body";
    return refuse(c, "invalid_request", `${where}: ${issue?.message ?? "invalid"}. The body is {"name": "<tool>", "arguments": {...}}.`);
  }
  const args = readArguments(body.data.arguments);
  const answer = await world.stub.toolCallAnswer({
    keyHash: world.keyHash,
    name: body.data.name,
    arguments: args.ok ? args.value : {},
    ...(args.ok ? {} : { unreadable: args.unreadable }),
    requestId: newRequestId(),
    origin: new URL(c.req.url).origin,
    via: "json",
  });
  if (!answer) return refuse(c, "unauthorized", UNAUTHORIZED_MESSAGE);
  return new Response(answer.body, { status: answer.status, headers: { "content-type": "application/json" } });
});

/** The call's arguments as an object, or, when they are not one, what was sent and why it cannot be read. */
function readArguments(raw: unknown): { ok: true; value: Record<string, unknown> } | { ok: false; unreadable: { text: string; message: string } } {
  let args: unknown = raw ?? {};
  if (typeof raw === "string") {
    const parsed = raw.trim() === "" ? ({ ok: true, value: {} } as const) : parseJson(raw, "arguments");
    if (!parsed.ok) return { ok: false, unreadable: { text: raw, message: parsed.message } };
    args = parsed.value;
  }
  if (!args || typeof args !== "object" || Array.isArray(args)) return { ok: false, unreadable: { text: typeof raw === "string" ? raw : JSON.stringify(raw), message: "arguments must be a JSON object of the tool's parameters." } };
  return { ok: true, value: args as Record<string, unknown> };
}

toolsRoutes.all("/tools/v1/list", (c) => refuse(c, "method_not_allowed", "Use GET /tools/v1/list?format=openai|anthropic|mcp."));
toolsRoutes.all("/tools/v1/call", (c) => refuse(c, "method_not_allowed", 'Use POST /tools/v1/call with {"name": "<tool>", "arguments": {...}}.'));
