// The client's own request and answer shapes: one vocabulary for both providers, translated to each wire format
// in wire/. Callers (the judge today; a person simulator, a rubric grader and a model agent later) speak only
// these, so a third provider is a new wire module and nothing else.
import type { ModelName } from "./names";

/** A JSON Schema document, as a plain object (the client never interprets it, only sends it). */
export type JsonSchema = Record<string, unknown>;

export interface ToolSpec {
  /** ^[a-zA-Z0-9_-]{1,64}$ for both providers. */
  name: string;
  description?: string;
  /** An object schema for the arguments. */
  parameters: JsonSchema;
}

export interface ToolCall {
  id: string;
  name: string;
  /** Parsed arguments (OpenAI sends a JSON string, Anthropic an object; both arrive here parsed). */
  arguments: unknown;
  /**
   * Set when the model's arguments text was not JSON: why, with `arguments` holding the text as sent. The answer
   * still arrives, so a tool-calling loop can answer that one call in the tool's words and let the model go on.
   */
  invalidArguments?: string;
}

export type ModelMessage =
  | { role: "user"; content: string }
  | { role: "assistant"; content: string | null; toolCalls?: ToolCall[] }
  | { role: "tool"; toolCallId: string; content: string; isError?: boolean };

/** A structured answer: the model must answer with JSON matching `schema`. */
export interface OutputSpec {
  name: string;
  description?: string;
  schema: JsonSchema;
  /**
   * How it is asked for: a JSON-schema response format (OpenAI's default), or a forced call of a tool whose
   * input is the answer (Anthropic's only way, and OpenAI-compatible servers that lack response formats).
   */
  via?: "response_format" | "tool";
}

export interface ModelRequest {
  model: ModelName;
  system?: string;
  messages: ModelMessage[];
  tools?: ToolSpec[];
  /** "required": some tool must be called; {name}: that one. Default auto. */
  toolChoice?: "auto" | "required" | { name: string };
  output?: OutputSpec;
  /** Default 1024. */
  maxTokens?: number;
  /** Default 0: graders want the same answer twice. */
  temperature?: number;
  /** Sampling seed, for providers that take one (OpenAI's `seed`; Anthropic has none and is sent nothing). */
  seed?: number;
}

export type StopReason = "end" | "tool_calls" | "length" | "refusal" | "filter" | "other";

export interface Usage {
  input_tokens: number;
  output_tokens: number;
}

export interface ModelAnswer {
  /** The text the model wrote (joined text blocks), or null. */
  text: string | null;
  toolCalls: ToolCall[];
  stop: StopReason;
  /** OpenAI's refusal field, or Anthropic's text under a refusal stop. */
  refusal: string | null;
  /** The structured answer's JSON text (content under a response format, the forced tool's input otherwise). */
  structured: string | null;
  usage: Usage;
  /** The model id the server says answered. */
  model: string | null;
}

export const MODEL_ERROR_KINDS = ["config", "budget", "http", "timeout", "network", "malformed", "truncated", "refused"] as const;
export type ModelErrorKind = (typeof MODEL_ERROR_KINDS)[number];

export interface ModelError {
  kind: ModelErrorKind;
  /** One sentence, safe to show: never holds a key. */
  message: string;
  /** HTTP status of the last attempt, when there was one. */
  status: number | null;
  /** What the model sent (its text or the body of the error), cut and scrubbed of keys; null when nothing arrived. */
  raw: string | null;
}
