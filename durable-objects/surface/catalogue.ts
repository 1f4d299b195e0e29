// The agent-facing tool surface every world kind offers (MCP at /mcp, plain JSON at /tools/v1): a list of tool
// definitions and a way to call one. Each kind supplies a catalogue; the surface layer (MCP server, JSON routes,
// the built-in model agent) never knows which kind it is talking to. Calls go through the kind's own rules, so a
// call over MCP changes the world, the trace and the diff exactly as the same operation over REST does.
import type { Store } from "../store/store";
import type { ToolDefinition, ToolOutcome } from "../../src/core/kinds/tools/definition";
import type { Transact } from "../twin";

export type { JsonObjectSchema, ToolDefinition, ToolEffect, ToolErrorCode, ToolOutcome } from "../../src/core/kinds/tools/definition";
export { TOOL_ERROR_STATUS } from "../../src/core/kinds/tools/definition";

export interface ToolCallContext {
  store: Store;
  /** A call's writes run inside one transact, so they land together (or not at all) under requestId in the diff. */
  transact: Transact;
  /** The call's own id; the World has begun it on the store, so every change the call makes carries it. */
  requestId: string;
  /** Scheme + host the agent used, for URLs in results. */
  origin: string;
}

export interface ToolCatalogue {
  list(store: Store): ToolDefinition[];
  /**
   * Unknown tool names answer not_found; arguments that break the tool's schema answer invalid_arguments.
   * Synchronous, like a twin's handler: concurrent calls never interleave inside one. The World traces the call
   * (service "tools") and chooses the catalogue by the world's kind (surface/kinds.ts).
   */
  call(ctx: ToolCallContext, name: string, args: Record<string, unknown>): ToolOutcome;
  /**
   * A failure's body on the plain JSON surface when the kind has an idiom of its own (a tools world answers in
   * its set's format); without it the surface writes {"error": {code, message}}. The status is the code's.
   */
  failureBody?(store: Store, name: string, error: Extract<ToolOutcome, { ok: false }>["error"]): Record<string, unknown>;
  /**
   * Lets the World answer a repeated call with the body it gave the same call before (surface/answer-cache.ts).
   * `stable`: whether a successful answer of this tool depends on nothing but the tool and its arguments.
   * `recount`: counts a call answered so, exactly as `call` would have counted it; false when `call` would now
   * answer otherwise (the episode's call limit is reached), and then `call` runs instead.
   */
  reuse?: { stable(store: Store, name: string): boolean; recount(store: Store, name: string): boolean };
}
