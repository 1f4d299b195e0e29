// The built-in model agent (--model) in a replay world with a person, on the real local server: the agent's
// model, the person and the judge all on the scripted model. The model looks the order up, its text goes to the
// person, the person's reply comes back as the next user message, and the loop ends when the person is done; the
// episode then grades like any other. A person that cannot answer ends the agent's run with that said.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScriptedServer } from "../../src/cli/models/scripted-server";
import type { LocalServer } from "../../src/cli/server/local";
import type { CreatedWorld } from "../../src/cli/client";
import { setupModelAgent } from "../../src/cli/agent/model-agent";
import { startScriptedLocal } from "./helpers/scripted-local";
import { ROOT } from "./helpers/cli";

let model: ScriptedServer;
let server: LocalServer;
const task = (JSON.parse(readFileSync(join(ROOT, "examples/evals/benchmark.json"), "utf8")) as { tasks: Array<Record<string, unknown>> }).tasks[0]!;

let stop: () => Promise<void> = async () => undefined;
beforeAll(async () => {
  ({ model, server, stop } = await startScriptedLocal("test/fixtures/person/episode.script.yaml"));
}, 120_000);
afterAll(() => stop());

const admin = () => ({ authorization: `Bearer ${server.token}`, "content-type": "application/json" });
async function post(path: string, body: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(`${server.url}${path}`, { method: "POST", headers: admin(), body: JSON.stringify(body) });
  return { status: res.status, json: await res.json() };
}

function agent() {
  const setup = setupModelAgent({ model: "openai:agent-model" }, { concurrency: 1 }, { OPENAI_BASE_URL: model.env.OPENAI_BASE_URL, OPENAI_API_KEY: "sk-scripted" }, ROOT);
  if (!setup.ok) throw new Error(setup.message);
  return setup.agent;
}

const worldOf = (w: { id: string; key: string; mcp_url: string; tools_url: string; person_url: string | null }): CreatedWorld => ({
  id: w.id,
  key: w.key,
  seed: { name: "replay", hash: "" },
  objects: 0,
  stripe_api_base: "",
  zendesk_url: "",
  mcp_url: w.mcp_url,
  tools_url: w.tools_url,
  ...(w.person_url ? { person_url: w.person_url } : {}),
});

describe("the built-in model agent and the person", () => {
  it("sends its answers to the person and the person's replies back until done", async () => {
    const ep = await post("/admin/episodes", { task, person: "openai:person-model", judge: "openai:judge-model", purpose: "eval" });
    expect(ep.status, JSON.stringify(ep.json)).toBe(201);
    const before = model.received().length;
    const out = await agent().run({ world: worldOf(ep.json.world), serverUrl: server.url, taskJson: JSON.stringify({ id: task.slug, request: task.prompt }), timeoutMs: 120_000 });
    expect(out.in_process.error).toBeNull();
    expect(out).toMatchObject({ exit_code: 0, reply: "I have refunded the duplicate charge." });
    const agentRules = model.received().slice(before).filter((r) => r.rule?.startsWith("agent-")).map((r) => r.rule);
    expect(agentRules).toEqual(["agent-looks-up", "agent-asks-email", "agent-refunds", "agent-says-refunded"]);
    // The person's reply reached the model as a user message after its own question.
    const third = model.received().slice(before).find((r) => r.rule === "agent-refunds")!.body as { messages: Array<{ role: string; content: unknown }> };
    expect(third.messages.slice(-2).map((m) => [m.role, m.content])).toEqual([
      ["assistant", "What is the email on the account?"],
      ["user", "It's dana@example.com."],
    ]);
    expect(out.in_process.notes).toContain("the person: 2 messages answered, done");

    const graded = await post(`/admin/episodes/${ep.json.id}/grade`, {});
    expect(graded.json).toMatchObject({ reward: 0.8, error: null });
    expect(graded.json.tool_calls.map((c: { tool: string }) => c.tool)).toEqual(["orders__get", "refunds__create"]);
    expect(graded.json.transcript.slice(1)).toEqual([
      { role: "assistant", content: "What is the email on the account?" },
      { role: "user", content: "It's dana@example.com." },
      { role: "assistant", content: "I have refunded the duplicate charge." },
      { role: "user", content: "Thank you!" },
    ]);
  }, 180_000);

  it("stops at its first answer when the person is already done", async () => {
    const ep = await post("/admin/episodes", { task, person: "openai:person-model", judge: "openai:judge-model", purpose: "eval" });
    const bearer = { authorization: `Bearer ${ep.json.world.key}`, "content-type": "application/json" };
    const said = await fetch(`${server.url}/person/v1/respond`, { method: "POST", headers: bearer, body: JSON.stringify({ said: "I have refunded the duplicate charge." }) });
    expect(await said.json()).toEqual({ reply: "Thank you!", done: true });
    const out = await agent().run({ world: worldOf(ep.json.world), serverUrl: server.url, taskJson: JSON.stringify({ id: task.slug, request: task.prompt }), timeoutMs: 120_000 });
    expect(out).toMatchObject({ exit_code: 0, reply: "What is the email on the account?" });
    expect(out.in_process.notes).toContain("the person: 0 messages answered, done");
    await post(`/admin/episodes/${ep.json.id}/grade`, { error: "cleanup" });
  }, 180_000);
});
