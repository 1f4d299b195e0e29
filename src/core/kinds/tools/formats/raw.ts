// What each format's reader hands the shared rules: a tool as the file states it, before renaming and refusal.
import type { ToolEffect } from "../definition";

export type ToolFormat = "openai" | "mcp" | "openapi";

export const FORMAT_LABEL: Record<ToolFormat, string> = {
  openai: "an OpenAI tools file",
  mcp: "an MCP tool list",
  openapi: "an OpenAPI document",
};

export interface RawTool {
  /** The name as the file writes it (renamed later if providers would refuse it). */
  name: string;
  description: string;
  /** The argument schema as found (undefined = the format's "no parameters"). */
  inputSchema: unknown;
  outputSchema?: unknown;
  /** (OpenAPI) the error bodies the document declares, by the status each failure code answers with. */
  errorSchemas?: Partial<Record<string, unknown>>;
  /** What the file itself says about the effect. */
  effect: ToolEffect;
  /** Which of the format's rules decided `effect`, as the summary names it ("HTTP method GET"). */
  effectRule: string;
  /** A reason the reader already knows the tool cannot be used (an OpenAPI name clash, a file body...). */
  refusal?: string;
}

export class ToolFileError extends Error {}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
