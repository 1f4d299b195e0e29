// The model agent's loop against the scripted model in-process (no sockets) and a recording tool surface: the
// conversation it sends, arguments that are not JSON going to the world as sent, the turn limit, a spent budget,
// an interrupted episode, each API (Chat Completions, Responses, Messages), and the task JSON of both world kinds as the user's message.
import { describe, expect, it } from "vitest";
import { compileScript, ScriptedModel, scriptedFetch } from "../models/scripted/index";
import { MemoryBudget, ModelClient, parseModelName, type ModelName } from "../models/index";
import { modelAgentNotes } from "./describe";
import { runModelAgent } from "./model-agent";
import { taskMessage, TOOLS_SYSTEM_PROMPT } from "./task-message";
import type { ToolAnswer, ToolSurface } from "./tool-surface";

const name = (s: string): ModelName => {
  const p = parseModelName(s);
  if (!p.ok) throw new Error(p.message);
  return p.value;
};

function setup(rules: unknown[], opts: { budget?: MemoryBudget; prices?: boolean } = {}) {
  const compiled = compileScript({ version: 1, rules });
  if (!compiled.ok) throw new Error(compiled.problems.join("\n"));
  const model = new ScriptedModel(compiled.script);
  const client = new ModelClient({
    endpoints: { openai: { provider: "openai", baseUrl: "http://scripted.test/v1", key: "sk-unit-secret" }, anthropic: { provider: "anthropic", baseUrl: "http://scripted.test", key: "sk-unit-secret" } },
    fetch: scriptedFetch(model),
    sleep: async () => undefined,
    budget: opts.budget ?? null,
    prices: opts.prices ? { version: 1, models: { "openai:m": { input: 1, output: 1 }, "anthropic:m": { input: 1, output: 1 } } } : undefined,
  });
  return { model, client };
}

function surface(answers: Record<string, ToolAnswer> = {}) {
  const calls: Array<{ name: string; args: unknown }> = [];
  const s: ToolSurface = {
    list: async () => ({ ok: true, tools: [] }),
    call: async (n, args) => {
      calls.push({ name: n, args });
      return answers[n] ?? { ok: true, status: 200, text: '{"ok":true,"id":"x1"}' };
    },
  };
  return { s, calls };
}

const TOOLS = [{ name: "refund_order", description: "Refund an order.", parameters: { type: "object", properties: { order_id: { type: "string" } } } }];

describe("the model agent's loop", () => {
  it("runs each tool call against the world, sends the results back, and takes the first answer without calls as the reply", async () => {
    for (const provider of ["openai", "anthropic", "openai-responses"]) {
      const { model, client } = setup(
        [
          { when: { role: "user", last_message: 'order "(\\w+)"' }, respond: { tool_calls: [{ name: "refund_order", arguments: { order_id: "$1" } }] } },
          { when: { role: "tool", last_message: '"ok":true' }, respond: { text: "  Refunded it.  " } },
        ],
        { prices: true },
      );
      const { s, calls } = surface();
      const run = await runModelAgent({ client, model: name(`${provider}:m`), system: "sys", user: 'Refund order "A1"', tools: TOOLS, surface: s });
      expect(run).toMatchObject({ end: "answered", reply: "Refunded it.", turns: 2, error: null });
      expect(calls).toEqual([{ name: "refund_order", args: { order_id: "A1" } }]);
      expect(run.calls).toEqual([{ name: "refund_order", status: 200, error: null, malformed: false }]);
      expect(run.usage.requests).toBe(2);
      expect(run.usage.micros).toBeGreaterThan(0);
      // The second request carries the call and its result, in the provider's own shape.
      const body = JSON.stringify(model.received()[1]!.body);
      expect(body).toContain({ openai: '"tool_call_id"', anthropic: '"tool_result"', "openai-responses": '"function_call_output"' }[provider]);
      expect(body).toContain('\\"ok\\":true');
    }
  });

  it("sends arguments that are not JSON to the world as the model wrote them, shows the model the tool's error, and goes on", async () => {
    const { client } = setup([
      { when: { role: "user" }, respond: { tool_calls: [{ name: "refund_order", arguments_text: '{"order_id": "A1",' }] } },
      { when: { role: "tool", last_message: "^invalid_arguments: " }, respond: { text: "It was refused." } },
    ]);
    const { s, calls } = surface({ refund_order: { ok: false, status: 422, code: "invalid_arguments", text: "invalid_arguments: arguments is not JSON" } });
    const run = await runModelAgent({ client, model: name("openai:m"), system: "sys", user: "go", tools: TOOLS, surface: s });
    expect(calls).toEqual([{ name: "refund_order", args: '{"order_id": "A1",' }]);
    expect(run).toMatchObject({ end: "answered", reply: "It was refused." });
    expect(run.calls).toEqual([{ name: "refund_order", status: 422, error: "invalid_arguments", malformed: true }]);
    expect(modelAgentNotes("openai:m", run, 16)).toContain("tool call refund_order: the model's arguments were not JSON; the world answered invalid_arguments");
  });

  it("stops at the turn limit, a spent budget and an aborted episode, each said", async () => {
    const loop = [{ respond: { tool_calls: [{ name: "refund_order", arguments: {} }] } }];
    const limited = await runModelAgent({ client: setup(loop).client, model: name("openai:m"), system: "s", user: "u", tools: TOOLS, surface: surface().s, turnLimit: 3 });
    expect(limited).toMatchObject({ end: "turn_limit", turns: 3 });
    expect(limited.calls).toHaveLength(3);

    const broke = await runModelAgent({ client: setup(loop, { budget: new MemoryBudget(1), prices: true }).client, model: name("openai:m"), system: "s", user: "u", tools: TOOLS, surface: surface().s });
    expect(broke).toMatchObject({ end: "model_error", error: { kind: "budget" }, turns: 1 });
    expect(broke.usage.requests).toBe(0);

    const ctl = new AbortController();
    ctl.abort();
    const stopped = await runModelAgent({ client: setup(loop).client, model: name("openai:m"), system: "s", user: "u", tools: TOOLS, surface: surface().s, signal: ctl.signal });
    expect(stopped.end).toBe("aborted");
  });
});

describe("the model agent's first message", () => {
  it("is a ticket as a help desk shows it, a tools task's request, or the desk in shift mode", () => {
    const ticket = taskMessage(JSON.stringify({ id: 3, label: "QS-1", subject: "Charged twice", body: "Please refund.", requester: { name: "Priya", email: "p@x.test" }, priority: "high", tags: [] }));
    expect(ticket.ok && ticket.value).toMatchObject({ kind: "ticket", user: "Ticket #3 from Priya <p@x.test>\nSubject: Charged twice\n\nPlease refund." });
    const tools = taskMessage(JSON.stringify({ id: "t_1", request: "Look up order A1.", tools: [] }));
    expect(tools.ok && tools.value).toEqual({ kind: "tools", user: "Look up order A1.", system: TOOLS_SYSTEM_PROMPT });
    expect(taskMessage(null, "mine").ok && (taskMessage(null, "mine") as { value: { kind: string; system: string } }).value).toMatchObject({ kind: "desk", system: "mine" });
    expect(taskMessage('{"id": 1}')).toMatchObject({ ok: false });
    expect(taskMessage("not json")).toMatchObject({ ok: false });
  });
});
