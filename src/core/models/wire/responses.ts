// OpenAI Responses (POST {base}/responses): OpenAI's newer API, the one its reasoning models and features come
// to first. The conversation goes as input items (messages, function_call, function_call_output) with nothing
// stored on OpenAI's side (store: false), so each call stands alone as it does on the other APIs.
import type { ModelAnswer, ModelRequest, StopReason, ToolCall } from "../types";
import { count, DEFAULT_MAX_TOKENS, isRecord, parseJson, type Decoded } from "./common";
import { structuredOf, toolCallOf } from "./openai";

export const RESPONSES_PATH = "/responses";

function input(r: ModelRequest): unknown[] {
  const items: unknown[] = [];
  for (const m of r.messages) {
    if (m.role === "user") items.push({ role: "user", content: m.content });
    else if (m.role === "tool") items.push({ type: "function_call_output", call_id: m.toolCallId, output: m.content });
    else {
      if (m.content) items.push({ role: "assistant", content: m.content });
      for (const c of m.toolCalls ?? [])
        items.push({ type: "function_call", call_id: c.id, name: c.name, arguments: c.invalidArguments !== undefined && typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments ?? {}) });
    }
  }
  return items;
}

export function responsesBody(r: ModelRequest): Record<string, unknown> {
  const tools = (r.tools ?? []).map((t) => ({ type: "function", name: t.name, ...(t.description ? { description: t.description } : {}), parameters: t.parameters, strict: false }));
  let toolChoice: unknown = r.toolChoice === undefined ? undefined : typeof r.toolChoice === "string" ? r.toolChoice : { type: "function", name: r.toolChoice.name };
  let format: unknown;
  if (r.output) {
    if ((r.output.via ?? "response_format") === "tool") {
      tools.push({ type: "function", name: r.output.name, ...(r.output.description ? { description: r.output.description } : {}), parameters: r.output.schema, strict: true });
      toolChoice = { type: "function", name: r.output.name };
    } else format = { type: "json_schema", name: r.output.name, strict: true, schema: r.output.schema, ...(r.output.description ? { description: r.output.description } : {}) };
  }
  return {
    model: r.model.model,
    ...(r.system ? { instructions: r.system } : {}),
    input: input(r),
    ...(tools.length ? { tools } : {}),
    ...(toolChoice !== undefined ? { tool_choice: toolChoice } : {}),
    ...(format ? { text: { format } } : {}),
    max_output_tokens: r.maxTokens ?? DEFAULT_MAX_TOKENS,
    // Reasoning models take no temperature; the effort is what they take instead.
    ...(r.model.effort ? { reasoning: { effort: r.model.effort } } : { temperature: r.temperature ?? 0 }),
    store: false,
  };
}

export function responsesAnswer(r: ModelRequest, bodyText: string): Decoded<ModelAnswer> {
  const parsed = parseJson(bodyText);
  if (!parsed.ok) return { ok: false, message: `the answer is ${parsed.message}` };
  const body = parsed.value;
  if (!isRecord(body) || !Array.isArray(body.output)) return { ok: false, message: "the answer has no output items" };
  const texts: string[] = [];
  const refusals: string[] = [];
  const toolCalls: ToolCall[] = [];
  for (const [i, item] of body.output.entries()) {
    if (!isRecord(item)) continue;
    if (item.type === "message" && Array.isArray(item.content))
      for (const part of item.content) {
        if (isRecord(part) && part.type === "output_text" && typeof part.text === "string") texts.push(part.text);
        if (isRecord(part) && part.type === "refusal" && typeof part.refusal === "string") refusals.push(part.refusal);
      }
    if (item.type === "function_call") {
      if (typeof item.name !== "string") return { ok: false, message: `output item ${i + 1} is a function_call with no name` };
      toolCalls.push(toolCallOf(typeof item.call_id === "string" ? item.call_id : `call_${i + 1}`, item.name, item.arguments));
    }
  }
  const text = texts.length ? texts.join("") : null;
  const refusal = refusals.length ? refusals.join("") : null;
  const reason = isRecord(body.incomplete_details) && typeof body.incomplete_details.reason === "string" ? body.incomplete_details.reason : null;
  const stop: StopReason = refusal
    ? "refusal"
    : body.status === "incomplete"
      ? reason === "content_filter"
        ? "filter"
        : reason === "max_output_tokens"
          ? "length"
          : "other"
      : toolCalls.length
        ? "tool_calls"
        : body.status === "completed" || body.status === undefined
          ? "end"
          : "other";
  const structured = structuredOf(r, text, toolCalls);
  const usage = isRecord(body.usage) ? body.usage : {};
  return {
    ok: true,
    value: { text, toolCalls, stop, refusal, structured, usage: { input_tokens: count(usage.input_tokens), output_tokens: count(usage.output_tokens) }, model: typeof body.model === "string" ? body.model : null },
  };
}
