// A reference run's transcript as the document writes it: the tool calls inside Chat Completions messages and
// inside Anthropic blocks are the run's calls, and one run written each way is graded the same way.
import { describe, expect, it } from "vitest";
import { ModelClient, parseModelName, type ModelName } from "../../../models/index";
import { compileScript, ScriptedModel, scriptedFetch } from "../../../models/scripted/index";
import { gradeTask } from "../rubric/index";
import { loadTasks, type EvalTask } from "./index";

const MODEL = (parseModelName("openai:gpt-4.1-mini") as { ok: true; value: ModelName }).value;

const chat = [
  { role: "user", content: "Please send my order A-1001 to 9 Elm St instead." },
  { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "orders__get", arguments: '{"order_id":"A-1001"}' } }] },
  { role: "tool", tool_call_id: "call_1", content: '{"id":"A-1001","status":"unfulfilled"}' },
  { role: "assistant", content: "", tool_calls: [{ id: "call_2", type: "function", function: { name: "orders__update_address", arguments: '{"order_id":"A-1001","address":"9 Elm St"}' } }] },
  { role: "tool", tool_call_id: "call_2", content: '{"ok":true}' },
  { role: "assistant", content: "Done: A-1001 now ships to 9 Elm St." },
];

const anthropic = [
  { role: "user", content: "Please send my order A-1001 to 9 Elm St instead." },
  { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "orders__get", input: { order_id: "A-1001" } }] },
  { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: '{"id":"A-1001","status":"unfulfilled"}' }] },
  { role: "assistant", content: [{ type: "text", text: "" }, { type: "tool_use", id: "toolu_2", name: "orders__update_address", input: { order_id: "A-1001", address: "9 Elm St" } }] },
  { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_2", content: [{ type: "text", text: '{"ok":true}' }] }] },
  { role: "assistant", content: [{ type: "text", text: "Done: A-1001 now ships to 9 Elm St." }] },
];

function task(reference: unknown[]): Record<string, unknown> {
  return {
    slug: "address-change",
    origin: "failure",
    split: "held_out",
    prompt: "Please send my order A-1001 to 9 Elm St instead.",
    environment: {
      kind: "replay",
      tools: [
        { type: "function", function: { name: "orders__get", description: "Look up an order.", parameters: { type: "object", properties: { order_id: { type: "string" } } } } },
        { name: "orders__update_address", description: "Change where an order ships." },
      ],
      observations: [{ tool: "orders__get", arguments: { order_id: "A-1001" }, result: { id: "A-1001", status: "unfulfilled" } }],
    },
    grader: {
      kind: "rubric",
      criteria: [{ id: "verified-first", claim: "The agent confirmed the account's email before changing the address." }],
      checks: [{ id: "address-changed", must: "exist", tool: "orders__update_address", arguments: { order_id: "A-1001" } }],
    },
    reference,
  };
}

function load(reference: unknown[]): EvalTask {
  const r = loadTasks(JSON.stringify(task(reference)), "b.json");
  if (!r.ok) throw new Error(r.problems.map((p) => p.message).join("\n"));
  return r.tasks[0].task;
}

describe("reference transcripts", () => {
  it("reads the calls out of a Chat Completions transcript and of an Anthropic one, the same calls and conversation", () => {
    const a = load([{ label: "production", transcript: chat }]).reference[0];
    const b = load([{ label: "production", transcript: anthropic }]).reference[0];
    expect(a.tool_calls).toEqual([
      { tool: "orders__get", arguments: { order_id: "A-1001" }, result: { id: "A-1001", status: "unfulfilled" } },
      { tool: "orders__update_address", arguments: { order_id: "A-1001", address: "9 Elm St" }, result: { ok: true } },
    ]);
    expect(a.transcript).toEqual([
      { role: "user", content: "Please send my order A-1001 to 9 Elm St instead." },
      { role: "assistant", content: "Done: A-1001 now ships to 9 Elm St." },
    ]);
    expect(b).toEqual(a);
  });

  it("grades one run written each way the same: the same judge request, the same record", async () => {
    const compiled = compileScript({ version: 1, rules: [{ when: { schema: true, last_message: "- orders__update_address" }, respond: { json: { criteria: [{ id: "verified-first", met: false, reason: "The address changed with no email asked." }] } } }] });
    if (!compiled.ok) throw new Error(compiled.problems.join("\n"));
    const model = new ScriptedModel(compiled.script);
    const client = new ModelClient({ endpoints: { openai: { provider: "openai", baseUrl: "http://scripted.test/v1", key: null } }, fetch: scriptedFetch(model), sleep: async () => undefined, retry: { maxAttempts: 1 } });
    const judge = { client, model: MODEL };
    const records = [];
    for (const transcript of [chat, anthropic]) {
      const t = load([{ label: "production", transcript }]);
      records.push(await gradeTask(judge, t, t.reference[0]));
    }
    const [a, b] = records;
    // The write was seen (the scripted judge matched it), and the check found it: 1 of 2 met.
    expect(a).toMatchObject({ passed: false, reward: 0.5 });
    expect(a!.criteria.map((c) => [c.id, c.met])).toEqual([["verified-first", false], ["address-changed", true]]);
    expect({ ...b, cost: null }).toEqual({ ...a, cost: null });
    const [first, second] = model.received().map((r) => JSON.stringify(r.body));
    expect(second).toBe(first);
  });

  it("keeps the run's own tool_calls when it lists them beside a transcript", () => {
    const r = load([{ label: "production", transcript: chat, tool_calls: [{ name: "orders__get", arguments: { order_id: "A-1001" } }] }]).reference[0];
    expect(r.tool_calls).toEqual([{ tool: "orders__get", arguments: { order_id: "A-1001" } }]);
  });

  it("names the message and field of a call it cannot read", () => {
    const broken = structuredClone(chat) as Array<Record<string, unknown>>;
    (broken[1].tool_calls as Array<{ function: { arguments: string } }>)[0].function.arguments = "{order_id: A-1001";
    broken[2].tool_call_id = "call_9";
    const r = loadTasks(JSON.stringify(task([{ label: "production", transcript: broken }]), null, 2), "b.json");
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems.map((p) => p.message)).toEqual([
      "task address-change: reference[0].transcript[1].tool_calls[0].function.arguments: is not JSON text of an object (Chat Completions sends a tool call's arguments as JSON text)",
      "task address-change: reference[0].transcript[2].tool_call_id: answers no tool call of an earlier message ('call_9')",
    ]);
    expect(r.problems[0].line).toBeGreaterThan(1);
  });
});
