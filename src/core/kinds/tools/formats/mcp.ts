// MCP tool lists: the result of tools/list, bare ({tools: [...]}), in its JSON-RPC envelope ({jsonrpc, id,
// result: {tools}}), or several pages (a list of either) merged. Effects come from annotations: readOnlyHint true
// reads; annotations without it write; no annotations at all is unknown.
import type { ToolEffect } from "../definition";
import { isObject, ToolFileError, type RawTool } from "./raw";

function pages(doc: unknown): Array<Record<string, unknown>> | null {
  const one = (p: unknown): Record<string, unknown> | null => {
    if (!isObject(p)) return null;
    if (isObject(p.result) && Array.isArray(p.result.tools)) return p.result;
    if (Array.isArray(p.tools) && p.jsonrpc === undefined) return p;
    return null;
  };
  if (Array.isArray(doc)) {
    const all = doc.map(one);
    return all.length && all.every((p) => p !== null) ? (all as Array<Record<string, unknown>>) : null;
  }
  const p = one(doc);
  return p ? [p] : null;
}

const isMcpTool = (t: unknown) => isObject(t) && typeof t.name === "string" && isObject(t.inputSchema);

export function looksLikeMcp(doc: unknown): boolean {
  const ps = pages(doc);
  return !!ps && ps.every((p) => (p.tools as unknown[]).every(isMcpTool));
}

function effectOf(annotations: unknown): { effect: ToolEffect; effectRule: string } {
  if (!isObject(annotations)) return { effect: "unknown", effectRule: "no MCP annotations" };
  if (annotations.readOnlyHint === true) return { effect: "read", effectRule: "MCP readOnlyHint: true" };
  if (annotations.readOnlyHint === false) return { effect: "write", effectRule: "MCP readOnlyHint: false" };
  if (annotations.destructiveHint !== undefined) return { effect: "write", effectRule: "MCP destructiveHint without readOnlyHint" };
  return { effect: "write", effectRule: "MCP annotations without readOnlyHint" };
}

export function readMcp(doc: unknown): RawTool[] {
  const ps = pages(doc);
  if (!ps) throw new ToolFileError("an MCP tool list is the result of tools/list ({\"tools\": [...]}), its JSON-RPC envelope, or a list of pages");
  return ps.flatMap((p) =>
    (p.tools as unknown[]).map((t, i) => {
      if (!isMcpTool(t)) throw new ToolFileError(`tool ${i + 1} has no name or no inputSchema object`);
      const tool = t as Record<string, unknown>;
      return {
        name: String(tool.name),
        description: typeof tool.description === "string" ? tool.description : typeof tool.title === "string" ? tool.title : "",
        inputSchema: tool.inputSchema,
        outputSchema: tool.outputSchema,
        ...effectOf(tool.annotations),
      };
    }),
  );
}
