import { describe, expect, it } from "vitest";
import { decisiveLines, stderrFromNotes, stderrNote } from "./stderr";

// A Node crash as an agent prints it: the reason once at the top, then a stack and the runtime's footer.
const NODE_CRASH = [
  "node:internal/modules/esm/resolve:873",
  "  throw new ERR_MODULE_NOT_FOUND(packageName, fileURLToPath(base), null);",
  "        ^",
  "",
  "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'stripe' imported from /app/agent.mjs",
  "    at packageResolve (node:internal/modules/esm/resolve:873:9)",
  "    at moduleResolve (node:internal/modules/esm/resolve:946:18)",
  "    at defaultResolve (node:internal/modules/esm/resolve:1188:11)",
  "    at ModuleLoader.defaultResolve (node:internal/modules/esm/loader:642:12)",
  "    at #cachedDefaultResolve (node:internal/modules/esm/loader:591:25) {",
  "  code: 'ERR_MODULE_NOT_FOUND'",
  "}",
  "",
  "Node.js v20.20.2",
].join("\n");

describe("decisiveLines", () => {
  it("keeps the first error line the last five would cut, then the tail", () => {
    const lines = decisiveLines(NODE_CRASH, 5);
    expect(lines[0]).toBe("Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'stripe' imported from /app/agent.mjs");
    expect(lines[1]).toBe("… 3 lines");
    expect(lines.at(-1)).toBe("Node.js v20.20.2");
    expect(lines).toHaveLength(7);
  });

  it("falls back to a line that reads like an error", () => {
    const text = ["starting", "could not reach the model: ECONNREFUSED", "a", "b", "c", "d"].join("\n");
    expect(decisiveLines(text, 2)[0]).toBe("could not reach the model: ECONNREFUSED");
  });

  it("finds a plain error sentence", () => {
    const text = ["starting", "loading config", "Error: Cannot find module './tools.js'", "a", "b", "c", "d", "e", "f"].join("\n");
    expect(decisiveLines(text, 3)).toEqual(["Error: Cannot find module './tools.js'", "… 3 lines", "d", "e", "f"]);
  });

  it("shows a short stderr whole, and marks what it skipped when nothing reads like an error", () => {
    expect(decisiveLines("one\n\ntwo\n", 5)).toEqual(["one", "two"]);
    expect(decisiveLines("1\n2\n3\n4", 2)).toEqual(["… 2 lines before", "3", "4"]);
    expect(decisiveLines("", 5)).toEqual([]);
  });
});

describe("stderr note", () => {
  it("round-trips through a world's evidence notes", () => {
    const note = stderrNote("Error: boom\nat x")!;
    expect(stderrFromNotes(["the reason", note])).toEqual(["Error: boom", "at x"]);
    expect(stderrNote("  \n")).toBeNull();
    expect(stderrFromNotes(["the reason"])).toEqual([]);
  });
});
