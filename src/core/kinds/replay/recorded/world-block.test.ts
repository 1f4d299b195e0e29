// The replay block's size bound: a world stores the block as one value, so the seed reader refuses one past it.
import { describe, expect, it } from "vitest";
import { parseSeed } from "../../../world/seed/parse";
import { MAX_REPLAY_BLOCK_BYTES, type ReplayWorldBlock } from "./world-block";

const seedWith = (result: string) => {
  const replay: ReplayWorldBlock = { task: "big", tools: [{ name: "x", description: "", inputSchema: { type: "object" }, effect: "read" }], observations: [{ tool: "x", arguments: {}, result }] };
  return { version: 1, kind: "replay", name: "replay-big", clock: "2026-01-01T00:00:00Z", currency: "usd", data: {}, replay };
};
/** A result string that makes the block exactly `bytes` long as JSON (the rest of the block is ASCII). */
const sized = (bytes: number) => {
  const rest = new TextEncoder().encode(JSON.stringify(seedWith("").replay)).byteLength;
  return "a".repeat(bytes - rest);
};

describe("replay block size", () => {
  it("takes a block of exactly the bound and refuses one byte more, naming the block", () => {
    expect(parseSeed(seedWith(sized(MAX_REPLAY_BLOCK_BYTES))).ok).toBe(true);
    const over = parseSeed(seedWith(sized(MAX_REPLAY_BLOCK_BYTES + 1)));
    expect(over.ok || over.issues).toEqual([{ path: "replay", message: `the task's tools and recorded results come to ${MAX_REPLAY_BLOCK_BYTES + 1} bytes as JSON; a replay world holds at most ${MAX_REPLAY_BLOCK_BYTES} (record fewer or shorter observations)` }]);
  });

  it("counts bytes, not characters: text outside ASCII takes more than one each", () => {
    const rest = new TextEncoder().encode(JSON.stringify(seedWith("").replay)).byteLength;
    const chars = Math.ceil((MAX_REPLAY_BLOCK_BYTES - rest) / 2) + 1;
    expect(parseSeed(seedWith("é".repeat(chars))).ok).toBe(false);
  });
});
