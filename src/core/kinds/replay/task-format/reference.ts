// A reference run's transcript as task files write it: plain messages, Chat Completions messages (an assistant's
// `tool_calls` with JSON-text arguments, `tool` messages answering by `tool_call_id`) or Anthropic messages
// (`tool_use` blocks, `tool_result` blocks answering by `tool_use_id`). The tool calls are read out of it into the
// run's calls, and what is left is the conversation the grader reads, so the same run written in either form is
// graded the same way, and the same way as a live run (whose transcript is the person's conversation alone).
import type { z } from "zod";

export interface ReadCall {
  tool: string;
  arguments: Record<string, unknown>;
  result?: unknown;
}

export interface ReadTranscript {
  /** The conversation without the tool traffic: messages left empty by it are dropped. */
  transcript: Array<Record<string, unknown> & { role: string; content: string | unknown[] | null }>;
  calls: ReadCall[];
}

type Issue = (path: Array<string | number>, message: string) => void;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const TOOL_BLOCKS = new Set(["tool_use", "tool_result", "server_tool_use", "web_search_tool_result"]);

/** A tool's answer as it was: JSON text read back as JSON, other text kept as text, Anthropic text blocks joined. */
function resultOf(content: unknown): unknown {
  let text: unknown = content;
  if (Array.isArray(content)) {
    const texts = content.map((b) => (isObject(b) && typeof b.text === "string" ? b.text : null));
    if (texts.every((t) => t !== null)) text = texts.join("");
    else return content;
  }
  if (typeof text !== "string") return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Arguments as Chat Completions sends them (JSON text of an object) or as Anthropic does (an object). */
function argumentsOf(raw: unknown, at: Array<string | number>, issue: Issue): Record<string, unknown> | null {
  if (raw === undefined || raw === null || raw === "") return {};
  let value: unknown = raw;
  if (typeof raw === "string") {
    try {
      value = JSON.parse(raw) as unknown;
    } catch {
      issue(at, "is not JSON text of an object (Chat Completions sends a tool call's arguments as JSON text)");
      return null;
    }
  }
  if (!isObject(value)) {
    issue(at, "must be an object of arguments");
    return null;
  }
  return value;
}

export function readTranscript(messages: ReadonlyArray<{ role: string; content: string | unknown[] | null } & Record<string, unknown>>, issue: Issue): ReadTranscript {
  const calls: ReadCall[] = [];
  // Where each call's answer goes, by the id the answer names.
  const byId = new Map<string, ReadCall>();
  const answer = (id: unknown, content: unknown, at: Array<string | number>) => {
    const call = typeof id === "string" ? byId.get(id) : undefined;
    if (!call) return issue(at, `answers no tool call of an earlier message (${typeof id === "string" ? `'${id}'` : "no id"})`);
    call.result = resultOf(content);
  };
  const call = (id: unknown, name: unknown, args: unknown, at: Array<string | number>, argsAt: Array<string | number>) => {
    if (typeof name !== "string" || !name) return issue(at, "a tool call needs the tool's name");
    const parsed = argumentsOf(args, argsAt, issue);
    if (!parsed) return;
    const c: ReadCall = { tool: name, arguments: parsed };
    calls.push(c);
    if (typeof id === "string" && id) byId.set(id, c);
  };
  const transcript: ReadTranscript["transcript"] = [];
  messages.forEach((m, i) => {
    if (m.role === "tool") return answer(m.tool_call_id, m.content, [i, "tool_call_id"]);
    const { tool_calls: chatCalls, ...rest } = m;
    if (chatCalls !== undefined) {
      if (!Array.isArray(chatCalls)) issue([i, "tool_calls"], "must be a list of tool calls");
      else
        chatCalls.forEach((c, j) => {
          const fn = isObject(c) && isObject(c.function) ? c.function : null;
          if (!fn) return issue([i, "tool_calls", j], 'must be {"id", "type": "function", "function": {"name", "arguments"}}');
          call(c.id, fn.name, fn.arguments, [i, "tool_calls", j, "function", "name"], [i, "tool_calls", j, "function", "arguments"]);
        });
    }
    let content = m.content;
    if (Array.isArray(content)) {
      content.forEach((b, j) => {
        if (!isObject(b)) return;
        if (b.type === "tool_use") call(b.id, b.name, b.input, [i, "content", j, "name"], [i, "content", j, "input"]);
        else if (b.type === "tool_result") answer(b.tool_use_id, b.content, [i, "content", j, "tool_use_id"]);
      });
      content = content.filter((b) => !(isObject(b) && typeof b.type === "string" && TOOL_BLOCKS.has(b.type)));
      // One text block is the message's text, as a plain message writes it.
      if (content.length === 1 && isObject(content[0]) && content[0].type === "text" && typeof content[0].text === "string") content = content[0].text;
    }
    const empty = content === null || content === "" || (Array.isArray(content) && content.length === 0);
    if (empty && (chatCalls !== undefined || Array.isArray(m.content))) return;
    transcript.push({ ...rest, role: m.role, content });
  });
  return { transcript, calls };
}

/** A zod refinement's issue reporter at a path under the transcript. */
export function zodIssue(ctx: z.core.$RefinementCtx, base: Array<string | number>): Issue {
  return (path, message) => ctx.addIssue({ code: "custom", path: [...base, ...path], message });
}
