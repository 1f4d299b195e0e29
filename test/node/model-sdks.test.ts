// The scripted model server against the official SDKs: each SDK's own stream accumulation must give the same
// answer as the non-streamed call, for Chat Completions, Anthropic Messages and the Responses API, and bad
// requests come back in the provider's error envelope.
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScriptedServer, type ScriptedServer } from "../../src/cli/models/scripted-server";
import { loadScript } from "../../src/core/models/scripted/index";

let server: ScriptedServer;
let openai: OpenAI;
let anthropic: Anthropic;

beforeAll(async () => {
  const loaded = loadScript(readFileSync("test/fixtures/models/sdk.script.yaml", "utf8"), "sdk.script.yaml");
  if (!loaded.ok) throw new Error(loaded.problems.join("\n"));
  server = await startScriptedServer(loaded.script);
  openai = new OpenAI({ baseURL: server.env.OPENAI_BASE_URL, apiKey: "sk-test", maxRetries: 0 });
  anthropic = new Anthropic({ baseURL: server.env.ANTHROPIC_BASE_URL, apiKey: "sk-ant-test", maxRetries: 0 });
});
afterAll(() => server?.close());

/**
 * An answer with what differs between two requests by design taken out: the request number inside ids, and
 * the parsed-value fields the SDKs' stream helpers add on their side.
 */
const PARSED = new Set(["parsed", "parsed_arguments", "parsed_output", "output_parsed"]);
const comparable = (v: unknown): unknown =>
  JSON.parse(JSON.stringify(v, (k, x) => (PARSED.has(k) ? undefined : typeof x === "string" ? x.replace(/scripted([-_])\d{6}/g, "scripted$1N") : x)));

const TOOLS = [
  { type: "function" as const, function: { name: "find_customers", parameters: { type: "object", properties: { email: { type: "string" } } } } },
  { type: "function" as const, function: { name: "list_charges", parameters: { type: "object", properties: { customer: { type: "string" } } } } },
];
const VERDICT = { type: "json_schema" as const, json_schema: { name: "verdict", strict: true, schema: { type: "object", properties: { verdict: { type: "string" }, findings: { type: "array", items: { type: "string" } } }, required: ["verdict", "findings"], additionalProperties: false } } };

describe("Chat Completions, streamed and not (openai SDK)", () => {
  const cases: [string, Partial<OpenAI.ChatCompletionCreateParamsNonStreaming>][] = [
    ["text", { messages: [{ role: "user", content: "hello" }] }],
    ["tool calls", { messages: [{ role: "user", content: "look up dana@example.com" }], tools: TOOLS }],
    ["a structured answer", { messages: [{ role: "user", content: "judge this" }], response_format: VERDICT }],
    ["a refusal", { messages: [{ role: "user", content: "refuse please" }] }],
    ["a cut-off answer", { messages: [{ role: "user", content: "cut it" }] }],
  ];
  for (const [what, params] of cases)
    it(`accumulates ${what} to the non-streamed completion`, async () => {
      const body = { model: "gpt-4.1-mini", messages: [], ...params } as OpenAI.ChatCompletionCreateParamsNonStreaming;
      const whole = await openai.chat.completions.create(body);
      const streamed = await openai.chat.completions.stream({ ...body, stream: true, stream_options: { include_usage: true } }).finalChatCompletion();
      expect(comparable(streamed.choices[0].message)).toEqual(comparable(whole.choices[0].message));
      expect(streamed.choices[0].finish_reason).toBe(whole.choices[0].finish_reason);
      expect(streamed.usage).toEqual(whole.usage);
      expect(streamed.id).toMatch(/^chatcmpl-scripted-/);
    });

  it("sends chunks with tool-call deltas, no usage unless asked, and [DONE]", async () => {
    const res = await fetch(`${server.env.OPENAI_BASE_URL}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "m", stream: true, tools: TOOLS, messages: [{ role: "user", content: "look up dana@example.com" }] }),
    });
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const lines = (await res.text()).split("\n\n").filter(Boolean);
    expect(lines.at(-1)).toBe("data: [DONE]");
    const chunks = lines.slice(0, -1).map((l) => JSON.parse(l.replace(/^data: /, "")));
    expect(chunks.every((c) => c.object === "chat.completion.chunk" && !("usage" in c))).toBe(true);
    const calls = chunks.flatMap((c) => c.choices[0].delta.tool_calls ?? []);
    expect(calls[0]).toEqual({ index: 0, id: expect.stringMatching(/^call_/), type: "function", function: { name: "find_customers", arguments: "" } });
    expect(calls.filter((c) => c.index === 0).length).toBeGreaterThan(2);
    expect(chunks.at(-1).choices[0].finish_reason).toBe("tool_calls");
  });
});

describe("Anthropic Messages, streamed and not (@anthropic-ai/sdk)", () => {
  const cases: [string, Partial<Anthropic.MessageCreateParamsNonStreaming>][] = [
    ["text", { messages: [{ role: "user", content: "hello" }] }],
    ["tool use", { messages: [{ role: "user", content: "look up dana@example.com" }], tools: [{ name: "find_customers", input_schema: { type: "object" } }, { name: "list_charges", input_schema: { type: "object" } }] }],
    ["a forced structured answer", { messages: [{ role: "user", content: "judge" }], tools: [{ name: "verdict", input_schema: { type: "object" } }], tool_choice: { type: "tool", name: "verdict" } }],
    ["a refusal", { messages: [{ role: "user", content: "refuse please" }] }],
    ["a cut-off answer", { messages: [{ role: "user", content: "cut it" }] }],
  ];
  for (const [what, params] of cases)
    it(`accumulates ${what} to the non-streamed message`, async () => {
      const body = { model: "claude-haiku-4-5", max_tokens: 512, messages: [], ...params } as Anthropic.MessageCreateParamsNonStreaming;
      const whole = await anthropic.messages.create(body);
      const streamed = await anthropic.messages.stream(body).finalMessage();
      expect(comparable(streamed)).toEqual(comparable(whole));
    });
});

describe("the Responses API, streamed and not (openai SDK)", () => {
  const FN = [
    { type: "function" as const, name: "find_customers", strict: false, parameters: { type: "object", properties: { email: { type: "string" } } } },
    { type: "function" as const, name: "list_charges", strict: false, parameters: { type: "object", properties: { customer: { type: "string" } } } },
  ];
  const cases: [string, Partial<OpenAI.Responses.ResponseCreateParamsNonStreaming>][] = [
    ["text from a string input", { input: "hello", instructions: "Be brief." }],
    ["function calls", { input: [{ role: "user", content: "look up dana@example.com" }], tools: FN }],
    ["a json_schema answer", { input: "judge this", text: { format: { type: "json_schema", name: "verdict", strict: true, schema: VERDICT.json_schema.schema } } }],
    ["a refusal", { input: "refuse please" }],
    ["a cut-off answer", { input: "cut it" }],
  ];
  for (const [what, params] of cases)
    it(`accumulates ${what} to the non-streamed response`, async () => {
      const body = { model: "o4-mini", reasoning: { effort: "high" }, store: false, ...params } as OpenAI.Responses.ResponseCreateParamsNonStreaming;
      const whole = await openai.responses.create(body);
      const streamed = await openai.responses.stream({ ...body, stream: true }).finalResponse();
      expect(comparable(streamed)).toEqual(comparable(whole));
      expect(streamed.output_text).toBe(whole.output_text);
      expect(streamed.status).toBe(whole.status);
      expect(streamed.usage).toEqual(whole.usage);
      expect(whole.reasoning?.effort).toBe("high");
    });
});
