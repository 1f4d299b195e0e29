// What the framework agents share: the settings they read from the environment worlds gives (docs/agent-contract.md)
// and from the two knobs below, the world's MCP endpoint, the prompt, and working the tickets. Each framework
// reads OPENAI_BASE_URL itself; nothing here talks to a model.
//   AGENT_API     responses | chat   which OpenAI API the framework's model client speaks (default: the framework's)
//   AGENT_STREAM  1                  stream the model's answers
//   OPENAI_MODEL                     default gpt-4.1-mini
import { answer, workload } from "../lib/world.mjs";

export const SYSTEM =
  "You are a billing support agent. Use the tools to look things up before acting. Only change what the customer asks for, " +
  "on the customer who wrote in; when the account or the request is ambiguous, change nothing and say a colleague will follow up. " +
  "Never claim an action you did not take. Finish with the reply to the customer as plain text.";

/** The agent's settings, or an exit with what to set. `defaultApi` is the API the framework speaks unless told. */
export function settings(agent, defaultApi) {
  const env = process.env;
  const fail = (message) => {
    process.stderr.write(`${agent}: ${message}\n`);
    process.exit(2);
  };
  // A local OpenAI-compatible server (the scripted model, Ollama, vLLM) needs no key; api.openai.com does. The
  // frameworks insist on one, so a local server gets a placeholder that never leaves this process's requests.
  if (!env.OPENAI_API_KEY && !env.OPENAI_BASE_URL) fail("set OPENAI_API_KEY, or OPENAI_BASE_URL for a local OpenAI-compatible server.");
  if (!env.WORLDS_MCP_URL || !env.WORLDS_TOOLS_KEY) fail("WORLDS_MCP_URL and WORLDS_TOOLS_KEY are unset: run me under worlds (worlds passk ... -- node " + agent + ").");
  const api = env.AGENT_API || defaultApi;
  if (api !== "responses" && api !== "chat") fail(`AGENT_API must be responses or chat (got ${JSON.stringify(api)}).`);
  if (env.AGENT_STREAM && env.AGENT_STREAM !== "1" && env.AGENT_STREAM !== "0") fail(`AGENT_STREAM must be 1 or 0 (got ${JSON.stringify(env.AGENT_STREAM)}).`);
  return {
    api,
    stream: env.AGENT_STREAM === "1",
    model: env.OPENAI_MODEL || "gpt-4.1-mini",
    apiKey: env.OPENAI_API_KEY || "local-server-needs-no-key",
    mcp: { url: env.WORLDS_MCP_URL, headers: { authorization: `Bearer ${env.WORLDS_TOOLS_KEY}` } },
  };
}

export const MAX_TURNS = 12;

export function ticketPrompt(ticket) {
  return `Ticket from ${ticket.requester.name} <${ticket.requester.email}>\nSubject: ${ticket.subject}\n\n${ticket.body}`;
}

/** Every ticket handed over (isolated) or open on the desk (shift), each answered with what `work` replies. */
export async function workTickets(work) {
  const { mode, tickets } = await workload();
  for (const ticket of tickets) {
    const reply = (await work(ticket)) || "Thanks for your patience. A colleague will follow up on this ticket.";
    await answer(mode, ticket, reply, /colleague/i.test(reply) ? "hold" : "solved");
  }
}
