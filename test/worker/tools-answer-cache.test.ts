// A repeated call of a tools world's read tool is answered from the world's answer cache: the bytes a computed
// answer has, its own trace row (pointing at the first answer's body, which the trace puts back), counted toward
// the episode's limit, and never reused across a write or between worlds. Grading by replay sees every call.
import { env, exports } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import ORDERS from "../fixtures/tools/orders.openai.json?raw";
import { importToolSet } from "../../src/core/kinds/tools/toolset";
import { generateTasks } from "../../src/core/kinds/tools/tasks/generate";
import { toolsSeed, tracedCalls } from "../../src/core/kinds/tools/run/episode";
import { gradeToolsEpisode } from "../../src/core/kinds/tools/grade";
import type { WorldDiff } from "../../src/core/world/diff/types";

const admin = { authorization: "Bearer test-token", "content-type": "application/json" };
const call = (path: string, init: RequestInit = {}) => exports.default.fetch(new Request(`http://twin.test${path}`, init));
const CLOCK = "2026-09-15T12:00:00Z";
const READ = { name: "get_order", arguments: { order_id: "A33170" } };

async function task() {
  const set = await importToolSet(ORDERS, { name: "acme", read: ["get_order", "search_orders", "list_channels"] });
  const [t] = await generateTasks(set, { arm: "call", count: 1, seed: 1, clockUnix: Date.parse(CLOCK) / 1000 });
  return t;
}

async function world(t: Awaited<ReturnType<typeof task>>, maxCalls?: number): Promise<{ id: string; key: string }> {
  const seed = toolsSeed(CLOCK, t);
  if (maxCalls) (seed.tools as Record<string, unknown>).max_calls = maxCalls;
  const res = await call("/admin/worlds", { method: "POST", headers: admin, body: JSON.stringify({ seed }) });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; key: string };
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}`, "content-type": "application/json" });
const jsonCall = (key: string, c: { name: string; arguments: unknown }) => call("/tools/v1/call", { method: "POST", headers: bearer(key), body: JSON.stringify(c) });
const mcpCall = (key: string, c: { name: string; arguments: unknown }) =>
  call("/mcp", { method: "POST", headers: { ...bearer(key), accept: "application/json, text/event-stream" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: c }) });

async function traceOf(id: string) {
  const text = await (await call(`/admin/worlds/${id}/trace`, { headers: admin })).text();
  return text.trim().split("\n").map((l) => JSON.parse(l) as { request_id: string; service: string; path: string; status: number; request_body: string; response_body: string });
}

/** What the world stored for each call: which rows hold their own body and which point at another's. */
async function storedRows(id: string): Promise<Array<{ request_id: string; response_body: string; response_of: string | null }>> {
  return runInDurableObject(env.WORLD.getByName(id), (instance) => {
    const w = instance as unknown as { traceRecords(): unknown; ctx: DurableObjectState };
    w.traceRecords(); // flushes the buffered rows
    return w.ctx.storage.sql.exec<{ request_id: string; response_body: string; response_of: string | null }>("SELECT request_id, response_body, response_of FROM trace ORDER BY seq").toArray();
  });
}

describe("the answer cache of a tools world", () => {
  it("answers a repeated read with the computed bytes, and the trace shows each call in full", async () => {
    const t = await task();
    const [a, fresh] = [await world(t), await world(t)];
    const texts: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await jsonCall(a.key, READ);
      expect(res.status).toBe(200);
      texts.push(await res.text());
    }
    const computed = await (await jsonCall(fresh.key, READ)).text();
    expect(texts).toEqual([computed, computed, computed]);
    const stored = await storedRows(a.id);
    // The first row holds the answer; the repeats were served from the cache and point at it.
    expect(stored.map((r) => r.response_of)).toEqual([null, stored[0].request_id, stored[0].request_id]);
    expect(stored.map((r) => r.response_body)).toEqual([computed, "", ""]);
    const rows = await traceOf(a.id);
    expect(rows.map((r) => [r.service, r.path, r.status, r.request_body, r.response_body])).toEqual(Array(3).fill(["tools", "get_order", 200, JSON.stringify(READ.arguments), computed]));
    expect(new Set(rows.map((r) => r.request_id)).size).toBe(3);
  });

  it("answers the same over MCP, from the cache too", async () => {
    const t = await task();
    const w = await world(t);
    const json = await (await jsonCall(w.key, READ)).text();
    const first = await (await mcpCall(w.key, READ)).text();
    const second = await (await mcpCall(w.key, READ)).text();
    expect(second).toBe(first);
    expect(first).toContain(JSON.stringify(json).slice(1, -1));
    expect((await storedRows(w.id)).map((r) => r.response_of === null)).toEqual([true, false, false]);
  });

  it("works a read out again after a write, with the same bytes", async () => {
    const t = await task();
    const w = await world(t);
    const before = await (await jsonCall(w.key, READ)).text();
    const write = t.expected.calls.find((c) => c.name !== READ.name)!;
    expect((await jsonCall(w.key, write)).status).toBe(200);
    const after = await (await jsonCall(w.key, READ)).text();
    expect(after).toBe(before);
    const stored = await storedRows(w.id);
    expect(stored.map((r) => r.response_of)).toEqual([null, null, null]);
  });

  it("counts answers from the cache toward the episode's call limit", async () => {
    const t = await task();
    const w = await world(t, 3);
    for (let i = 0; i < 3; i++) expect((await jsonCall(w.key, READ)).status).toBe(200);
    const over = await jsonCall(w.key, READ);
    expect(over.status).toBe(503);
    expect(await over.text()).toContain("limit of 3 calls");
  });

  it("grades an episode of repeated reads by replay, every call seen with its answer", async () => {
    const t = await task();
    const w = await world(t);
    const answers: string[] = [];
    for (const c of [READ, READ, ...t.expected.calls, READ]) {
      const res = await jsonCall(w.key, c);
      expect(res.status).toBe(200);
      answers.push(await res.text());
    }
    const calls = tracedCalls(await traceOf(w.id));
    expect(calls.map((c) => c.response)).toEqual(answers);
    const diff = (await (await call(`/admin/worlds/${w.id}/diff`, { headers: admin })).json()) as WorldDiff;
    const grade = gradeToolsEpisode({ block: t.world, diff, calls, reply: "Done." });
    expect(grade.verdict, grade.reasons.join("; ")).toBe("passed");
  });
});
