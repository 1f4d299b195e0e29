#!/usr/bin/env node
// A billing support agent on the official @anthropic-ai/sdk alone: its own tool loop over Messages, the world's
// tools from its MCP endpoint (common.mjs), and the client, which reads ANTHROPIC_BASE_URL (no /v1). AGENT_STREAM=1
// streams through messages.stream(...) and takes the message it accumulates (finalMessage).
//   ANTHROPIC_BASE_URL=http://127.0.0.1:PORT npx worlds passk --tasks examples/agents/selftest.tasks.yaml \
//     --server auto -- node examples/agents/frameworks/anthropic-sdk.mjs
import Anthropic from "@anthropic-ai/sdk";
import { MAX_TURNS, settings, SYSTEM, ticketPrompt, workTickets, worldTools } from "./common.mjs";

const s = settings("anthropic-sdk.mjs", "messages", "anthropic");
const anthropic = new Anthropic({ apiKey: s.apiKey });
const world = await worldTools("anthropic-sdk.mjs");
try {
  const tools = world.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema }));
  await workTickets(async (ticket) => {
    const messages = [{ role: "user", content: ticketPrompt(ticket) }];
    for (let turn = 0; turn < MAX_TURNS; turn++) {
      const request = { model: s.model, max_tokens: 1024, system: SYSTEM, messages, tools, temperature: 0 };
      const message = s.stream ? await anthropic.messages.stream(request).finalMessage() : await anthropic.messages.create(request);
      const uses = message.content.filter((b) => b.type === "tool_use");
      if (!uses.length) return message.content.filter((b) => b.type === "text").map((b) => b.text).join("\n");
      messages.push({ role: "assistant", content: message.content });
      // Every tool_use answered in one user turn, in the order asked: what Messages requires.
      const results = [];
      for (const use of uses) {
        const result = await world.call(use.name, use.input);
        results.push({ type: "tool_result", tool_use_id: use.id, content: result.text, ...(result.isError ? { is_error: true } : {}) });
      }
      messages.push({ role: "user", content: results });
    }
    return "";
  });
} finally {
  await world.close();
}
