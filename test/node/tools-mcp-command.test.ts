// `worlds tools init --mcp-command CMD --yes` against a real MCP server from the registry (the reference memory
// server): its tools are listed over stdio into tools.mcp.json, the server is stopped, the command is written
// nowhere, and no tool is called (the server's memory file stays absent: any write tool would create it).
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { killAllStarted, ROOT, runCli } from "./helpers/cli";

const dir = mkdtempSync(join(tmpdir(), "worlds-mcp-cmd-"));
afterAll(() => {
  killAllStarted();
  rmSync(dir, { recursive: true, force: true });
});

describe("tools init --mcp-command", () => {
  const server = join(ROOT, "node_modules", "@modelcontextprotocol", "server-memory", "dist", "index.js");
  const memory = join(dir, "memory.jsonl");

  it("refuses without --yes, starting nothing", async () => {
    const res = await runCli(["tools", "init", "--mcp-command", `node ${server}`], { cwd: dir, env: { MEMORY_FILE_PATH: memory } });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/pass --yes to consent/);
    expect(existsSync(join(dir, "worlds"))).toBe(false);
  });

  it("lists the tools, writes them beside the settings, keeps the command nowhere and calls no tool", async () => {
    const res = await runCli(["tools", "init", "--yes", "--mcp-command", `node ${server}`, "--own-name", "memory"], { cwd: dir, env: { MEMORY_FILE_PATH: memory } });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/listed 9 tools from your MCP server/);
    expect(res.stdout).toContain("memory: 9 tools: 3 read, 6 write, 0 not known (treated as write), 0 refused; file: an MCP tool list");
    const listed = JSON.parse(readFileSync(join(dir, "worlds", "tools.mcp.json"), "utf8")) as { tools: Array<{ name: string }> };
    expect(listed.tools.map((t) => t.name)).toContain("read_graph");
    for (const f of readdirSync(join(dir, "worlds"))) expect(readFileSync(join(dir, "worlds", f), "utf8")).not.toContain("index.js");
    expect(existsSync(memory)).toBe(false);
    expect(res.leftovers).toEqual([]);
  });
});
