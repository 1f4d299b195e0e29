// What the Worker's tool surfaces (MCP at /mcp, JSON at /tools/v1) send the World over RPC, and the trace row a
// call leaves. Plain data, so Node code can import it.

/** Which surface a call came through, kept on its trace row (the call itself is the same either way). */
export type ToolSurface = "mcp" | "json";

export interface ToolCallRequest {
  /** SHA-256 hex of the presented key; the world compares it with its own, as for its REST twins. */
  keyHash: string;
  name: string;
  arguments: Record<string, unknown>;
  requestId: string;
  /** Scheme + host the agent used, for URLs in results. */
  origin: string;
  via: ToolSurface;
  /** Arguments the surface could not read as an object (a model's malformed JSON text): the world answers
   *  invalid_arguments without calling the tool, and traces the call with the text as sent, so the grader sees
   *  the malformed call like any other. */
  unreadable?: { text: string; message: string };
}

/** The trace's service name for tool calls, beside the REST twins' stripe and helpdesk, in every world kind. */
export const TOOLS_TRACE_SERVICE = "tools";
/** A tool call's trace row has this method, the tool's name as its path and `via=<surface>` as its query. */
export const TOOLS_TRACE_METHOD = "CALL";
