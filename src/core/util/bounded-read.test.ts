import { describe, expect, it } from "vitest";
import { readStreamBounded } from "./bounded-read";

const streamOf = (...chunks: string[]) =>
  new ReadableStream<Uint8Array>({
    start(c) {
      for (const x of chunks) c.enqueue(new TextEncoder().encode(x));
      c.close();
    },
  });
const text = (b: Uint8Array | null) => (b === null ? null : new TextDecoder().decode(b));

describe("readStreamBounded", () => {
  it("reads a body within the bound whole, across chunks", async () => {
    expect(text(await readStreamBounded(streamOf("ab", "cd", "e"), 5, "refuse"))).toBe("abcde");
    expect(text(await readStreamBounded(streamOf("ab", "cd", "e"), 5, "cut"))).toBe("abcde");
  });
  it("refuses a body one byte over the bound, and cuts it to the bound when asked", async () => {
    expect(await readStreamBounded(streamOf("ab", "cd", "ef"), 5, "refuse")).toBeNull();
    expect(text(await readStreamBounded(streamOf("ab", "cd", "ef"), 5, "cut"))).toBe("abcde");
  });
  it("stops reading at the bound: a stream that never ends is cancelled", async () => {
    let cancelled = false;
    const endless = new ReadableStream<Uint8Array>({ pull: (c) => c.enqueue(new Uint8Array(1000)), cancel: () => void (cancelled = true) });
    expect((await readStreamBounded(endless, 2500, "cut"))!.byteLength).toBe(2500);
    expect(cancelled).toBe(true);
  });
  it("answers an empty body for no body", async () => {
    expect((await readStreamBounded(null, 10, "refuse"))!.byteLength).toBe(0);
  });
});
