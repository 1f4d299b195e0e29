// OpenAI Responses (POST /v1/responses): the request read into the same facts the other APIs give (input as a
// string or items, instructions, function tools, text.format json_schema, reasoning.effort), the reply as
// `output` items (a message with output_text, function_call items with call_id) whole or as the Responses
// event stream, and previous_response_id served from what this server answered while it runs.
import { isRecord } from "../wire/common";
import { errorResponse, json, pieces, sseEvent, streamResponse, type ScriptedResponse } from "./answer";
import { typeName } from "./chat";
import { argumentsText, type Reply } from "./reply";
import { textOf, type RequestFacts } from "./request";

const INPUT_ITEM_TYPES = ["message", "function_call", "function_call_output", "reasoning"] as const;
const EFFORTS = ["none", "minimal", "low", "medium", "high", "xhigh"] as const;
const ROLES = ["user", "assistant", "system", "developer"] as const;
/** Responses kept for previous_response_id; the oldest go first. */
const MAX_REMEMBERED = 1_000;
/** Items one conversation may hold, previous responses included. */
const MAX_ITEMS = 10_000;

type Item = Record<string, unknown>;

export interface ResponsesRequest {
  facts: RequestFacts;
  /** The conversation so far: earlier responses' input and output, then this request's input. */
  items: Item[];
  stream: boolean;
  store: boolean;
  effort: string | null;
  echo: Record<string, unknown>;
}

/** What previous_response_id can refer to: each stored response's whole conversation, its output included. */
export class ResponseMemory {
  private kept = new Map<string, Item[]>();

  get(id: string): Item[] | undefined {
    return this.kept.get(id);
  }

  put(id: string, items: Item[]): void {
    this.kept.set(id, items);
    if (this.kept.size > MAX_REMEMBERED) this.kept.delete(this.kept.keys().next().value as string);
  }

  clear(): void {
    this.kept.clear();
  }
}

const bad = (message: string, param: string | undefined, code?: string): { ok: false; error: ScriptedResponse } => ({ ok: false, error: errorResponse("openai", 400, message, { param, code }) });

/** Checks the request as the API does (types, item types, call ids, the previous response) and reads its facts. */
export function readResponsesRequest(body: Record<string, unknown>, memory: ResponseMemory): { ok: true; request: ResponsesRequest } | { ok: false; error: ScriptedResponse } {
  if (typeof body.model !== "string" || !body.model) return bad("Missing required parameter: 'model'.", "model", "missing_required_parameter");
  for (const k of ["stream", "store"] as const)
    if (body[k] !== undefined && body[k] !== null && typeof body[k] !== "boolean") return bad(`Invalid type for '${k}': expected a boolean, but got ${typeName(body[k])} instead.`, k, "invalid_type");
  const stream = body.stream === true;
  const so = body.stream_options;
  if (so !== undefined && so !== null) {
    if (!isRecord(so)) return bad(`Invalid type for 'stream_options': expected an object, but got ${typeName(so)} instead.`, "stream_options", "invalid_type");
    if (!stream) return bad("The 'stream_options' parameter is only allowed when 'stream' is enabled.", "stream_options");
  }
  if (body.instructions !== undefined && body.instructions !== null && typeof body.instructions !== "string")
    return bad(`Invalid type for 'instructions': expected a string, but got ${typeName(body.instructions)} instead.`, "instructions", "invalid_type");
  let effort: string | null = null;
  if (body.reasoning !== undefined && body.reasoning !== null) {
    if (!isRecord(body.reasoning)) return bad(`Invalid type for 'reasoning': expected an object, but got ${typeName(body.reasoning)} instead.`, "reasoning", "invalid_type");
    const e = body.reasoning.effort;
    if (e !== undefined && e !== null) {
      if (typeof e !== "string" || !(EFFORTS as readonly string[]).includes(e)) return bad(`Invalid value: '${String(e)}'. Supported values are: ${EFFORTS.map((x) => `'${x}'`).join(", ")}.`, "reasoning.effort", "invalid_value");
      effort = e;
    }
  }

  let items: Item[] = [];
  const prev = body.previous_response_id;
  if (prev !== undefined && prev !== null) {
    const kept = typeof prev === "string" ? memory.get(prev) : undefined;
    if (!kept) return bad(`Previous response with id '${String(prev)}' not found.`, "previous_response_id", "previous_response_not_found");
    items = [...kept];
  }
  const input = body.input;
  let given: unknown[];
  if (typeof input === "string") given = [{ type: "message", role: "user", content: input }];
  else if (Array.isArray(input)) given = input;
  else if (input === undefined || input === null) {
    if (!items.length) return bad("Missing required parameter: 'input'.", "input", "missing_required_parameter");
    given = [];
  } else return bad(`Invalid type for 'input': expected a string or an array of input items, but got ${typeName(input)} instead.`, "input", "invalid_type");
  if (items.length + given.length > MAX_ITEMS) return bad(`The conversation has more than ${MAX_ITEMS} items.`, "input");

  const issued = new Set(items.filter((i) => i.type === "function_call").map((i) => String(i.call_id)));
  for (const [i, raw] of given.entries()) {
    const at = `input[${i}]`;
    if (!isRecord(raw)) return bad(`Invalid type for '${at}': expected an input item object, but got ${typeName(raw)} instead.`, at, "invalid_type");
    const type = raw.type ?? (raw.role !== undefined ? "message" : undefined);
    if (typeof type !== "string" || !(INPUT_ITEM_TYPES as readonly string[]).includes(type))
      return bad(`Invalid value: '${String(type)}'. Supported values are: ${INPUT_ITEM_TYPES.map((x) => `'${x}'`).join(", ")}.`, `${at}.type`, "invalid_value");
    if (type === "message") {
      if (typeof raw.role !== "string" || !(ROLES as readonly string[]).includes(raw.role)) return bad(`Invalid value: '${String(raw.role)}'. Supported values are: ${ROLES.map((x) => `'${x}'`).join(", ")}.`, `${at}.role`, "invalid_value");
      if (typeof raw.content !== "string" && !Array.isArray(raw.content)) return bad(`Invalid type for '${at}.content': expected a string or an array of content parts, but got ${typeName(raw.content)} instead.`, `${at}.content`, "invalid_type");
      items.push({ type, role: raw.role, content: raw.content });
    } else if (type === "function_call") {
      for (const k of ["call_id", "name", "arguments"] as const)
        if (typeof raw[k] !== "string") return bad(`Invalid type for '${at}.${k}': expected a string, but got ${typeName(raw[k])} instead.`, `${at}.${k}`, "invalid_type");
      issued.add(raw.call_id as string);
      items.push({ type, call_id: raw.call_id, name: raw.name, arguments: raw.arguments });
    } else if (type === "function_call_output") {
      if (typeof raw.call_id !== "string") return bad(`Invalid type for '${at}.call_id': expected a string, but got ${typeName(raw.call_id)} instead.`, `${at}.call_id`, "invalid_type");
      if (!issued.has(raw.call_id)) return bad(`No tool call found for function call output with call_id ${raw.call_id}.`, "input");
      if (typeof raw.output !== "string" && !Array.isArray(raw.output)) return bad(`Invalid type for '${at}.output': expected a string or an array of content parts, but got ${typeName(raw.output)} instead.`, `${at}.output`, "invalid_type");
      items.push({ type, call_id: raw.call_id, output: raw.output });
    }
    // reasoning items carry nothing a rule reads.
  }

  const tools = body.tools ?? [];
  if (!Array.isArray(tools)) return bad(`Invalid type for 'tools': expected an array, but got ${typeName(tools)} instead.`, "tools", "invalid_type");
  const names = tools.map((t) => (isRecord(t) && t.type === "function" && typeof t.name === "string" ? t.name : "")).filter(Boolean);
  const choice = body.tool_choice;
  const forced = isRecord(choice) && choice.type === "function" && typeof choice.name === "string" ? choice.name : null;
  const forcedIsAnswer = forced !== null && names.length === 1 && names[0] === forced;
  const format = isRecord(body.text) && isRecord(body.text.format) ? body.text.format : null;
  const formatName = format && format.type === "json_schema" ? String(format.name ?? "answer") : null;

  const last = [...items].reverse().find((i) => (i.type === "message" && i.role === "user") || i.type === "function_call_output");
  const facts: RequestFacts = {
    wire: "openai",
    api: "responses",
    model: body.model,
    lastRole: last ? (last.type === "function_call_output" ? "tool" : "user") : null,
    lastMessage: last ? textOf(last.type === "function_call_output" ? last.output : last.content) : "",
    tools: forcedIsAnswer ? [] : names,
    schema: formatName ? { via: "response_format", name: formatName } : forcedIsAnswer ? { via: "tool", name: forced } : null,
    inputChars: JSON.stringify([body.instructions ?? "", items, tools]).length,
  };
  const echo = {
    instructions: body.instructions ?? null,
    max_output_tokens: typeof body.max_output_tokens === "number" ? body.max_output_tokens : null,
    previous_response_id: typeof prev === "string" ? prev : null,
    reasoning: { effort, summary: null },
    store: body.store !== false,
    temperature: typeof body.temperature === "number" ? body.temperature : 1,
    text: { format: format ?? { type: "text" }, verbosity: "medium" },
    tool_choice: choice ?? "auto",
    tools,
    top_p: typeof body.top_p === "number" ? body.top_p : 1,
  };
  return { ok: true, request: { facts, items, stream, store: body.store !== false, effort, echo } };
}

export const responseId = (n: number | string) => `resp_scripted_${typeof n === "number" ? String(n).padStart(6, "0") : n}`;

/** The output items, in their final (completed or incomplete) state. */
function outputItems(r: Reply): Item[] {
  const out: Item[] = [];
  const status = r.truncated ? "incomplete" : "completed";
  if (r.text !== null || r.refusal !== null) {
    const part = r.refusal !== null ? { type: "refusal", refusal: r.refusal } : { type: "output_text", text: r.text, annotations: [], logprobs: [] };
    out.push({ id: `msg_scripted_${r.id}`, type: "message", status, role: "assistant", content: [part] });
  }
  r.calls.forEach((c, i) => out.push({ id: `fc_scripted_${r.id}_${i + 1}`, type: "function_call", status: "completed", arguments: argumentsText(c), call_id: `call_scripted_${r.id}_${i + 1}`, name: c.name }));
  return out;
}

function responseObject(id: string, req: ResponsesRequest, status: string, output: Item[], r: Reply | null): Record<string, unknown> {
  return {
    id,
    object: "response",
    created_at: 0,
    status,
    background: false,
    error: null,
    incomplete_details: status === "incomplete" ? { reason: "max_output_tokens" } : null,
    model: req.facts.model,
    output,
    parallel_tool_calls: true,
    ...req.echo,
    truncation: "disabled",
    usage: r
      ? { input_tokens: r.usage.input_tokens, input_tokens_details: { cached_tokens: 0 }, output_tokens: r.usage.output_tokens, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: r.usage.input_tokens + r.usage.output_tokens }
      : null,
    user: null,
    metadata: {},
  };
}

/** Remembers a stored response's conversation for a later previous_response_id. */
function remember(memory: ResponseMemory, req: ResponsesRequest, id: string, output: Item[]): void {
  if (req.store) memory.put(id, [...req.items, ...output]);
}

export function responsesAnswer(r: Reply, req: ResponsesRequest, memory: ResponseMemory): ScriptedResponse {
  const id = responseId(r.id);
  const output = outputItems(r);
  remember(memory, req, id, output);
  return json(200, responseObject(id, req, r.truncated ? "incomplete" : "completed", output, r));
}

function streamOpening(id: string, req: ResponsesRequest): { events: string[]; seq: () => number } {
  let n = 0;
  const seq = () => n++;
  const created = responseObject(id, req, "in_progress", [], null);
  return { events: [sseEvent({ type: "response.created", sequence_number: seq(), response: created }, "response.created"), sseEvent({ type: "response.in_progress", sequence_number: seq(), response: created }, "response.in_progress")], seq };
}

/** response.created and in_progress alone: what a hanging rule sends before it stops. */
export function responsesStreamOpening(req: ResponsesRequest, n: number, latencyMs: number): ScriptedResponse {
  return streamResponse(streamOpening(responseId(n), req).events, latencyMs, true);
}

export function responsesStream(r: Reply, req: ResponsesRequest, memory: ResponseMemory, latencyMs: number): ScriptedResponse {
  const id = responseId(r.id);
  const output = outputItems(r);
  const { events, seq } = streamOpening(id, req);
  const ev = (type: string, fields: Record<string, unknown>) => events.push(sseEvent({ type, sequence_number: seq(), ...fields }, type));
  output.forEach((item, output_index) => {
    const item_id = item.id;
    if (item.type === "message") {
      ev("response.output_item.added", { output_index, item: { ...item, status: "in_progress", content: [] } });
      const part = (item.content as Item[])[0];
      const content_index = 0;
      if (part.type === "refusal") {
        ev("response.content_part.added", { item_id, output_index, content_index, part: { type: "refusal", refusal: "" } });
        for (const delta of pieces(String(part.refusal))) ev("response.refusal.delta", { item_id, output_index, content_index, delta });
        ev("response.refusal.done", { item_id, output_index, content_index, refusal: part.refusal });
      } else {
        ev("response.content_part.added", { item_id, output_index, content_index, part: { type: "output_text", text: "", annotations: [], logprobs: [] } });
        for (const delta of pieces(String(part.text))) ev("response.output_text.delta", { item_id, output_index, content_index, delta, logprobs: [] });
        ev("response.output_text.done", { item_id, output_index, content_index, text: part.text, logprobs: [] });
      }
      ev("response.content_part.done", { item_id, output_index, content_index, part });
    } else {
      ev("response.output_item.added", { output_index, item: { ...item, status: "in_progress", arguments: "" } });
      for (const delta of pieces(String(item.arguments), 16)) ev("response.function_call_arguments.delta", { item_id, output_index, delta });
      ev("response.function_call_arguments.done", { item_id, output_index, name: item.name, arguments: item.arguments });
    }
    ev("response.output_item.done", { output_index, item });
  });
  const status = r.truncated ? "incomplete" : "completed";
  ev(`response.${status}`, { response: responseObject(id, req, status, output, r) });
  remember(memory, req, id, output);
  return streamResponse(events, latencyMs);
}
