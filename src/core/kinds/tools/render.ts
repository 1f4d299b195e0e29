// A world's tools as each agent-facing format writes them: OpenAI and Anthropic tool blocks, MCP tools/list
// entries with annotations, and a tool's answer or failure in each format's idiom. Pure, so the Worker's routes,
// the MCP server and a model agent in Node render the same catalogue the same way.
import { TOOL_ERROR_STATUS, type ToolDefinition, type ToolErrorCode, type ToolOutcome } from "./definition";

export const TOOL_LIST_FORMATS = ["openai", "anthropic", "mcp"] as const;
export type ToolListFormat = (typeof TOOL_LIST_FORMATS)[number];

/** Chat Completions' function tool (the Responses API takes the same fields flattened). */
export interface OpenAiTool {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

export interface McpToolAnnotations {
  title?: string;
  readOnlyHint: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint: boolean;
}

export interface McpTool {
  name: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: McpToolAnnotations;
}

export function openAiTool(t: ToolDefinition): OpenAiTool {
  return { type: "function", function: { name: t.name, description: t.description, parameters: t.inputSchema } };
}

export function anthropicTool(t: ToolDefinition): AnthropicTool {
  return { name: t.name, description: t.description, input_schema: t.inputSchema };
}

/**
 * Annotations say what the effect says. An unknown effect carries none at all: that is how MCP itself says "not
 * known", so a list rendered here and imported again keeps its effects. A world never reaches outside itself,
 * hence openWorldHint false.
 */
export function mcpTool(t: ToolDefinition): McpTool {
  const out: McpTool = { name: t.name, description: t.description, inputSchema: t.inputSchema };
  if (t.title) out.title = t.title;
  if (t.outputSchema) out.outputSchema = t.outputSchema;
  const title = t.title ? { title: t.title } : {};
  if (t.effect === "read") out.annotations = { ...title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
  else if (t.effect === "write")
    out.annotations = { ...title, readOnlyHint: false, destructiveHint: t.hints?.destructive ?? true, idempotentHint: t.hints?.idempotent ?? false, openWorldHint: false };
  return out;
}

export function renderToolList(tools: readonly ToolDefinition[], format: ToolListFormat): { tools: Array<OpenAiTool | AnthropicTool | McpTool> } {
  const render: (t: ToolDefinition) => OpenAiTool | AnthropicTool | McpTool = format === "openai" ? openAiTool : format === "anthropic" ? anthropicTool : mcpTool;
  return { tools: tools.map((t) => render(t)) };
}

/** A failure as OpenAI-style JSON APIs write it, with the HTTP status its code stands for. */
export function jsonToolError(code: ToolErrorCode, message: string): { status: number; body: { error: { code: ToolErrorCode; message: string } } } {
  return { status: TOOL_ERROR_STATUS[code], body: { error: { code, message } } };
}

/** MCP's tools/call result: the object as structured content and as JSON text; a failure is a result with isError. */
export interface McpCallResult {
  [key: string]: unknown;
  content: Array<{ type: "text"; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export function mcpCallResult(outcome: ToolOutcome): McpCallResult {
  if (outcome.ok) return { content: [{ type: "text", text: JSON.stringify(outcome.result) }], structuredContent: outcome.result };
  const { code, message } = outcome.error;
  // The code leads the text, where a model reads it. No structured content: the SDK's client checks any it gets
  // against the tool's output schema, error or not, and an error object would fail that check.
  return { content: [{ type: "text", text: `${code}: ${message}` }], isError: true };
}
