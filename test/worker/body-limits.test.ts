// readBytesLimited reads a declared length in one call; the limit must hold on both paths, and for a Request whose
// header and body disagree (one built in-process: the network holds a body to its declared length).
import { describe, expect, it } from "vitest";
import { readBodyLimited, readBytesLimited } from "../../src/http/limits";

const post = (body: BodyInit, headers: Record<string, string> = {}) => new Request("http://w/x", { method: "POST", body, headers });
const streamOf = (...parts: string[]) =>
  new ReadableStream<Uint8Array>({
    start(c) {
      for (const p of parts) c.enqueue(new TextEncoder().encode(p));
      c.close();
    },
  });

describe("readBytesLimited", () => {
  it("reads a body with a declared length within the limit, as text too", async () => {
    expect(await readBodyLimited(post('{"name":"get_order"}'), 1024)).toBe('{"name":"get_order"}');
    expect(await readBodyLimited(post("héllo"), 6)).toBe("héllo"); // 6 bytes in UTF-8
  });

  it("refuses a declared length over the limit without reading it", async () => {
    expect(await readBytesLimited(post("x".repeat(11)), 10)).toBeNull();
  });

  it("refuses a body larger than the limit even when its header says less", async () => {
    expect(await readBytesLimited(post("x".repeat(50), { "content-length": "5" }), 10)).toBeNull();
  });

  it("reads a body without a declared length chunk by chunk, refusing past the limit", async () => {
    expect(await readBodyLimited(post(streamOf("ab", "cd")), 4)).toBe("abcd");
    expect(await readBytesLimited(post(streamOf("ab", "cd", "e")), 4)).toBeNull();
  });

  it("answers no bytes for a request without a body", async () => {
    expect((await readBytesLimited(new Request("http://w/x"), 10))?.byteLength).toBe(0);
  });
});
