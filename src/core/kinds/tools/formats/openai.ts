// OpenAI tools files: Chat Completions tools ({type:"function", function:{...}}), Responses tools ({type:"function",
// name, ...}), or an object holding a `tools` list of either. The format says nothing of effects.
import { isObject, ToolFileError, type RawTool } from "./raw";

function toolsList(doc: unknown): unknown[] | null {
  if (Array.isArray(doc)) return doc;
  if (isObject(doc) && Array.isArray(doc.tools)) return doc.tools;
  return null;
}

function isOpenAiTool(t: unknown): boolean {
  if (!isObject(t) || t.type !== "function") return false;
  return isObject(t.function) ? typeof t.function.name === "string" : typeof t.name === "string";
}

export function looksLikeOpenAi(doc: unknown): boolean {
  const list = toolsList(doc);
  return !!list && list.length > 0 && list.every(isOpenAiTool);
}

export function readOpenAi(doc: unknown): RawTool[] {
  const list = toolsList(doc);
  if (!list) throw new ToolFileError("an OpenAI tools file is a JSON list of tools, or an object with a `tools` list");
  return list.map((t, i) => {
    if (!isOpenAiTool(t)) throw new ToolFileError(`tool ${i + 1} is not a function tool ({"type": "function", "function": {"name": ...}} or {"type": "function", "name": ...})`);
    const fn = (isObject((t as Record<string, unknown>).function) ? (t as Record<string, unknown>).function : t) as Record<string, unknown>;
    return {
      name: String(fn.name),
      description: typeof fn.description === "string" ? fn.description : "",
      inputSchema: fn.parameters ?? undefined,
      effect: "unknown",
      effectRule: "not stated by an OpenAI tools file",
    };
  });
}
