// OpenAI Chat Completions (POST {base}/chat/completions): the format OpenAI and most compatible servers speak.
import type { ModelAnswer, ModelRequest, StopReason, ToolCall } from "../types";
import { count, DEFAULT_MAX_TOKENS, isRecord, parseJson, type Decoded } from "./common";

export const OPENAI_PATH = "/chat/completions";

export function openaiBody(r: ModelRequest): Record<string, unknown> {
  const messages: unknown[] = [];
  if (r.system) messages.push({ role: "system", content: r.system });
  for (const m of r.messages) {
    if (m.role === "user") messages.push({ role: "user", content: m.content });
    else if (m.role === "tool") messages.push({ role: "tool", tool_call_id: m.toolCallId, content: m.content });
    else
      messages.push({
        role: "assistant",
        content: m.content,
        ...(m.toolCalls?.length
          ? { tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.invalidArguments !== undefined && typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments ?? {}) } })) }
          : {}),
      });
  }
  const tools = [...(r.tools ?? []).map((t) => ({ type: "function", function: { name: t.name, ...(t.description ? { description: t.description } : {}), parameters: t.parameters } }))];
  let toolChoice: unknown = r.toolChoice === undefined ? undefined : typeof r.toolChoice === "string" ? r.toolChoice : { type: "function", function: { name: r.toolChoice.name } };
  let responseFormat: unknown;
  if (r.output) {
    if ((r.output.via ?? "response_format") === "tool") {
      tools.push({ type: "function", function: { name: r.output.name, ...(r.output.description ? { description: r.output.description } : {}), parameters: r.output.schema } });
      toolChoice = { type: "function", function: { name: r.output.name } };
    } else {
      responseFormat = { type: "json_schema", json_schema: { name: r.output.name, strict: true, schema: r.output.schema } };
    }
  }
  return {
    model: r.model.model,
    messages,
    ...(tools.length ? { tools } : {}),
    ...(toolChoice !== undefined ? { tool_choice: toolChoice } : {}),
    ...(responseFormat ? { response_format: responseFormat } : {}),
    // Reasoning models refuse max_tokens and temperature; they take max_completion_tokens and an effort.
    ...(r.model.effort ? { max_completion_tokens: r.maxTokens ?? DEFAULT_MAX_TOKENS, reasoning_effort: r.model.effort } : { max_tokens: r.maxTokens ?? DEFAULT_MAX_TOKENS, temperature: r.temperature ?? 0 }),
    ...(r.seed !== undefined ? { seed: r.seed } : {}),
  };
}

/** A call as the OpenAI APIs send it (arguments as JSON text), its arguments parsed. */
export function toolCallOf(id: string, name: string, argumentsText: unknown): ToolCall {
  const text = typeof argumentsText === "string" ? argumentsText : "{}";
  const args = parseJson(text || "{}");
  // Broken arguments are the model's mistake on one call, not a broken answer: kept as sent, for the caller.
  return args.ok ? { id, name, arguments: args.value } : { id, name, arguments: text, invalidArguments: `the arguments are ${args.message}` };
}

/** The structured answer's text on the OpenAI APIs: the content under a response format, else the forced tool's arguments. */
export function structuredOf(r: ModelRequest, text: string | null, toolCalls: ToolCall[]): string | null {
  if (!r.output) return null;
  if ((r.output.via ?? "response_format") !== "tool") return text;
  const call = toolCalls.find((c) => c.name === r.output!.name);
  // Broken arguments stay broken text, so the structured answer fails as not JSON.
  return call ? (call.invalidArguments !== undefined && typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments)) : null;
}

const STOPS: Record<string, StopReason> = { stop: "end", tool_calls: "tool_calls", function_call: "tool_calls", length: "length", content_filter: "filter" };

export function openaiAnswer(r: ModelRequest, bodyText: string): Decoded<ModelAnswer> {
  const parsed = parseJson(bodyText);
  if (!parsed.ok) return { ok: false, message: `the answer is ${parsed.message}` };
  const body = parsed.value;
  if (!isRecord(body) || !Array.isArray(body.choices) || body.choices.length === 0) return { ok: false, message: "the answer has no choices" };
  const choice = body.choices[0];
  if (!isRecord(choice) || !isRecord(choice.message)) return { ok: false, message: "the answer's first choice has no message" };
  const msg = choice.message;
  const text = typeof msg.content === "string" ? msg.content : Array.isArray(msg.content) ? msg.content.map((p) => (isRecord(p) && typeof p.text === "string" ? p.text : "")).join("") : null;
  const toolCalls: ToolCall[] = [];
  for (const [i, c] of (Array.isArray(msg.tool_calls) ? msg.tool_calls : []).entries()) {
    if (!isRecord(c) || !isRecord(c.function) || typeof c.function.name !== "string") return { ok: false, message: `tool call ${i + 1} has no function name` };
    toolCalls.push(toolCallOf(typeof c.id === "string" ? c.id : `call_${i + 1}`, c.function.name, c.function.arguments));
  }
  const refusal = typeof msg.refusal === "string" && msg.refusal ? msg.refusal : null;
  const finish = typeof choice.finish_reason === "string" ? choice.finish_reason : "";
  const stop: StopReason = refusal ? "refusal" : (STOPS[finish] ?? (toolCalls.length ? "tool_calls" : finish ? "other" : "end"));
  const structured = structuredOf(r, text, toolCalls);
  const usage = isRecord(body.usage) ? body.usage : {};
  return {
    ok: true,
    value: {
      text,
      toolCalls,
      stop,
      refusal,
      structured,
      usage: { input_tokens: count(usage.prompt_tokens), output_tokens: count(usage.completion_tokens) },
      model: typeof body.model === "string" ? body.model : null,
    },
  };
}
