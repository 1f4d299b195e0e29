// What the framework agents share: the settings they read from the environment worlds gives (docs/agent-contract.md)
// and from the two knobs below, the world's MCP endpoint, the prompt, and working the tickets. Each framework
// reads OPENAI_BASE_URL (or ANTHROPIC_BASE_URL) itself; nothing here talks to a model.
//   AGENT_API     responses | chat   which OpenAI API the framework's model client speaks (default: the framework's;
//                                    the Anthropic agent speaks messages only)
//   AGENT_STREAM  1                  stream the model's answers
//   OPENAI_MODEL / ANTHROPIC_MODEL   default gpt-4.1-mini / claude-sonnet-4-5
import { connect } from "../lib/mcp.mjs";
import { answer, workload } from "../lib/world.mjs";

export const SYSTEM =
  "You are a billing support agent. Use the tools to look things up before acting. Only change what the customer asks for, " +
  "on the customer who wrote in; when the account or the request is ambiguous, change nothing and say a colleague will follow up. " +
  "Never claim an action you did not take. Finish with the reply to the customer as plain text.";

const PROVIDERS = {
  openai: { vars: "OPENAI", apis: ["responses", "chat"], model: "gpt-4.1-mini", local: "a local OpenAI-compatible server" },
  anthropic: { vars: "ANTHROPIC", apis: ["messages"], model: "claude-sonnet-4-5", local: "a local Anthropic-compatible server" },
};

/**
 * The agent's settings, or an exit with what to set. `defaultApi` is the API the framework speaks unless told;
 * `provider` names whose variables (OPENAI_* or ANTHROPIC_*) hold the key, base URL and model.
 */
export function settings(agent, defaultApi, provider = "openai") {
  const p = PROVIDERS[provider];
  const env = process.env;
  const fail = (message) => {
    process.stderr.write(`${agent}: ${message}\n`);
    process.exit(2);
  };
  // A local OpenAI-compatible server (the scripted model, Ollama, vLLM) needs no key; api.openai.com does. The
  // frameworks insist on one, so a local server gets a placeholder that never leaves this process's requests.
  const key = env[`${p.vars}_API_KEY`];
  if (!key && !env[`${p.vars}_BASE_URL`]) fail(`set ${p.vars}_API_KEY, or ${p.vars}_BASE_URL for ${p.local}.`);
  if (!env.WORLDS_MCP_URL || !env.WORLDS_TOOLS_KEY) fail("WORLDS_MCP_URL and WORLDS_TOOLS_KEY are unset: run me under worlds (worlds passk ... -- node " + agent + ").");
  const api = env.AGENT_API || defaultApi;
  if (!p.apis.includes(api)) fail(`AGENT_API must be ${p.apis.join(" or ")} (got ${JSON.stringify(api)}).`);
  if (env.AGENT_STREAM && env.AGENT_STREAM !== "1" && env.AGENT_STREAM !== "0") fail(`AGENT_STREAM must be 1 or 0 (got ${JSON.stringify(env.AGENT_STREAM)}).`);
  return {
    api,
    stream: env.AGENT_STREAM === "1",
    model: env[`${p.vars}_MODEL`] || p.model,
    apiKey: key || "local-server-needs-no-key",
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

/**
 * The world's tools for an agent that calls a model SDK directly: every tool the world's MCP endpoint lists (name,
 * description, inputSchema), and `call(name, args)` with the arguments as an object or as the JSON string OpenAI
 * sends. A call answers the tool's text and whether it failed; a failure (a tool's own error, arguments that are
 * not JSON, a tool the world does not have) goes back to the model to recover from, as a framework does.
 */
export async function worldTools(agent) {
  const { client, close } = await connect(agent);
  const tools = [];
  // The world lists its tools on one page; the cursor is followed a bounded number of times all the same.
  for (let page = 0, cursor; page < 20; page++) {
    const listed = await client.listTools(cursor ? { cursor } : {});
    tools.push(...listed.tools);
    cursor = listed.nextCursor;
    if (!cursor) break;
  }
  async function call(name, args) {
    let input = args ?? {};
    if (typeof args === "string") {
      try {
        input = args.trim() ? JSON.parse(args) : {};
      } catch {
        return { text: `the arguments to ${name} are not JSON: ${args.slice(0, 200)}`, isError: true };
      }
    }
    try {
      const result = await client.callTool({ name, arguments: input });
      const text = (result.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join("\n");
      return { text: text || JSON.stringify(result.structuredContent ?? {}), isError: result.isError === true };
    } catch (error) {
      return { text: `${name}: ${error instanceof Error ? error.message : String(error)}`, isError: true };
    }
  }
  return { tools, call, close };
}
