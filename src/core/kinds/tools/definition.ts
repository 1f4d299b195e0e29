// A tool as every world kind offers it to an agent: provider-safe name, description, plain JSON Schemas and its
// effect. Pure data shared by the importers (src/core/kinds/tools), the simulator and the agent surfaces.

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
  /** (OpenAPI) the error body the document declares for a failure's status ("404", "409", "422", "503"). */
  errorSchemas?: Partial<Record<string, JsonObjectSchema>>;
  /** What more is known of a write (MCP's destructiveHint and idempotentHint); absent means not known. */
  hints?: { destructive?: boolean; idempotent?: boolean };
}

/** The four failure codes every kind answers with, each rendered in the caller's format's idiom by the surface. */
export type ToolErrorCode = "not_found" | "invalid_arguments" | "not_ready" | "unavailable";
export const TOOL_ERROR_STATUS: Record<ToolErrorCode, number> = { not_found: 404, invalid_arguments: 422, not_ready: 409, unavailable: 503 };

export type ToolOutcome =
  | { ok: true; result: Record<string, unknown> }
  | { ok: false; error: { code: ToolErrorCode; message: string } };
