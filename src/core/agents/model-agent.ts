// The built-in model agent (`--model provider:model`): worlds itself runs the tool-calling loop. Each turn sends
// the conversation and the world's tools to the model; each tool call it answers is run against the world and
// its result (or its error, in the tool's words) goes back; the first answer without tool calls is the reply.
// Runtime-neutral (the model client and the tool surface are fetch-based), and it never throws for anything the
// model or the world does: a model error, a spent budget or the turn limit end the loop with what happened said,
// so the episode is graded and recorded like any other.
import { z } from "zod";
import type { CallResult, ModelAnswer, ModelClient, ModelError, ModelMessage, ModelName, ModelRequest, ToolSpec } from "../models/index";
import type { ToolSurface } from "./tool-surface";

export const DEFAULT_TURN_LIMIT = 16;

/** The model client's surface the loop uses (a test can hand in its own). */
export type ModelCaller = Pick<ModelClient, "call" | "redact">;

export interface ModelAgentInput {
  client: ModelCaller;
  model: ModelName;
  system: string;
  user: string;
  /** Turns already in the conversation after the user's message (seeded tool calls and their answers). */
  history?: ModelMessage[];
  tools: ToolSpec[];
  surface: ToolSurface;
  /** Model requests (turns) before the loop gives up; default DEFAULT_TURN_LIMIT. */
  turnLimit?: number;
  maxTokens?: number;
  temperature?: number;
  signal?: AbortSignal;
}

export const MODEL_AGENT_ENDS = ["answered", "turn_limit", "model_error", "aborted"] as const;
export type ModelAgentEnd = (typeof MODEL_AGENT_ENDS)[number];

export interface ToolCallLog {
  name: string;
  /** HTTP status of the world's answer; null when it could not be reached. */
  status: number | null;
  /** The tool's error code when it failed (invalid_arguments, not_found...). */
  error: string | null;
  /** The model's arguments were not JSON (the world answered them as invalid_arguments). */
  malformed: boolean;
}

export interface ModelAgentUsage {
  /** Model requests sent, retries included (0 for cached answers). */
  requests: number;
  cached: number;
  input_tokens: number;
  output_tokens: number;
  micros: number;
  /** Some answer came from a model the price table does not hold: `micros` leaves it out. */
  unpriced: boolean;
}

export interface ModelAgentRun {
  end: ModelAgentEnd;
  /** The final text (answered); on any other end the last text the model wrote, or "". */
  reply: string;
  /** Why the loop stopped early (model_error), in words safe to show. */
  error: ModelError | null;
  turns: number;
  calls: ToolCallLog[];
  usage: ModelAgentUsage;
  /** Things worth knowing about an answer that still counted (a refusal, a reply cut at the token limit). */
  remarks: string[];
  /** The conversation as the model saw it, its final answer last: what a next turn (the person's reply) continues. */
  messages: ModelMessage[];
}

/** Only an object is a tool's arguments; anything else goes to the world as sent, which refuses it in its words. */
const toolArguments = z.record(z.string(), z.unknown());

export async function runModelAgent(o: ModelAgentInput): Promise<ModelAgentRun> {
  const limit = o.turnLimit ?? DEFAULT_TURN_LIMIT;
  const messages: ModelMessage[] = [{ role: "user", content: o.user }, ...(o.history ?? [])];
  const run: ModelAgentRun = { end: "turn_limit", reply: "", error: null, turns: 0, calls: [], usage: { requests: 0, cached: 0, input_tokens: 0, output_tokens: 0, micros: 0, unpriced: false }, remarks: [], messages };

  for (let turn = 1; turn <= limit; turn++) {
    if (o.signal?.aborted) return { ...run, end: "aborted" };
    const req: ModelRequest = { model: o.model, system: o.system, messages, tools: o.tools, toolChoice: "auto", ...(o.maxTokens ? { maxTokens: o.maxTokens } : {}), ...(o.temperature !== undefined ? { temperature: o.temperature } : {}) };
    const r: CallResult<ModelAnswer> = await o.client.call<ModelAnswer>(req, { signal: o.signal });
    run.turns = turn;
    count(run.usage, r);
    if (!r.ok) {
      if (o.signal?.aborted) return { ...run, end: "aborted" };
      return { ...run, end: "model_error", error: r.error };
    }
    const a = r.answer;
    if (a.text) run.reply = a.text.trim();
    if (a.toolCalls.length === 0) {
      if (a.stop === "refusal") run.remarks.push(`the model refused${a.refusal ? `: ${firstLine(o.client.redact(a.refusal))}` : ""}`);
      if (a.stop === "length") run.remarks.push("the model's last answer was cut off at its token limit");
      run.reply = (a.text ?? a.refusal ?? "").trim();
      messages.push({ role: "assistant", content: run.reply });
      return { ...run, end: "answered" };
    }
    messages.push({ role: "assistant", content: a.text, toolCalls: a.toolCalls });
    for (const c of a.toolCalls) {
      if (o.signal?.aborted) return { ...run, end: "aborted" };
      const parsed = c.invalidArguments === undefined ? toolArguments.safeParse(c.arguments ?? {}) : null;
      const answer = await o.surface.call(c.name, parsed?.success ? parsed.data : c.arguments, o.signal);
      run.calls.push({ name: c.name, status: answer.status, error: answer.ok ? null : answer.code, malformed: c.invalidArguments !== undefined });
      messages.push({ role: "tool", toolCallId: c.id, content: answer.text, ...(answer.ok ? {} : { isError: true }) });
    }
  }
  return run;
}

function count(u: ModelAgentUsage, r: CallResult<ModelAnswer>): void {
  u.requests += r.attempts;
  if (r.cached) u.cached++;
  u.input_tokens += r.usage.input_tokens;
  u.output_tokens += r.usage.output_tokens;
  if (r.micros === null) u.unpriced = true;
  else u.micros += r.micros;
}

function firstLine(s: string): string {
  const line = s.split("\n")[0]!.trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
