// The built-in model agent's hands: a world's plain JSON tool surface (GET <tools_url>/list?format=openai, POST
// <tools_url>/call), the world key as Bearer, exactly what a process agent gets at WORLDS_TOOLS_URL. Fetch only,
// so the same loop can run in the Worker. Every answer is read through zod: the world is trusted to be right, not
// to be reachable, and a proxy's HTML page must not become a tool result the model believes.
import { z } from "zod";
import { jsonOrUndefined } from "../util/json-or-undefined";
import type { ToolSpec } from "../models/index";
import { TOOL_ERROR_STATUS, type ToolErrorCode } from "../kinds/tools/definition";

const listAnswer = z.object({
  tools: z.array(
    z.object({
      type: z.literal("function"),
      function: z.object({ name: z.string().min(1), description: z.string().optional(), parameters: z.record(z.string(), z.unknown()).optional() }),
    }),
  ),
});

const errorAnswer = z.object({ error: z.object({ code: z.string().min(1), message: z.string() }) });

/** A tool's answer as the model is shown it: the result's JSON text, or `code: message` for a failure. */
export type ToolAnswer = { ok: true; status: number; text: string } | { ok: false; status: number | null; code: string; text: string };

export interface ToolSurface {
  list(signal?: AbortSignal): Promise<{ ok: true; tools: ToolSpec[] } | { ok: false; message: string }>;
  /** `args` goes as given: an object, or the model's own text when it was not JSON (the world refuses it in its words). */
  call(name: string, args: unknown, signal?: AbortSignal): Promise<ToolAnswer>;
}

/** A tool result longer than this is cut for the model: it is context, and a flood must not eat the budget. */
export const TOOL_TEXT_LIMIT = 32 * 1024;

export function jsonToolSurface(toolsUrl: string, key: string, fetcher: typeof fetch = (i, n) => fetch(i, n)): ToolSurface {
  const base = toolsUrl.replace(/\/+$/, "");
  const headers = { authorization: `Bearer ${key}`, accept: "application/json" };
  return {
    async list(signal) {
      let res: Response;
      try {
        res = await fetcher(`${base}/list?format=openai`, { headers, signal });
      } catch (e) {
        return { ok: false, message: `could not reach the world's tools at ${base}: ${(e as Error).message}` };
      }
      const text = await res.text().catch(() => "");
      const parsed = listAnswer.safeParse(jsonOrUndefined(text));
      if (res.status !== 200 || !parsed.success) return { ok: false, message: `the world's tool list answered HTTP ${res.status}${res.status === 200 ? " with no tool list" : `: ${cut(text, 200)}`}` };
      return { ok: true, tools: parsed.data.tools.map((t) => ({ name: t.function.name, ...(t.function.description ? { description: t.function.description } : {}), parameters: t.function.parameters ?? { type: "object", properties: {} } })) };
    },
    async call(name, args, signal) {
      let res: Response;
      try {
        res = await fetcher(`${base}/call`, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify({ name, arguments: args }), signal });
      } catch (e) {
        return { ok: false, status: null, code: "unavailable", text: `unavailable: the tool could not be reached (${(e as Error).message})` };
      }
      const text = await res.text().catch(() => "");
      const json = jsonOrUndefined(text);
      if (res.ok && json !== undefined) return { ok: true, status: res.status, text: cut(JSON.stringify(json), TOOL_TEXT_LIMIT) };
      const err = errorAnswer.safeParse(json);
      if (err.success) return { ok: false, status: res.status, code: err.data.error.code, text: cut(`${err.data.error.code}: ${err.data.error.message}`, TOOL_TEXT_LIMIT) };
      // A tools world on an OpenAPI or MCP set fails in that format's idiom: the model reads the body as sent.
      if (json !== undefined && json !== null && typeof json === "object") return { ok: false, status: res.status, code: codeOfStatus(res.status), text: cut(JSON.stringify(json), TOOL_TEXT_LIMIT) };
      return { ok: false, status: res.status, code: "unavailable", text: `unavailable: the tool answered HTTP ${res.status} with no result` };
    },
  };
}

const codeOfStatus = (status: number): ToolErrorCode | "unavailable" => (Object.keys(TOOL_ERROR_STATUS) as ToolErrorCode[]).find((c) => TOOL_ERROR_STATUS[c] === status) ?? "unavailable";

function cut(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n)}… (cut at ${n} characters)` : s;
}
