#!/usr/bin/env node
// A billing support agent on the official openai SDK alone: its own tool loop, the world's tools from its MCP
// endpoint (common.mjs), and the client, which reads OPENAI_BASE_URL. Default: the Responses API; AGENT_API=chat
// uses Chat Completions; AGENT_STREAM=1 streams through the SDK's helpers (responses.stream,
// chat.completions.stream) and takes the message they accumulate.
//   OPENAI_BASE_URL=http://127.0.0.1:PORT/v1 npx worlds passk --tasks examples/agents/selftest.tasks.yaml \
//     --server auto -- node examples/agents/frameworks/openai-sdk.mjs
import OpenAI from "openai";
import { MAX_TURNS, settings, SYSTEM, ticketPrompt, workTickets, worldTools } from "./common.mjs";

const s = settings("openai-sdk.mjs", "responses");
const openai = new OpenAI({ apiKey: s.apiKey });
const world = await worldTools("openai-sdk.mjs");
try {
  const work = s.api === "chat" ? overChat : overResponses;
  await workTickets((ticket) => work(ticketPrompt(ticket)));
} finally {
  await world.close();
}

/** The reply after the model stops calling tools; empty when it is still calling them after MAX_TURNS. */
async function overChat(prompt) {
  const tools = world.tools.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.inputSchema } }));
  const messages = [
    { role: "system", content: SYSTEM },
    { role: "user", content: prompt },
  ];
  for (let turn = 0; turn < MAX_TURNS; turn++) {
    const request = { model: s.model, messages, tools, temperature: 0 };
    const completion = s.stream ? await openai.chat.completions.stream(request).finalChatCompletion() : await openai.chat.completions.create(request);
    const message = completion.choices[0]?.message;
    if (!message) return "";
    const calls = (message.tool_calls ?? []).filter((c) => c.type === "function");
    if (!calls.length) return message.content ?? "";
    // Only the fields the API takes back: the stream helper adds parsed ones of its own.
    messages.push({ role: "assistant", content: message.content, tool_calls: calls.map(({ id, type, function: f }) => ({ id, type, function: { name: f.name, arguments: f.arguments } })) });
    for (const call of calls) {
      const result = await world.call(call.function.name, call.function.arguments);
      messages.push({ role: "tool", tool_call_id: call.id, content: result.text });
    }
  }
  return "";
}

async function overResponses(prompt) {
  const tools = world.tools.map((t) => ({ type: "function", name: t.name, description: t.description, parameters: t.inputSchema, strict: false }));
  // store: false keeps nothing on the provider's side, so every turn sends the whole conversation as items.
  const input = [{ role: "user", content: prompt }];
  for (let turn = 0; turn < MAX_TURNS; turn++) {
    const request = { model: s.model, instructions: SYSTEM, input, tools, temperature: 0, store: false };
    const response = s.stream ? await openai.responses.stream(request).finalResponse() : await openai.responses.create(request);
    const calls = response.output.filter((item) => item.type === "function_call");
    if (!calls.length) return response.output_text;
    input.push(...response.output);
    for (const call of calls) {
      const result = await world.call(call.name, call.arguments);
      input.push({ type: "function_call_output", call_id: call.call_id, output: result.text });
    }
  }
  return "";
}
