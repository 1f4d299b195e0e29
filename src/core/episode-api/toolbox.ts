// The toolbox runTask hands an agent: the world's tools from its JSON surface (GET <tools_url>/list, POST
// <tools_url>/call, the world key as Bearer), listed once, in either provider's shape. A call answers what the
// tool answered: its result, or its failure as {error: {code, message}} for the agent to read and recover from.
import { z } from "zod";
import { jsonOrUndefined } from "../util/json-or-undefined";
import type { EpisodeFetch, Toolbox, ToolboxOpenAiTool } from "./shapes";

const listAnswer = z.object({
  tools: z.array(z.object({ type: z.literal("function"), function: z.object({ name: z.string().min(1), description: z.string().optional(), parameters: z.record(z.string(), z.unknown()).optional() }) })),
});

export class EpisodeClientError extends Error {
  constructor(
    readonly status: number | null,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "EpisodeClientError";
  }
}

export async function openToolbox(toolsUrl: string, key: string, fetcher: EpisodeFetch): Promise<Toolbox> {
  const base = toolsUrl.replace(/\/+$/, "");
  const headers = { authorization: `Bearer ${key}`, accept: "application/json" };
  const res = await fetcher(`${base}/list?format=openai`, { headers });
  const text = await res.text();
  const listed = listAnswer.safeParse(jsonOrUndefined(text));
  if (!res.ok || !listed.success) throw new EpisodeClientError(res.status, "tools_unavailable", `the world's tool list answered HTTP ${res.status}: ${text.slice(0, 200)}`);
  const openai: ToolboxOpenAiTool[] = listed.data.tools.map((t) => ({ type: "function", function: { name: t.function.name, ...(t.function.description ? { description: t.function.description } : {}), parameters: t.function.parameters ?? { type: "object", properties: {} } } }));
  return {
    openai_tools: () => structuredClone(openai),
    anthropic_tools: () => openai.map((t) => ({ name: t.function.name, ...(t.function.description ? { description: t.function.description } : {}), input_schema: structuredClone(t.function.parameters) })),
    async call(name, args = {}) {
      let answer: Response;
      try {
        answer = await fetcher(`${base}/call`, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify({ name, arguments: args }) });
      } catch (e) {
        return { error: { code: "unavailable", message: `the tool could not be reached: ${(e as Error).message}` } };
      }
      const body = await answer.text();
      const json = jsonOrUndefined(body);
      return json === undefined ? { error: { code: "unavailable", message: `the tool answered HTTP ${answer.status} with no result` } } : json;
    },
  };
}
