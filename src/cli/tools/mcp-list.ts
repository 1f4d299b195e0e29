// `--mcp-command CMD --yes`: start a team's MCP server over stdio only to list its tools (every page), write the
// list beside the settings, and stop it. Consent is the --yes; the command is written nowhere; no tool is called.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

export class McpListError extends Error {}

const MAX_PAGES = 50;

/** Splits a command line the way a shell would for plain words and quotes (no expansion, no pipes). */
export function splitCommand(cmd: string): string[] {
  const out: string[] = [];
  const re = /"((?:\\.|[^"\\])*)"|'([^']*)'|(\S+)/g;
  for (let m = re.exec(cmd); m; m = re.exec(cmd)) out.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, "$1") : (m[2] ?? m[3]));
  return out;
}

export async function listMcpTools(cmd: string, timeoutMs = 30_000): Promise<{ tools: unknown[] }> {
  const [command, ...args] = splitCommand(cmd);
  if (!command) throw new McpListError("--mcp-command is empty");
  const transport = new StdioClientTransport({ command, args, stderr: "pipe" });
  const client = new Client({ name: "worlds-tools-import", version: "1" });
  const timer = setTimeout(() => void transport.close(), timeoutMs);
  try {
    await client.connect(transport);
    const tools: unknown[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const r = await client.listTools(cursor ? { cursor } : {});
      tools.push(...r.tools);
      cursor = r.nextCursor;
      if (!cursor) break;
    }
    return { tools };
  } catch (e) {
    throw new McpListError(`the MCP server did not list its tools (${(e as Error).message})`);
  } finally {
    clearTimeout(timer);
    await client.close().catch(() => undefined);
  }
}
