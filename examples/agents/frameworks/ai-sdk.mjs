#!/usr/bin/env node
// A billing support agent on the Vercel AI SDK, with the world's tools from its MCP endpoint (@ai-sdk/mcp) and
// the model from @ai-sdk/openai, which reads OPENAI_BASE_URL. Default: the Responses API (`openai(model)`);
// AGENT_API=chat uses Chat Completions (`openai.chat(model)`); AGENT_STREAM=1 uses streamText.
//   OPENAI_BASE_URL=http://127.0.0.1:PORT/v1 npx worlds passk --tasks examples/agents/selftest.tasks.yaml \
//     --server auto -- node examples/agents/frameworks/ai-sdk.mjs
import { createMCPClient } from "@ai-sdk/mcp";
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, stepCountIs, streamText } from "ai";
import { MAX_TURNS, settings, SYSTEM, ticketPrompt, workTickets } from "./common.mjs";

const s = settings("ai-sdk.mjs", "responses");
const openai = createOpenAI({ apiKey: s.apiKey });
const model = s.api === "chat" ? openai.chat(s.model) : openai(s.model);
const mcp = await createMCPClient({ transport: { type: "http", url: s.mcp.url, headers: s.mcp.headers } });
try {
  const tools = await mcp.tools();
  await workTickets(async (ticket) => {
    const request = { model, system: SYSTEM, prompt: ticketPrompt(ticket), tools, stopWhen: stepCountIs(MAX_TURNS), temperature: 0 };
    if (!s.stream) return (await generateText(request)).text;
    let failure;
    const streamed = streamText({ ...request, onError: ({ error }) => (failure = error) });
    const text = await streamed.text;
    if (failure) throw failure;
    return text;
  });
} finally {
  await mcp.close();
}
