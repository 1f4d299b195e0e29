// MCP over Streamable HTTP at POST /mcp, the world's key as Bearer. Two protocol eras on one endpoint, both served
// by the MCP SDK v2 from one server factory: 2026-07-28 (no handshake; each request carries its protocol version in
// `_meta`, `server/discover` names what the server speaks) through the SDK's per-request handler, and the 2025 and
// older revisions (initialize, then tools/list and tools/call) through its stateless Streamable HTTP transport.
// Either way plain JSON answers and no session: the key names the world on every request. Tools are raw JSON
// Schema through the low-level Server, checked with the eval-free validator (workerd refuses generated code).
import { Hono, type Context } from "hono";
import { createMcpHandler, isLegacyRequest, Server, WebStandardStreamableHTTPServerTransport, type CallToolResult, type Tool } from "@modelcontextprotocol/server";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/server/validators/cf-worker";
import type { AppEnv } from "../env";
import { newRequestId } from "../http/ids";
import { mcpCallResult, mcpTool } from "../core/kinds/tools/render";
import type { ToolDefinition, ToolOutcome } from "../core/kinds/tools/definition";
import { envelopeProblem } from "./mcp-envelope";
import { readJsonBody } from "./tool-input";
import { toolWorld, UNAUTHORIZED_MESSAGE, type ToolWorld } from "./tool-world";

export const mcpRoutes = new Hono<AppEnv>();

const SERVER_INFO = { name: "worlds", title: "worlds: a simulated world for support agents", version: "0.1.0" };
const INSTRUCTIONS =
  "Every tool acts on this one world (the key you connected with opens no other). Reads change nothing; writes " +
  "change the world exactly as the same API request would, and every call is recorded. Amounts are in cents.";

/** JSON-RPC's envelope for a refusal, with the HTTP status it goes with. */
function rpcError(status: number, code: number, message: string, headers: Record<string, string> = {}, id: string | number | null = null): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id }), { status, headers: { "content-type": "application/json", ...headers } });
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
  const problem = envelopeProblem(read.value);
  // A request the envelope names is answered in-band (200, its id), as the SDK answers its own refusals.
  if (problem) return rpcError(problem.code === -32602 ? 200 : 400, problem.code, problem.message, {}, problem.id);
  const factory = () => mcpServer(c, world, tools);
  if (await isLegacyRequest(c.req.raw, read.value)) {
    const server = factory();
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(c.req.raw, { parsedBody: read.value });
    } finally {
      // JSON answers are complete once handleRequest resolves; nothing of this request outlives it.
      await server.close();
    }
  }
  const modern = createMcpHandler(factory, { legacy: "reject", keepAliveMs: 0 });
  try {
    return await modern.fetch(c.req.raw, { parsedBody: read.value });
  } finally {
    await modern.close();
  }
});

// No server-to-client stream (every answer is in its POST's response) and no sessions to end.
mcpRoutes.all("/mcp", () => rpcError(405, -32000, "Method not allowed: this MCP endpoint is stateless and answers POST only.", { allow: "POST" }));

function unauthorized(): Response {
  return rpcError(401, -32001, UNAUTHORIZED_MESSAGE, { "www-authenticate": 'Bearer realm="worlds"' });
}

function mcpServer(c: Context<AppEnv>, world: ToolWorld, tools: ToolDefinition[]): Server {
  const server = new Server(SERVER_INFO, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS, jsonSchemaValidator: new CfWorkerJsonSchemaValidator() });
  // Cast: every tool's input schema is an object schema (the tool loader checks it); our type keeps it open.
  server.setRequestHandler("tools/list", () => ({ tools: tools.map(mcpTool) as Tool[] }));
  server.setRequestHandler("tools/call", async (req): Promise<CallToolResult> => {
    const outcome = (await world.stub.toolCall({
      keyHash: world.keyHash,
      name: req.params.name,
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
