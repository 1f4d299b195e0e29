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

describe("Responses conversations and the api matcher", () => {
  it("carries a function call over previous_response_id, streamed, and tells the three APIs apart", async () => {
    const FN = [{ type: "function" as const, name: "find_customers", strict: false, parameters: { type: "object", properties: {} } }];
    const first = await openai.responses.create({ model: "o4-mini", input: "look up dana@example.com", tools: FN });
    const calls = first.output.filter((o) => o.type === "function_call");
    expect(calls.map((c) => [c.name, JSON.parse(c.arguments)])).toEqual([
      ["find_customers", { email: "dana@example.com", limit: 3 }],
      ["list_charges", { customer: "cus_1" }],
    ]);
    const second = await openai.responses
      .stream({ model: "o4-mini", previous_response_id: first.id, tools: FN, input: calls.map((c) => ({ type: "function_call_output" as const, call_id: c.call_id, output: '{"id":"cus_dana"}' })) })
      .finalResponse();
    expect(second.output_text).toBe("Found customer dana; refunding the duplicate charge now.");
    expect(second.previous_response_id).toBe(first.id);
    // The same question over each API: `api: responses` wins on Responses, `provider: openai` covers chat.
    const ask = "which api is this";
    expect((await openai.responses.create({ model: "m", input: ask })).output_text).toBe("responses");
    expect((await openai.chat.completions.create({ model: "m", messages: [{ role: "user", content: ask }] })).choices[0].message.content).toBe("chat");
    const rules = server.received().slice(-2).map((r) => [r.api, r.rule]);
    expect(rules).toEqual([
      ["responses", "responses-only"],
      ["chat", "openai"],
    ]);
  });

  it("forgets a response sent with store: false", async () => {
    const r = await openai.responses.create({ model: "m", input: "hello", store: false });
    const err = await openai.responses.create({ model: "m", previous_response_id: r.id, input: "again" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as InstanceType<typeof OpenAI.BadRequestError>).error).toMatchObject({ message: `Previous response with id '${r.id}' not found.`, param: "previous_response_id" });
  });
});

describe("bad requests get the provider's own error envelope", () => {
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${server.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as { error: { message: string; type: string; param?: string | null } } };
  };
  it("answers 400 with the field at fault, never a 500 or a hang", async () => {
    const chat = { model: "m", messages: [{ role: "user", content: "hi" }] };
    expect(await post("/v1/chat/completions", { ...chat, stream: true, stream_options: "yes" })).toEqual({
      status: 400,
      body: { error: { message: "Invalid type for 'stream_options': expected an object, but got a string instead.", type: "invalid_request_error", param: "stream_options", code: "invalid_type" } },
    });
    expect((await post("/v1/chat/completions", { ...chat, stream_options: { include_usage: true } })).body.error.message).toBe("The 'stream_options' parameter is only allowed when 'stream' is enabled.");
    expect(await post("/v1/messages", { model: "m", max_tokens: 5, messages: [{ role: "user", content: "hi" }], stream: "yes" })).toEqual({ status: 400, body: { type: "error", error: { type: "invalid_request_error", message: "stream: Input should be a valid boolean" } } });
    const unknown = await post("/v1/responses", { model: "m", stream: true, input: [{ role: "user", content: "hi" }, { type: "image_generation_call", id: "x" }] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ param: "input[1].type", message: expect.stringMatching(/^Invalid value: 'image_generation_call'\. Supported values are: 'message', 'function_call'/) });
    const orphan = await post("/v1/responses", { model: "m", input: [{ type: "function_call_output", call_id: "call_never", output: "{}" }] });
    expect(orphan).toMatchObject({ status: 400, body: { error: { message: "No tool call found for function call output with call_id call_never.", param: "input" } } });
    expect((await post("/v1/responses", { model: "m", input: 5 })).body.error.param).toBe("input");
    expect((await post("/v1/responses", { model: "m", input: "x", reasoning: { effort: "max" } })).body.error.param).toBe("reasoning.effort");
    // The SDKs raise these as their own error classes.
    const wrong = { ...chat, stream: true, stream_options: "yes" } as unknown as OpenAI.ChatCompletionCreateParamsStreaming;
    const sdk = await openai.chat.completions.create(wrong).catch((e: unknown) => e);
    expect(sdk).toBeInstanceOf(OpenAI.BadRequestError);
  });
});

describe("streams in time", () => {
  it("spreads latency_ms over the events; a hang stops mid-stream; a dropped stream leaves the server serving others", async () => {
    const started = performance.now();
    const arrivals: number[] = [];
    const slow = await openai.chat.completions.create({ model: "m", stream: true, messages: [{ role: "user", content: "slow please" }] });
    let text = "";
    for await (const chunk of slow) {
      arrivals.push(performance.now() - started);
      text += chunk.choices[0]?.delta.content ?? "";
    }
    const total = performance.now() - started;
    expect(text).toMatch(/^one two three .* sixteen$/);
    expect(total).toBeGreaterThanOrEqual(1_400);
    expect(arrivals[0]).toBeLessThan(total / 2);

    // A hanging rule sends its first event and then nothing: the client's own timeout ends it.
    const ctl = new AbortController();
    const hung = await anthropic.messages.create({ model: "claude", max_tokens: 50, stream: true, messages: [{ role: "user", content: "hang on" }] }, { signal: ctl.signal });
    const seen: string[] = [];
    const reading = (async () => {
      for await (const ev of hung) {
        seen.push(ev.type);
        setTimeout(() => ctl.abort(), 200);
      }
    })();
    // The SDK ends its iteration quietly on its own abort.
    await reading;
    expect(ctl.signal.aborted).toBe(true);
    expect(seen).toEqual(["message_start"]);

    // A client that drops a slow stream after its first chunk: the next requests are answered at once.
    const drop = new AbortController();
    const dropped = await openai.chat.completions.create({ model: "m", stream: true, messages: [{ role: "user", content: "slow again" }] }, { signal: drop.signal });
    for await (const _ of dropped) {
      drop.abort();
      break;
    }
    const t = performance.now();
    const [a, b] = await Promise.all([
      openai.chat.completions.create({ model: "m", messages: [{ role: "user", content: "hello" }] }),
      anthropic.messages.stream({ model: "c", max_tokens: 50, messages: [{ role: "user", content: "hello" }] }).finalMessage(),
    ]);
    expect(a.choices[0].message.content).toMatch(/^Hello there/);
    expect(b.content[0]).toMatchObject({ type: "text", text: expect.stringMatching(/^Hello there/) });
    expect(performance.now() - t).toBeLessThan(1_000);
  });
});
