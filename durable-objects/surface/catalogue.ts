// The agent-facing tool surface every world kind offers (MCP at /mcp, plain JSON at /tools/v1): a list of tool
// definitions and a way to call one. Each kind supplies a catalogue; the surface layer (MCP server, JSON routes,
// the built-in model agent) never knows which kind it is talking to. Calls go through the kind's own rules, so a
// call over MCP changes the world, the trace and the diff exactly as the same operation over REST does.
import type { Store } from "../store/store";
import type { ToolDefinition, ToolOutcome } from "../../src/core/tools/definition";
import type { Transact } from "../twin";

export type { JsonObjectSchema, ToolDefinition, ToolEffect, ToolErrorCode, ToolOutcome } from "../../src/core/tools/definition";
export { TOOL_ERROR_STATUS } from "../../src/core/tools/definition";

export interface ToolCallContext {
  store: Store;
  transact: Transact;
  requestId: string;
  /** Scheme + host the agent used, for URLs in results. */
  origin: string;
}

export interface ToolCatalogue {
  list(store: Store): ToolDefinition[];
  /** Unknown tool names answer not_found; arguments that break the tool's schema answer invalid_arguments. */
  call(ctx: ToolCallContext, name: string, args: Record<string, unknown>): ToolOutcome;
}
