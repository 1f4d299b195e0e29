// Anthropic Messages (POST {base}/v1/messages). Structured answers are a forced call of one tool whose input is
// the answer: the Messages API's way to get JSON that follows a schema.
import type { Effort } from "../names";
import type { ModelAnswer, ModelMessage, ModelRequest, StopReason, ToolCall } from "../types";
import { count, DEFAULT_MAX_TOKENS, isRecord, type Decoded, parseJson } from "./common";

export const ANTHROPIC_PATH = "/v1/messages";
export const ANTHROPIC_VERSION = "2023-06-01";

type Block = Record<string, unknown>;

function messages(list: readonly ModelMessage[]): unknown[] {
  const out: { role: "user" | "assistant"; content: Block[] }[] = [];
  // Consecutive tool results and user text belong in one user turn: the API alternates roles strictly.
  const push = (role: "user" | "assistant", blocks: Block[]) => {
    const last = out[out.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  };
  for (const m of list) {
    if (m.role === "user") push("user", [{ type: "text", text: m.content }]);
    else if (m.role === "tool") push("user", [{ type: "tool_result", tool_use_id: m.toolCallId, content: m.content, ...(m.isError ? { is_error: true } : {}) }]);
    else {
      const blocks: Block[] = [];
      if (m.content) blocks.push({ type: "text", text: m.content });
      for (const c of m.toolCalls ?? []) blocks.push({ type: "tool_use", id: c.id, name: c.name, input: c.arguments ?? {} });
      push("assistant", blocks);
    }
  }
  return out;
}

/**
 * Anthropic's equivalent of a reasoning effort: an extended-thinking budget in tokens (1,024 is its least),
 * spent on top of the answer's own max_tokens. `none` sends no thinking.
 */
export const THINKING_BUDGETS: Record<Effort, number> = { none: 0, minimal: 1024, low: 2048, medium: 8192, high: 16384, xhigh: 32768 };

export function anthropicBody(r: ModelRequest): Record<string, unknown> {
  const tools: Block[] = (r.tools ?? []).map((t) => ({ name: t.name, ...(t.description ? { description: t.description } : {}), input_schema: t.parameters }));
  let toolChoice: Block | undefined =
    r.toolChoice === undefined ? undefined : r.toolChoice === "auto" ? { type: "auto" } : r.toolChoice === "required" ? { type: "any" } : { type: "tool", name: r.toolChoice.name };
  if (r.output) {
    tools.push({ name: r.output.name, ...(r.output.description ? { description: r.output.description } : {}), input_schema: r.output.schema });
    toolChoice = { type: "tool", name: r.output.name };
  }
  const budget = r.model.effort ? THINKING_BUDGETS[r.model.effort] : 0;
  // With thinking on the API takes no temperature and forces no tool (only auto): the answer tool is offered
  // alone with auto choice, so a model that answers in text instead is a malformed answer, not a hidden one.
  if (budget && toolChoice && toolChoice.type !== "auto") toolChoice = { type: "auto" };
  const maxTokens = r.maxTokens ?? DEFAULT_MAX_TOKENS;
  return {
    model: r.model.model,
    max_tokens: maxTokens + budget,
    ...(r.system ? { system: r.system } : {}),
    messages: messages(r.messages),
    ...(tools.length ? { tools } : {}),
    ...(toolChoice ? { tool_choice: toolChoice } : {}),
    ...(budget ? { thinking: { type: "enabled", budget_tokens: budget } } : { temperature: r.temperature ?? 0 }),
  };
}

const STOPS: Record<string, StopReason> = { end_turn: "end", stop_sequence: "end", tool_use: "tool_calls", max_tokens: "length", refusal: "refusal", pause_turn: "other" };

export function anthropicAnswer(r: ModelRequest, bodyText: string): Decoded<ModelAnswer> {
  const parsed = parseJson(bodyText);
  if (!parsed.ok) return { ok: false, message: `the answer is ${parsed.message}` };
  const body = parsed.value;
  if (!isRecord(body) || !Array.isArray(body.content)) return { ok: false, message: "the answer has no content blocks" };
  const texts: string[] = [];
  const toolCalls: ToolCall[] = [];
  for (const [i, b] of body.content.entries()) {
    if (!isRecord(b)) continue;
    if (b.type === "text" && typeof b.text === "string") texts.push(b.text);
    if (b.type === "tool_use") {
      if (typeof b.name !== "string") return { ok: false, message: `content block ${i + 1} is a tool_use with no name` };
      toolCalls.push({ id: typeof b.id === "string" ? b.id : `toolu_${i + 1}`, name: b.name, arguments: b.input ?? {} });
    }
  }
  const text = texts.length ? texts.join("") : null;
  const stopRaw = typeof body.stop_reason === "string" ? body.stop_reason : "";
  const stop: StopReason = STOPS[stopRaw] ?? (stopRaw ? "other" : "end");
  let structured: string | null = null;
  if (r.output) {
    const call = toolCalls.find((c) => c.name === r.output!.name);
    structured = call ? JSON.stringify(call.arguments) : null;
  }
  const usage = isRecord(body.usage) ? body.usage : {};
  return {
    ok: true,
    value: {
      text,
      toolCalls: r.output ? toolCalls.filter((c) => c.name !== r.output!.name) : toolCalls,
      stop,
      refusal: stop === "refusal" ? (text ?? "") : null,
      structured,
      usage: {
        input_tokens: count(usage.input_tokens) + count(usage.cache_read_input_tokens) + count(usage.cache_creation_input_tokens),
        output_tokens: count(usage.output_tokens),
      },
      model: typeof body.model === "string" ? body.model : null,
    },
  };
}
