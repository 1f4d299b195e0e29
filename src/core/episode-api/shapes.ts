// What the episode API answers and what the runTask client hands an agent, as plain types with no imports: the
// package's declarations (dist/lib) are built from this file, so a caller's TypeScript needs nothing of ours.

export interface EpisodeSurfaces {
  id: string;
  slug: string;
  split: string;
  /** The first message of the conversation (the person's, the task's prompt), as a user message. */
  messages: Array<{ role: "user"; content: string }>;
  world: { id: string; key: string; mcp_url: string; tools_url: string; person_url: string | null };
  warnings: string[];
}

export interface EpisodeGrade {
  id: string;
  slug: string;
  reward: number;
  passed: boolean;
  criteria: Array<{ id: string; claim: string; met: boolean | null; reason: string; by: string }>;
  /** The conversation: the person as user, the policy as assistant. */
  transcript: Array<{ role: "user" | "assistant"; content: string }>;
  tool_calls: Array<{ tool: string; arguments: Record<string, unknown>; result?: unknown }>;
  /** The policy's error (reward 0), or the grader's (reward 0, the grader record says why). */
  error: string | null;
  grader: unknown;
  warnings: string[];
}

/** A message of the conversation an agent is handed: the person as user, the agent's own text as assistant. */
export interface EpisodeMessage {
  role: "user" | "assistant";
  content: string;
}

/** A tool as GET /tools/v1/list?format=openai writes it. */
export interface ToolboxOpenAiTool {
  type: "function";
  function: { name: string; description?: string; parameters: Record<string, unknown> };
}

/** The same tool in Anthropic's shape. */
export interface ToolboxAnthropicTool {
  name: string;
  description?: string;
  input_schema: Record<string, unknown>;
}

/** The world's tools as an agent uses them: a call answers the tool's result, or `{error: {code, message}}`. */
export interface Toolbox {
  call(name: string, args?: Record<string, unknown>): Promise<unknown>;
  openai_tools(): ToolboxOpenAiTool[];
  anthropic_tools(): ToolboxAnthropicTool[];
}

/**
 * An agent: handed the conversation so far and the toolbox, it answers its next message to the person (or its
 * final text when the task has no person). Throwing ends the episode at reward 0 with the error recorded.
 */
export type EpisodeAgent = (messages: EpisodeMessage[], toolbox: Toolbox) => string | Promise<string>;

export interface RunTaskOptions {
  /** The worlds server, e.g. http://127.0.0.1:8787 (`worlds serve` prints it). */
  url: string;
  /** The server's admin token (WORLDS_TOKEN). */
  token: string;
  /** "train" (the default) warns on a held-out task; "eval" does not. */
  purpose?: "train" | "eval";
  /** Agent messages the person takes before the conversation ends (server default 20). */
  person_turn_limit?: number;
  /** Any fetch (a test's, a proxy's); the global fetch by default. */
  fetch?: EpisodeFetch;
}

/** The part of fetch the client uses. */
export type EpisodeFetch = (input: string, init?: { method?: string; headers?: Record<string, string>; body?: string; signal?: AbortSignal }) => Promise<Response>;

/** The reward record runTask answers: the grade, plus the warnings the episode was started with. */
export type RunTaskResult = EpisodeGrade;
