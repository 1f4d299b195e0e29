// The RL episode API end to end on the real local server, the person and the judge on the scripted model: an
// episode's surfaces, a policy acting through the tools and the person, the grade (reward, criteria with reasons,
// transcript, tool calls) kept and answered again, a policy error ending at reward 0, the held-out warning, and
// tasks the server cannot run refused with the reason.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScriptedServer } from "../../src/cli/models/scripted-server";
import type { LocalServer } from "../../src/cli/server/local";
import { startScriptedLocal } from "./helpers/scripted-local";
import { ROOT } from "./helpers/cli";

let model: ScriptedServer;
let server: LocalServer;
const tasks = (JSON.parse(readFileSync(join(ROOT, "examples/evals/benchmark.json"), "utf8")) as { tasks: Array<Record<string, unknown>> }).tasks;
const task = tasks[0]!;

let stop: () => Promise<void> = async () => undefined;
beforeAll(async () => {
  ({ model, server, stop } = await startScriptedLocal("test/fixtures/person/episode.script.yaml"));
}, 120_000);
afterAll(() => stop());

const admin = () => ({ authorization: `Bearer ${server.token}`, "content-type": "application/json" });
async function post(path: string, body: unknown, headers: Record<string, string> = admin()): Promise<{ status: number; json: any }> {
  const res = await fetch(`${server.url}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
  return { status: res.status, json: await res.json() };
}

describe("the episode API", () => {
  it("runs an episode: surfaces, tools, the person, the grade", async () => {
    const ep = await post("/admin/episodes", { task, person: "openai:person-model", judge: "openai:judge-model" });
    expect(ep.status, JSON.stringify(ep.json)).toBe(201);
    expect(ep.json).toMatchObject({ slug: "duplicate-charge-refund", split: "held_out", messages: [{ role: "user", content: task.prompt }] });
    expect(ep.json.warnings[0]).toMatch(/held out/);
    const { key, tools_url, person_url } = ep.json.world;
    expect(person_url).toBe(`${server.url}/person/v1`);
    const bearer = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    expect((await post("/tools/v1/call", { name: "orders__get", arguments: { order_id: "A-1001" } }, bearer)).status).toBe(200);
    expect(tools_url).toBe(`${server.url}/tools/v1`);
    expect((await post("/tools/v1/call", { name: "refunds__create", arguments: { charge_id: "ch_2" } }, bearer)).status).toBe(200);
    expect((await post("/person/v1/respond", { said: "What is the email on the account?" }, bearer)).json).toEqual({ reply: "It's dana@example.com.", done: false });
    expect((await post("/person/v1/respond", { said: "I have refunded the duplicate charge." }, bearer)).json).toEqual({ reply: "Thank you!", done: true });

    const graded = await post(`/admin/episodes/${ep.json.id}/grade`, { output: "I have refunded the duplicate charge." });
    expect(graded.status, JSON.stringify(graded.json)).toBe(200);
    // Two of three criteria met by the judge, both checks met: 4 of 5.
    expect(graded.json).toMatchObject({ id: ep.json.id, reward: 0.8, passed: false, error: null });
    expect(graded.json.criteria.map((c: { id: string; met: boolean; by: string }) => [c.id, c.met, c.by])).toEqual([
      ["refund-duplicate", true, "judge"],
      ["no-february-refund", true, "judge"],
      ["fee-explained", false, "judge"],
      ["no-fee-refund-record", true, "check"],
      ["no-billing-task", true, "check"],
    ]);
    expect(graded.json.criteria[2].reason).toBe("The agent never said what the February fee is.");
    expect(graded.json.transcript).toEqual([
      { role: "user", content: task.prompt },
      { role: "assistant", content: "What is the email on the account?" },
      { role: "user", content: "It's dana@example.com." },
      { role: "assistant", content: "I have refunded the duplicate charge." },
      // The output the agent sends with the grade is the message the person already heard: recorded once.
      { role: "user", content: "Thank you!" },
    ]);
    expect(graded.json.tool_calls.map((c: { tool: string; arguments: unknown }) => [c.tool, c.arguments])).toEqual([
      ["orders__get", { order_id: "A-1001" }],
      ["refunds__create", { charge_id: "ch_2" }],
    ]);
    // Kept: the same answer again, and the world is gone.
    expect(await post(`/admin/episodes/${ep.json.id}/grade`, {})).toEqual(graded);
    expect((await post("/tools/v1/call", { name: "orders__get", arguments: { order_id: "A-1001" } }, bearer)).status).toBe(401);
  }, 120_000);

  it("ends an episode whose policy failed at reward 0 with the error, and warns only training on held-out tasks", async () => {
    const ep = await post("/admin/episodes", { task, person: "openai:person-model", judge: "openai:judge-model", purpose: "eval" });
    expect(ep.json.warnings).toEqual([]);
    const graded = await post(`/admin/episodes/${ep.json.id}/grade`, { error: "ValueError: the policy crashed" });
    expect(graded.json).toMatchObject({ reward: 0, passed: false, error: "ValueError: the policy crashed", criteria: [], tool_calls: [] });
    const train = await post("/admin/episodes", { task: { ...task, split: "train" }, person: "openai:person-model", judge: "openai:judge-model" });
    expect(train.json.warnings).toEqual([]);
  }, 120_000);

  it("refuses what it cannot run, with the reason", async () => {
    const own = tasks.find((t) => (t.environment as { kind: string }).kind !== "replay")!;
    expect(await post("/admin/episodes", { task: own })).toMatchObject({ status: 400, json: { error: { code: "unsupported_environment" } } });
    expect(await post("/admin/episodes", { task: { ...task, split: "sometimes" } })).toMatchObject({ status: 400, json: { error: { code: "invalid_task" } } });
    expect(await post("/admin/episodes", { task, judge: "anthropic:claude-x" })).toMatchObject({ status: 400, json: { error: { code: "judge_unavailable" } } });
    expect(await post("/admin/episodes", { task, person: "anthropic:claude-x", judge: "openai:judge-model" })).toMatchObject({ status: 400, json: { error: { code: "person_unavailable", message: expect.stringMatching(/^person: /) } } });
    const ownGrader = await post("/admin/episodes", { task: { ...task, grader: { kind: "my-check" } } });
    expect(ownGrader).toMatchObject({ status: 400, json: { error: { code: "unsupported_grader", message: expect.stringContaining("grader kind 'my-check' is your own code") } } });
    expect(await post("/admin/episodes", { task: { tasks: [tasks[0], tasks[1]] } })).toMatchObject({ status: 400, json: { error: { code: "invalid_task", message: "Send one task, not a benchmark." } } });
    // Its recorded results are more than one world stores: refused as the task is read, naming the recording.
    const env = task.environment as { observations: Array<Record<string, unknown>> };
    const huge = { ...task, environment: { ...env, observations: [{ ...env.observations[0], result: "x".repeat(2_600_000) }] } };
    const tooLarge = await post("/admin/episodes", { task: huge, person: "openai:person-model", judge: "openai:judge-model" });
    expect(tooLarge).toMatchObject({ status: 400, json: { error: { code: "invalid_task", message: expect.stringMatching(/task duplicate-charge-refund: environment\.observations\[0\]\.result: .* at most 2000000 .*this recording alone is \d+ bytes$/) } } });
    expect(await post("/admin/episodes", { task }, { "content-type": "application/json" })).toMatchObject({ status: 401 });
    expect(await post("/admin/episodes/ep_AAAAAAAAAAAAAAAA/grade", {})).toMatchObject({ status: 404, json: { error: { code: "episode_not_found" } } });
  }, 120_000);
});
