// What a scripted rule can match on, read off a request in any of the three APIs: the model, the last user or
// tool message, whether tools are offered and whether a structured answer is asked for.
import { isRecord } from "../wire/common";
import type { ModelApi } from "./script";

export type Wire = "openai" | "anthropic";

export interface RequestFacts {
  /** The provider whose envelope answers (openai for chat and responses). */
  wire: Wire;
  api: ModelApi;
  model: string;
  lastRole: "user" | "tool" | null;
  lastMessage: string;
  /** Tools offered, the forced structured-answer tool left out. */
  tools: string[];
  /** The structured answer asked for: via a response format, or the forced tool's name. */
  schema: { via: "response_format" | "tool"; name: string } | null;
  /** Input size in characters, for usage figures when the rule gives none. */
  inputChars: number;
}

export const textOf = (content: unknown): string => {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((p) => {
      if (!isRecord(p)) return "";
      if (typeof p.text === "string") return p.text;
      if (p.type === "tool_result") return textOf(p.content);
      return "";
    })
    .filter((s) => s !== "")
    .join("\n");
};

export function openaiFacts(body: Record<string, unknown>): RequestFacts {
  const messages = Array.isArray(body.messages) ? body.messages.filter(isRecord) : [];
  const last = [...messages].reverse().find((m) => m.role === "user" || m.role === "tool");
  const choice = body.tool_choice;
  const forced = isRecord(choice) && isRecord(choice.function) && typeof choice.function.name === "string" ? choice.function.name : null;
  const format = body.response_format;
  const rf = isRecord(format) && format.type === "json_schema" && isRecord(format.json_schema) ? String(format.json_schema.name ?? "answer") : null;
  const names = (Array.isArray(body.tools) ? body.tools : []).map((t) => (isRecord(t) && isRecord(t.function) && typeof t.function.name === "string" ? t.function.name : "")).filter(Boolean);
  // A forced tool is a structured answer only when it is the one tool offered; beside others it is an agent's choice.
  const forcedIsAnswer = forced !== null && names.length === 1 && names[0] === forced;
  return {
    wire: "openai",
    api: "chat",
    model: typeof body.model === "string" ? body.model : "",
    lastRole: last ? (last.role === "tool" ? "tool" : "user") : null,
    lastMessage: last ? textOf(last.content) : "",
    tools: forcedIsAnswer ? [] : names,
    schema: rf ? { via: "response_format", name: rf } : forcedIsAnswer ? { via: "tool", name: forced } : null,
    // Providers bill the tool definitions as input too; a usage figure without them undercounts every agent turn.
    inputChars: JSON.stringify([body.messages ?? [], body.tools ?? []]).length,
  };
}

export function anthropicFacts(body: Record<string, unknown>): RequestFacts {
  const messages = Array.isArray(body.messages) ? body.messages.filter(isRecord) : [];
  const last = [...messages].reverse().find((m) => m.role === "user");
  const blocks = last && Array.isArray(last.content) ? last.content.filter(isRecord) : [];
  const results = blocks.filter((b) => b.type === "tool_result");
  const choice = body.tool_choice;
  const forced = isRecord(choice) && choice.type === "tool" && typeof choice.name === "string" ? choice.name : null;
  const names = (Array.isArray(body.tools) ? body.tools : []).map((t) => (isRecord(t) && typeof t.name === "string" ? t.name : "")).filter(Boolean);
  const forcedIsAnswer = forced !== null && names.length === 1 && names[0] === forced;
  return {
    wire: "anthropic",
    api: "messages",
    model: typeof body.model === "string" ? body.model : "",
    lastRole: last ? (results.length ? "tool" : "user") : null,
    lastMessage: last ? (results.length ? textOf(results) : textOf(last.content)) : "",
    tools: forcedIsAnswer ? [] : names,
    schema: forcedIsAnswer ? { via: "tool", name: forced } : null,
    inputChars: JSON.stringify([body.system ?? "", body.messages ?? [], body.tools ?? []]).length,
  };
}
