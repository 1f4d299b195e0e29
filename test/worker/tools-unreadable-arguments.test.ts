// Arguments a tool surface cannot read as an object (a model's broken JSON text, a list) are answered
// invalid_arguments (422) by the world itself, which traces the call with the text as sent: the grader then says
// malformed_call for the episode, where a refusal at the route used to leave no trace and read as wrong_state.
import { exports } from "cloudflare:workers";
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

async function toolsWorld() {
  const set = await importToolSet(ORDERS, { name: "acme", read: ["get_order", "search_orders", "list_channels"] });
  const [task] = await generateTasks(set, { arm: "call", count: 1, seed: 3, clockUnix: Date.parse(CLOCK) / 1000 });
  const res = await call("/admin/worlds", { method: "POST", headers: admin, body: JSON.stringify({ seed: toolsSeed(CLOCK, task) }) });
  expect(res.status).toBe(201);
  return { task, world: (await res.json()) as { id: string; key: string } };
}

const sendText = (key: string, body: string) => call("/tools/v1/call", { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body });

async function traceOf(id: string) {
  const text = await (await call(`/admin/worlds/${id}/trace`, { headers: admin })).text();
  return text.trim() ? text.trim().split("\n").map((l) => JSON.parse(l) as { service: string; path: string; status: number; request_body: string; response_body: string }) : [];
}

describe("unreadable tool arguments", () => {
  for (const [what, args, message] of [
    ["JSON text cut short", '{"order_id": "A-33', /arguments is not valid JSON/],
    ["a list", ["A-3317"], /must be a JSON object/],
    ["text that is a number", "42", /must be a JSON object/],
  ] as const) {
    it(`${what}: 422 invalid_arguments from the world, traced as sent, graded malformed_call`, async () => {
      const { task, world } = await toolsWorld();
      const target = task.expected.calls[task.expected.calls.length - 1].name;
      const res = await sendText(world.key, JSON.stringify({ name: target, arguments: args }));
      expect(res.status).toBe(422);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("invalid_arguments");
      expect(body.error.message).toMatch(message);
      const trace = await traceOf(world.id);
      expect(trace).toHaveLength(1);
      expect(trace[0]).toMatchObject({ service: "tools", path: target, status: 422 });
      expect(trace[0].request_body).toBe(typeof args === "string" ? args : JSON.stringify(args));
      const diff = (await (await call(`/admin/worlds/${world.id}/diff`, { headers: admin })).json()) as WorldDiff;
      expect(diff.entries.filter((e) => e.type === "records" && e.op !== "created")).toEqual([]);
      const grade = gradeToolsEpisode({ block: task.world, diff, calls: tracedCalls(trace), reply: "Done." });
      expect(grade.verdict).toBe("malformed_call");
      expect(grade.reasons[0]).toMatch(/broke the tool's schema/);
    });
  }

  it("a wrong key still opens nothing, and nothing is traced", async () => {
    const { world } = await toolsWorld();
    const res = await sendText("sk_test_not_this_world", JSON.stringify({ name: "get_order", arguments: "{" }));
    expect(res.status).toBe(401);
    expect(await traceOf(world.id)).toEqual([]);
  });
});
