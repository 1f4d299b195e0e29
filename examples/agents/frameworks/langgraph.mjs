#!/usr/bin/env node
// A billing support agent on LangGraph.js: createReactAgent with the world's tools from its MCP endpoint
// (@langchain/mcp-adapters) and ChatOpenAI, which reads OPENAI_BASE_URL (or OPENAI_API_BASE). Default: Chat
// Completions; AGENT_API=responses sets useResponsesApi; AGENT_STREAM=1 streams the model's answers.
//   OPENAI_BASE_URL=http://127.0.0.1:PORT/v1 npx worlds passk --tasks examples/agents/selftest.tasks.yaml \
//     --server auto -- node examples/agents/frameworks/langgraph.mjs
import { createReactAgent } from "@langchain/langgraph/prebuilt";
import { MultiServerMCPClient } from "@langchain/mcp-adapters";
import { ChatOpenAI } from "@langchain/openai";
import { MAX_TURNS, settings, SYSTEM, ticketPrompt, workTickets } from "./common.mjs";

const s = settings("langgraph.mjs", "chat");
const mcp = new MultiServerMCPClient({ mcpServers: { world: { transport: "http", url: s.mcp.url, headers: s.mcp.headers } }, throwOnLoadError: true });
try {
  const tools = await mcp.getTools();
  const llm = new ChatOpenAI({ model: s.model, apiKey: s.apiKey, temperature: 0, streaming: s.stream, useResponsesApi: s.api === "responses" });
  const agent = createReactAgent({ llm, tools, prompt: SYSTEM });
  await workTickets(async (ticket) => {
    const input = { messages: [{ role: "user", content: ticketPrompt(ticket) }] };
    // Each turn is a model step and a tool step in the graph.
    const config = { recursionLimit: 2 * MAX_TURNS + 1 };
    let state;
    if (!s.stream) state = await agent.invoke(input, config);
    else {
      // Streamed as a LangGraph app streams to its UI: the model's tokens as they come ("messages"), the graph's
      // state after each step ("values"). (A bare invoke of a streaming ChatOpenAI over Chat Completions counts
      // tokens with ranks fetched from tiktoken.pages.dev, which stalls for minutes on a machine with no network.)
      for await (const [kind, chunk] of await agent.stream(input, { ...config, streamMode: ["messages", "values"] })) if (kind === "values") state = chunk;
    }
    const last = state.messages.at(-1);
    return typeof last?.content === "string" ? last.content : (last?.content ?? []).map((part) => part.text ?? "").join("");
  });
} finally {
  await mcp.close();
}
