// The agent-facing tool surface every world kind offers (MCP at /mcp, plain JSON at /tools/v1): a list of tool
// definitions and a way to call one. Each kind supplies a catalogue; the surface layer (MCP server, JSON routes,
// the built-in model agent) never knows which kind it is talking to. Calls go through the kind's own rules, so a
// call over MCP changes the world, the trace and the diff exactly as the same operation over REST does.
import type { Store } from "../store/store";
import type { Transact } from "../twin";

/** A JSON Schema for an object (tool arguments or a tool's structured result). Plain data: never compiled. */
export type JsonObjectSchema = { type: "object"; properties?: Record<string, unknown>; required?: string[]; [keyword: string]: unknown };

/** What a tool does to the world: reads change nothing; an unknown effect is treated as a write. */
export type ToolEffect = "read" | "write" | "unknown";

export interface ToolDefinition {
  /** Provider-safe: 1-64 of [A-Za-z0-9_-], unique in the catalogue. */
  name: string;
  /** The original name when it had to be renamed, or a human title. */
  title?: string;
  description: string;
  inputSchema: JsonObjectSchema;
  outputSchema?: JsonObjectSchema;
  effect: ToolEffect;
}

/** The four failure codes every kind answers with, each rendered in the caller's format's idiom by the surface. */
export type ToolErrorCode = "not_found" | "invalid_arguments" | "not_ready" | "unavailable";
export const TOOL_ERROR_STATUS: Record<ToolErrorCode, number> = { not_found: 404, invalid_arguments: 422, not_ready: 409, unavailable: 503 };

export type ToolOutcome =
  | { ok: true; result: Record<string, unknown> }
  | { ok: false; error: { code: ToolErrorCode; message: string } };

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
