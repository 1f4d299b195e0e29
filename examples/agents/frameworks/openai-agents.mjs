#!/usr/bin/env node
// A billing support agent on the OpenAI Agents SDK, with the world's MCP endpoint as an MCPServerStreamableHttp
// and the openai client, which reads OPENAI_BASE_URL. Default: the Responses API; AGENT_API=chat switches the SDK
// to Chat Completions (setOpenAIAPI); AGENT_STREAM=1 runs streamed. Tracing is off: it would upload every run.
//   OPENAI_BASE_URL=http://127.0.0.1:PORT/v1 npx worlds passk --tasks examples/agents/selftest.tasks.yaml \
//     --server auto -- node examples/agents/frameworks/openai-agents.mjs
import { Agent, MCPServerStreamableHttp, run, setDefaultOpenAIClient, setOpenAIAPI, setTracingDisabled } from "@openai/agents";
import OpenAI from "openai";
import { MAX_TURNS, settings, SYSTEM, ticketPrompt, workTickets } from "./common.mjs";

const s = settings("openai-agents.mjs", "responses");
setTracingDisabled(true);
setDefaultOpenAIClient(new OpenAI({ apiKey: s.apiKey }));
setOpenAIAPI(s.api === "chat" ? "chat_completions" : "responses");
const world = new MCPServerStreamableHttp({ name: "world", url: s.mcp.url, requestInit: { headers: s.mcp.headers } });
await world.connect();
try {
  const agent = new Agent({ name: "Billing support", instructions: SYSTEM, model: s.model, mcpServers: [world], modelSettings: { temperature: 0 } });
  await workTickets(async (ticket) => {
    if (!s.stream) return (await run(agent, ticketPrompt(ticket), { maxTurns: MAX_TURNS })).finalOutput;
    const streamed = await run(agent, ticketPrompt(ticket), { maxTurns: MAX_TURNS, stream: true });
    await streamed.completed;
    if (streamed.error) throw streamed.error;
    return streamed.finalOutput;
  });
} finally {
  await world.close();
}
