// The faults dial's planned `unavailable` answers, in the idiom of the format the tools came in: on /tools/v1/call
// an OpenAI tools file fails as {"error": {code, message}}, an MCP tool list as an isError result, an OpenAPI
// document as the error body it declares for 503 (else {"status", "detail"}); over MCP every format fails as an
// isError result. Each time with status 503, and the same call then works and the episode still passes.
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import ORDERS from "../fixtures/tools/orders.openai.json?raw";
import SHOP from "../fixtures/tools/shop.openapi.yaml?raw";
import { importToolSet } from "../../src/core/kinds/tools/toolset";
import { generateDialArm } from "../../src/core/kinds/tools/dials/generate";
import { toolsSeed, tracedCalls } from "../../src/core/kinds/tools/run/episode";
import { gradeToolsEpisode } from "../../src/core/kinds/tools/grade";
import type { WorldDiff } from "../../src/core/world/diff/types";

const admin = { authorization: "Bearer test-token", "content-type": "application/json" };
const call = (path: string, init: RequestInit = {}) => exports.default.fetch(new Request(`http://twin.test${path}`, init));
const CLOCK = "2026-09-15T12:00:00Z";

const NOTES_MCP = JSON.stringify({
  tools: [
    { name: "get_note", description: "Read a note.", inputSchema: { type: "object", properties: { id: { type: "string", pattern: "^n_[0-9]{4}$" } }, required: ["id"] }, annotations: { readOnlyHint: true } },
    { name: "archive_note", description: "Archive a note.", inputSchema: { type: "object", properties: { id: { type: "string", pattern: "^n_[0-9]{4}$" }, reason: { type: "string", enum: ["done", "spam"] } }, required: ["id", "reason"] }, annotations: { readOnlyHint: false } },
  ],
});

/** The shop document with an error body declared for every 5XX answer of every operation. */
const SHOP_DECLARED = SHOP.replace(/( +)responses:\n/g, (_m, indent: string) =>
  `${indent}responses:\n${indent}  "5XX":\n${indent}    description: Down.\n${indent}    content:\n${indent}      application/json:\n${indent}        schema:\n${indent}          type: object\n${indent}          required: [code, message, retryable]\n${indent}          properties:\n${indent}            code: { type: integer }\n${indent}            message: { type: string }\n${indent}            retryable: { type: boolean }\n`,
);

async function faultedWorld(text: string, read: string[] = []) {
  const set = await importToolSet(text, { name: "acme", read });
  const [task] = await generateDialArm(set, { dial: "faults", level: 1, count: 1, seed: 3, clockUnix: Date.parse(CLOCK) / 1000 });
  expect(task.world.task.faults).toHaveLength(1);
  const res = await call("/admin/worlds", { method: "POST", headers: admin, body: JSON.stringify({ seed: toolsSeed(CLOCK, task) }) });
  expect(res.status).toBe(201);
  return { task, world: (await res.json()) as { id: string; key: string } };
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}`, "content-type": "application/json" });
const jsonCall = (key: string, name: string, args: unknown) => call("/tools/v1/call", { method: "POST", headers: bearer(key), body: JSON.stringify({ name, arguments: args }) });
const mcpCall = (key: string, name: string, args: unknown) =>
  call("/mcp", { method: "POST", headers: { ...bearer(key), accept: "application/json, text/event-stream" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }) });

async function traceOf(id: string) {
  const text = await (await call(`/admin/worlds/${id}/trace`, { headers: admin })).text();
  return text.trim() ? text.trim().split("\n").map((l) => JSON.parse(l) as { service: string; path: string; status: number; request_body: string; response_body: string }) : [];
}

/** Makes every expected call in order (the faulted one twice), replies, and grades the world by replay. */
async function solveAndGrade(task: Awaited<ReturnType<typeof faultedWorld>>["task"], world: { id: string; key: string }) {
  for (const c of task.expected.calls) expect((await jsonCall(world.key, c.name, c.arguments)).status).toBe(200);
  const diff = (await (await call(`/admin/worlds/${world.id}/diff`, { headers: admin })).json()) as WorldDiff;
  return gradeToolsEpisode({ block: task.world, diff, calls: tracedCalls(await traceOf(world.id)), reply: "Done." });
}

describe("planned faults on /tools/v1/call, in the set's own idiom", () => {
  const cases = [
    ["an OpenAI tools file", ORDERS, ["get_order", "search_orders", "list_channels"], (b: any) => expect(b).toEqual({ error: { code: "unavailable", message: expect.stringMatching(/temporarily unavailable; try the call again/) } })],
    ["an MCP tool list", NOTES_MCP, [], (b: any) => expect(b).toEqual({ content: [{ type: "text", text: expect.stringMatching(/^unavailable: .*temporarily unavailable/) }], isError: true })],
    ["an OpenAPI document that declares no error body", SHOP, [], (b: any) => expect(b).toEqual({ status: 503, detail: expect.stringMatching(/temporarily unavailable; try the call again/) })],
    [
      "an OpenAPI document that declares its 5XX body",
      SHOP_DECLARED,
      [],
      (b: any) => {
        expect(Object.keys(b).sort()).toEqual(["code", "message", "retryable"]);
        expect(b.code).toBe(503);
        expect(b.message).toMatch(/temporarily unavailable; try the call again/);
        expect(typeof b.retryable).toBe("boolean");
      },
    ],
  ] as const;
  for (const [what, text, read, check] of cases) {
    it(`${what}: 503 in that idiom, traced as answered, then the same call works and the episode passes`, async () => {
      const { task, world } = await faultedWorld(text, [...read]);
      const fault = task.world.task.faults[0];
      const faulted = task.expected.calls.find((c) => c.name === fault.name)!;
      const res = await jsonCall(world.key, faulted.name, faulted.arguments);
      expect(res.status).toBe(503);
      const body = await res.json();
      check(body);
      const [row] = await traceOf(world.id);
      expect(row).toMatchObject({ service: "tools", path: faulted.name, status: 503 });
      expect(JSON.parse(row.response_body)).toEqual(body);
      const grade = await solveAndGrade(task, world);
      expect(grade.verdict, grade.reasons.join("; ")).toBe("passed");
    });
  }

  it("the declared body is drawn from the document, the same bytes for the same call", async () => {
    const a = await faultedWorld(SHOP_DECLARED);
    const b = await faultedWorld(SHOP_DECLARED);
    const fault = a.task.world.task.faults[0];
    const c = a.task.expected.calls.find((x) => x.name === fault.name)!;
    expect(await (await jsonCall(a.world.key, c.name, c.arguments)).text()).toBe(await (await jsonCall(b.world.key, c.name, c.arguments)).text());
  });
});

describe("planned faults over MCP", () => {
  for (const [what, text, read] of [
    ["an OpenAI tools file", ORDERS, ["get_order", "search_orders", "list_channels"]],
    ["an MCP tool list", NOTES_MCP, []],
    ["an OpenAPI document", SHOP_DECLARED, []],
  ] as const) {
    it(`${what}: a tools/call result with isError and the code first, then the same call works`, async () => {
      const { task, world } = await faultedWorld(text, [...read]);
      const fault = task.world.task.faults[0];
      const c = task.expected.calls.find((x) => x.name === fault.name)!;
      const first = (await (await mcpCall(world.key, c.name, c.arguments)).json()) as { result: { isError?: boolean; content: Array<{ text: string }> } };
      expect(first.result.isError).toBe(true);
      expect(first.result.content[0].text).toMatch(/^unavailable: .*temporarily unavailable/);
      const again = (await (await mcpCall(world.key, c.name, c.arguments)).json()) as { result: { isError?: boolean } };
      expect(again.result.isError).toBeUndefined();
    });
  }
});
