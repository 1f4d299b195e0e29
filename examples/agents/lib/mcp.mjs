// The world over MCP, as any MCP client reaches it: the official SDK's client on Streamable HTTP at
// WORLDS_MCP_URL with the world key (WORLDS_TOOLS_KEY) as a Bearer token. The MCP counterpart of world.mjs: the
// task handed over (isolated mode) or the open tickets read with the desk's tools (shift), and the reply.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const env = process.env;

export class ToolError extends Error {}

/**
 * Connects and answers `call(name, args)`: a tool's structured result, or a ToolError with the tool's message.
 * A call answered `unavailable` (rate limits and outages the world may simulate) is retried a few times, after a
 * pause, as a careful client retries a 429 or 503.
 */
export async function connect(name) {
  const client = new Client({ name, version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(required("WORLDS_MCP_URL")), {
    requestInit: { headers: { authorization: `Bearer ${required("WORLDS_TOOLS_KEY")}` } },
  });
  await client.connect(transport);
  async function call(tool, args = {}, attempts = 4) {
    const result = await client.callTool({ name: tool, arguments: args });
    const text = result.content?.find((c) => c.type === "text")?.text ?? "";
    if (!result.isError) return result.structuredContent ?? JSON.parse(text);
    if (text.startsWith("unavailable:") && attempts > 1) {
      const seconds = Number(/Retry after (\d+)/.exec(text)?.[1] ?? 1);
      await new Promise((resolve) => setTimeout(resolve, Math.min(seconds, 30) * 1000));
      return call(tool, args, attempts - 1);
    }
    throw new ToolError(`${tool}: ${text}`);
  }
  return { client, call, close: () => client.close() };
}

/** The tickets to work: the task handed over (isolated), or every open or new ticket, oldest first (shift). */
export async function workload(call) {
  const handed = env.WORLDS_TASK_JSON || (await readStdin()).trim();
  if (handed) return { mode: "isolated", tickets: [JSON.parse(handed)] };
  const tickets = [];
  for (let page = 1; ; page++) {
    const found = await call("list_tickets", { page });
    for (const t of found.tickets) {
      if (t.status !== "open" && t.status !== "new") continue;
      const { user } = await call("get_user", { user: t.requester_id });
      tickets.push({ id: t.id, subject: t.subject, body: t.description, requester: { name: user.name, email: user.email } });
    }
    if (!found.has_more) break;
  }
  tickets.sort((a, b) => a.id - b.id);
  return { mode: "shift", tickets };
}

/** The reply: stdout in isolated mode; a public reply and a status on the ticket in shift mode. */
export function answerWith(call) {
  return async (mode, ticket, text, status = "solved") => {
    if (mode === "isolated") {
      process.stdout.write(text + "\n");
      return;
    }
    await call("reply_to_ticket", { ticket: ticket.id, body: text, status });
  };
}

function required(name) {
  const v = env[name];
  if (!v) {
    process.stderr.write(`${name} is not set: run this agent through worlds (passk, run or doctor).\n`);
    process.exit(2);
  }
  return v;
}

function readStdin() {
  if (process.stdin.isTTY) return Promise.resolve("");
  return new Promise((resolve) => {
    let s = "";
    process.stdin.setEncoding("utf8");
    process.stdin.on("data", (d) => (s += d));
    process.stdin.on("end", () => resolve(s));
    process.stdin.on("error", () => resolve(s));
  });
}
