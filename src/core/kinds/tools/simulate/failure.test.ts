// Failure bodies on an OpenAPI set: the body the document declares for the status (exactly, else its class, else
// default), with the status, the code and the message in the fields that carry them; the conventional
// {"status", "detail"} when none is declared or none of its fields can carry the message.
import { describe, expect, it } from "vitest";
import { importToolSet } from "../toolset";
import type { ToolsWorldBlock } from "../world-block";
import { failureBody } from "./failure";

const CLOCK = Date.parse("2026-09-15T12:00:00Z") / 1000;
const failure = { code: "unavailable" as const, message: "refund_order is temporarily unavailable; try the call again." };

async function blockFor(responses: Record<string, unknown>): Promise<ToolsWorldBlock> {
  const doc = {
    openapi: "3.1.0",
    info: { title: "t", version: "1" },
    paths: {
      "/orders/{id}": {
        get: { operationId: "get_order", parameters: [{ name: "id", in: "path", required: true, schema: { type: "string", pattern: "^o_[0-9]{4}$" } }], responses: { "200": { description: "ok" } } },
        post: { operationId: "refund_order", parameters: [{ name: "id", in: "path", required: true, schema: { type: "string", pattern: "^o_[0-9]{4}$" } }], responses: { "200": { description: "ok" }, ...responses } },
      },
    },
  };
  const set = await importToolSet(JSON.stringify(doc), { name: "t" });
  const definitions = set.tools.map(({ checkable: _c, target: _t, ...d }) => d);
  return { set: { name: "t", format: "openapi", sha256: set.sha256 }, draw_seed: 1, definitions, task: { id: "t1", writes: [], deliveries: [], prerequisites: [], faults: [] }, max_calls: 32 };
}

const json = (schema: unknown) => ({ description: "err", content: { "application/json": { schema } } });

describe("failureBody on an OpenAPI set", () => {
  it("no declared error body: {status, detail}", async () => {
    expect(failureBody(await blockFor({}), "refund_order", failure, CLOCK)).toEqual({ status: 503, detail: failure.message });
  });

  it("a default body with a nested error object: code and message go inside it", async () => {
    const block = await blockFor({ default: json({ type: "object", required: ["error"], properties: { error: { type: "object", required: ["code", "message"], properties: { code: { type: "string" }, message: { type: "string" } } } } }) });
    expect(failureBody(block, "refund_order", failure, CLOCK)).toEqual({ error: { code: "unavailable", message: failure.message } });
  });

  it("the exact status wins over its class and default; a problem-details body gets status and detail", async () => {
    const block = await blockFor({
      "503": json({ type: "object", required: ["status", "title", "detail"], properties: { status: { type: "integer" }, title: { type: "string", enum: ["Service Unavailable"] }, detail: { type: "string" } } }),
      "5XX": json({ type: "object", properties: { other: { type: "string" } } }),
      default: json({ type: "object", properties: { message: { type: "string" } } }),
    });
    expect(failureBody(block, "refund_order", failure, CLOCK)).toEqual({ status: 503, title: "Service Unavailable", detail: failure.message });
  });

  it("a declared body with no field that can carry the message falls back to {status, detail}", async () => {
    for (const schema of [
      { type: "object", required: ["retry"], properties: { retry: { type: "boolean" } } },
      { type: "object", properties: { message: { type: "string", enum: ["down"] } } },
      { type: "object", properties: { message: { type: "string", maxLength: 5 } } },
    ]) expect(failureBody(await blockFor({ "5XX": json(schema) }), "refund_order", failure, CLOCK)).toEqual({ status: 503, detail: failure.message });
  });

  it("other codes use their own status's declaration: 404 from 4XX", async () => {
    const block = await blockFor({ "4XX": json({ type: "object", required: ["message"], properties: { message: { type: "string" } } }) });
    expect(failureBody(block, "refund_order", { code: "not_ready", message: "not yet" }, CLOCK)).toEqual({ message: "not yet" });
    expect(failureBody(block, "refund_order", failure, CLOCK)).toEqual({ status: 503, detail: failure.message });
  });
});
