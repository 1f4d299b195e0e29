// MCP over Streamable HTTP at POST /mcp, the world's key as Bearer: initialize, tools/list, tools/call. Stateless
// (no session: the key names the world on every request) and plain JSON answers, with a fresh Server and
// transport per request, as the SDK requires of a stateless transport. Tools are raw JSON Schema through the
// low-level Server, and the eval-free validator: the SDK's default (Ajv) generates code, which workerd refuses.
import { Hono, type Context } from "hono";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import type { AppEnv } from "../env";
import { newRequestId } from "../http/ids";
import { mcpCallResult, mcpTool } from "../core/kinds/tools/render";
import type { ToolDefinition, ToolOutcome } from "../core/kinds/tools/definition";
import { readJsonBody } from "./tool-input";
import { toolWorld, UNAUTHORIZED_MESSAGE, type ToolWorld } from "./tool-world";

export const mcpRoutes = new Hono<AppEnv>();

const SERVER_INFO = { name: "worlds", title: "worlds: a simulated world for support agents", version: "0.1.0" };
const INSTRUCTIONS =
  "Every tool acts on this one world (the key you connected with opens no other). Reads change nothing; writes " +
  "change the world exactly as the same API request would, and every call is recorded. Amounts are in cents.";

/** JSON-RPC's envelope for a refusal outside any method (no id could be read), with the HTTP status it goes with. */
function rpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }), { status, headers: { "content-type": "application/json", ...headers } });
}

mcpRoutes.post("/mcp", async (c) => {
  const world = await toolWorld(c);
  if (!world) return unauthorized();
  // Cast: the RPC stub's types cannot express JSON Schema's open-ended keywords and make them never.
  const tools = (await world.stub.toolList(world.keyHash)) as ToolDefinition[] | null;
  if (!tools) return unauthorized();
  const read = await readJsonBody(c.req.raw);
  if (!read.ok) {
    if (read.problem === "too_large") return rpcError(413, -32600, read.message);
    return read.problem === "invalid_json" ? rpcError(400, -32700, `Parse error: ${read.message}`) : rpcError(400, -32600, `Invalid Request: ${read.message}`);
  }
  const server = mcpServer(c, world, tools);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(c.req.raw, { parsedBody: read.value });
  } finally {
    // JSON answers are complete once handleRequest resolves; nothing of this request outlives it.
    await server.close();
  }
});

// No server-to-client stream (every answer is in its POST's response) and no sessions to end.
mcpRoutes.on(["GET", "DELETE"], "/mcp", () => rpcError(405, -32000, "Method not allowed: this MCP endpoint is stateless and answers POST only.", { allow: "POST" }));

function unauthorized(): Response {
  return rpcError(401, -32001, UNAUTHORIZED_MESSAGE, { "www-authenticate": 'Bearer realm="worlds"' });
}

function mcpServer(c: Context<AppEnv>, world: ToolWorld, tools: ToolDefinition[]): Server {
  const server = new Server(SERVER_INFO, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS, jsonSchemaValidator: new CfWorkerJsonSchemaValidator() });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map(mcpTool) }));
  server.setRequestHandler(CallToolRequestSchema, async (req): Promise<CallToolResult> => {
    const outcome = (await world.stub.toolCall({
      keyHash: world.keyHash,
      name: req.params.name.slice(0, 256),
      arguments: req.params.arguments ?? {},
      requestId: newRequestId(),
      origin: new URL(c.req.url).origin,
      via: "mcp",
    })) as ToolOutcome | null;
    // The world closed between the list and the call: the key opens nothing any more.
    return mcpCallResult(outcome ?? { ok: false, error: { code: "unavailable", message: UNAUTHORIZED_MESSAGE } }) as CallToolResult;
  });
  return server;
}
