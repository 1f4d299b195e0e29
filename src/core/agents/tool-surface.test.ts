// The built-in model agent reads a failure in any set's idiom: OpenAI's envelope as `code: message`, and any other
// JSON body (OpenAPI's {"status", "detail"}, MCP's isError result) as sent, with the code its status stands for.
import { describe, expect, it } from "vitest";
import { jsonToolSurface } from "./tool-surface";

const answering = (status: number, body: unknown) => jsonToolSurface("http://w.test/tools/v1", "k", async () => new Response(JSON.stringify(body), { status }));

describe("jsonToolSurface failures", () => {
  it("OpenAI's envelope", async () => {
    expect(await answering(503, { error: { code: "unavailable", message: "down" } }).call("t", {})).toEqual({ ok: false, status: 503, code: "unavailable", text: "unavailable: down" });
  });
  it("another format's JSON body goes to the model as sent", async () => {
    expect(await answering(503, { status: 503, detail: "down" }).call("t", {})).toEqual({ ok: false, status: 503, code: "unavailable", text: '{"status":503,"detail":"down"}' });
    expect(await answering(409, { content: [{ type: "text", text: "not_ready: later" }], isError: true }).call("t", {})).toMatchObject({ ok: false, code: "not_ready" });
  });
});
