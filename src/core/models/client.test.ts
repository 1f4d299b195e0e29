// The model client against the scripted model, in-process: every answer shape, every failure, retries, the
// budget, the cache, and the key kept out of everything the client returns. No network, no real sleeps.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { MemoryBudget } from "./budget";
import { MemoryCache } from "./cache";
import { ModelClient, type ModelClientOptions } from "./client";
import { parseModelName, type ModelName } from "./names";
import { compileScript, ScriptedModel, scriptedFetch } from "./scripted/index";
import { structured } from "./structured";
import type { ModelRequest } from "./types";
import { SHIPPED_PRICES, priceOf, costMicros } from "./prices";

const KEY = "sk-test-0123456789abcdefSECRET";
const name = (s: string): ModelName => {
  const p = parseModelName(s);
  if (!p.ok) throw new Error(p.message);
  return p.value;
};

function setup(rules: unknown[], opts: Partial<ModelClientOptions> = {}) {
  const compiled = compileScript({ version: 1, rules });
  if (!compiled.ok) throw new Error(compiled.problems.join("\n"));
  const model = new ScriptedModel(compiled.script);
  const waits: number[] = [];
  const client = new ModelClient({
    endpoints: { openai: { provider: "openai", baseUrl: "http://scripted.test/v1", key: KEY }, anthropic: { provider: "anthropic", baseUrl: "http://scripted.test", key: KEY } },
    fetch: scriptedFetch(model),
    sleep: async (ms) => void waits.push(ms),
    random: () => 0.5,
    ...opts,
  });
  return { model, client, waits };
}

const ask = (model: string, text: string, extra: Partial<ModelRequest> = {}): ModelRequest => ({ model: name(model), messages: [{ role: "user", content: text }], ...extra });
const Verdict = z.strictObject({ verdict: z.enum(["pass", "fail"]), why: z.string() });
const verdictOut = structured("verdict", Verdict);

describe("model client: answers", () => {
  it("reads a text answer from both wire formats, with usage and cost", async () => {
    const { client, model } = setup([{ when: { last_message: "hello (\\w+)" }, respond: { text: "hi $1", usage: { input_tokens: 1000, output_tokens: 500 } } }]);
    for (const m of ["openai:gpt-4.1-mini", "anthropic:claude-sonnet-4-5"]) {
      const r = await client.call(ask(m, "hello world"));
      expect(r.ok && r.answer.text).toBe("hi world");
      expect(r.usage).toEqual({ input_tokens: 1000, output_tokens: 500 });
      expect(r.micros).toBe(costMicros(priceOf(SHIPPED_PRICES, name(m))!, r.usage));
      expect(r.attempts).toBe(1);
    }
    expect(model.received().map((x) => [x.wire, x.path, x.credentials])).toEqual([["openai", "/v1/chat/completions", true], ["anthropic", "/v1/messages", true]]);
    expect(JSON.stringify(model.received())).not.toContain(KEY);
  });

  it("gets structured answers by response format (OpenAI) and by a forced tool (Anthropic, or OpenAI via: tool)", async () => {
    const { client, model } = setup([{ when: { schema: true }, respond: { json: { verdict: "pass", why: "it followed the rule" } } }]);
    for (const [m, via] of [["openai:gpt-4.1-mini", undefined], ["anthropic:claude-haiku-4-5", undefined], ["openai:llama3", "tool"]] as const) {
      const r = await client.call(ask(m, "judge this", { output: { ...verdictOut.output, via } }), { validate: verdictOut.validate });
      expect(r.ok && r.value).toEqual({ verdict: "pass", why: "it followed the rule" });
    }
    const [oa, an, tool] = model.received().map((x) => x.body as Record<string, unknown>);
    expect(oa.response_format).toMatchObject({ type: "json_schema", json_schema: { name: "verdict", strict: true } });
    expect(an.tool_choice).toEqual({ type: "tool", name: "verdict" });
    expect(tool.tool_choice).toEqual({ type: "function", function: { name: "verdict" } });
  });

  it("records malformed, truncated and refused answers as errors with the raw text, never as a value", async () => {
    const { client } = setup([
      { when: { last_message: "broken" }, respond: { raw: '{"verdict": "pass", "why": ' } },
      { when: { last_message: "wrong shape" }, respond: { json: { verdict: "maybe", why: 3 } } },
      { when: { last_message: "too long" }, respond: { raw: '{"verdict": "pa', stop: "length" } },
      { when: { last_message: "refuse" }, respond: { refuse: "I can't help with that." } },
      { when: { last_message: "no tool", provider: "anthropic" }, respond: { text: "The agent passed." } },
    ]);
    const call = (m: string, t: string) => client.call(ask(m, t, { output: verdictOut.output }), { validate: verdictOut.validate });
    const broken = await call("openai:gpt-4.1-mini", "broken");
    expect(broken).toMatchObject({ ok: false, error: { kind: "malformed", raw: '{"verdict": "pass", "why": ' } });
    const shape = await call("openai:gpt-4.1-mini", "wrong shape");
    expect(shape.ok || shape.error.message).toMatch(/does not match the verdict schema: verdict: .*; why:/);
    expect(shape.ok || shape.error.raw).toBe('{"verdict":"maybe","why":3}');
    for (const m of ["openai:gpt-4.1-mini", "anthropic:claude-haiku-4-5"]) {
      expect(await call(m, "refuse")).toMatchObject({ ok: false, error: { kind: "refused", raw: "I can't help with that." } });
    }
    expect(await call("openai:gpt-4.1-mini", "too long")).toMatchObject({ ok: false, error: { kind: "truncated", raw: '{"verdict": "pa' } });
    expect(await call("anthropic:claude-haiku-4-5", "no tool")).toMatchObject({ ok: false, error: { kind: "malformed", raw: "The agent passed." } });
  });
});

describe("model client: the Responses API and reasoning effort", () => {
  it("reads names with an API and an effort, never putting the effort in the model id", () => {
    expect(parseModelName("openai:o4-mini@high")).toEqual({ ok: true, value: { provider: "openai", model: "o4-mini", effort: "high" } });
    expect(parseModelName("openai-responses:gpt-5-mini@low")).toEqual({ ok: true, value: { provider: "openai", model: "gpt-5-mini", api: "responses", effort: "low" } });
    // An @ that is no effort word belongs to the id (Vertex-style dated ids); a misspelt effort is refused.
    expect(parseModelName("anthropic:claude-sonnet-4@20250514")).toEqual({ ok: true, value: { provider: "anthropic", model: "claude-sonnet-4@20250514" } });
    expect(parseModelName("openai:o4-mini@hgih")).toEqual({ ok: false, message: "unknown reasoning effort 'hgih' in 'openai:o4-mini@hgih': use one of none, minimal, low, medium, high, xhigh" });
    expect(parseModelName("openai-chat:x")).toMatchObject({ ok: false, message: expect.stringContaining("use openai, openai-responses, anthropic") });
  });

  it("sends Responses requests and reads text, function calls, structured answers, refusals and cut-off answers", async () => {
    const { client, model } = setup([
      { when: { api: "responses", role: "tool" }, respond: { text: "done" } },
      { when: { api: "responses", tools: true }, respond: { tool_calls: [{ name: "lookup", arguments: { q: "x" } }] } },
      { when: { api: "responses", last_message: "^refuse" }, respond: { refuse: "no" } },
      { when: { api: "responses", last_message: "^cut" }, respond: { raw: '{"verdict":', stop: "length" } },
      { when: { api: "responses", schema: true }, respond: { json: { verdict: "pass", why: "fine" } } },
      { when: { api: "responses" }, respond: { text: "hi", usage: { input_tokens: 10, output_tokens: 2 } } },
    ]);
    const m = "openai-responses:o4-mini@high";
    const text = await client.call(ask(m, "hello", { system: "Be brief." }));
    expect(text).toMatchObject({ ok: true, answer: { text: "hi", stop: "end", usage: { input_tokens: 10, output_tokens: 2 } } });
    const tools = [{ name: "lookup", parameters: { type: "object" } }];
    const call = await client.call(ask(m, "find x", { tools }));
    expect(call.ok && call.answer.toolCalls).toEqual([{ id: "call_scripted_000002_1", name: "lookup", arguments: { q: "x" } }]);
    const after = await client.call({ model: name(m), tools, messages: [{ role: "user", content: "find x" }, { role: "assistant", content: null, toolCalls: call.ok ? call.answer.toolCalls : [] }, { role: "tool", toolCallId: "call_scripted_000002_1", content: "found" }] });
    expect(after.ok && after.answer.text).toBe("done");
    for (const via of [undefined, "tool"] as const) {
      const v = await client.call(ask(m, "judge", { output: { ...verdictOut.output, via } }), { validate: verdictOut.validate });
      expect(v.ok && v.value).toEqual({ verdict: "pass", why: "fine" });
    }
    expect(await client.call(ask(m, "refuse it", { output: verdictOut.output }), { validate: verdictOut.validate })).toMatchObject({ ok: false, error: { kind: "refused" } });
    expect(await client.call(ask(m, "cut it", { output: verdictOut.output }), { validate: verdictOut.validate })).toMatchObject({ ok: false, error: { kind: "truncated" } });
    const bodies = model.received().map((x) => x.body as Record<string, unknown>);
    expect(model.received().every((x) => x.path === "/v1/responses")).toBe(true);
    expect(bodies[0]).toEqual({ model: "o4-mini", instructions: "Be brief.", input: [{ role: "user", content: "hello" }], max_output_tokens: 1024, reasoning: { effort: "high" }, store: false });
    expect(bodies[2].input).toEqual([
      { role: "user", content: "find x" },
      { type: "function_call", call_id: "call_scripted_000002_1", name: "lookup", arguments: '{"q":"x"}' },
      { type: "function_call_output", call_id: "call_scripted_000002_1", output: "found" },
    ]);
    expect(bodies[3].text).toMatchObject({ format: { type: "json_schema", name: "verdict", strict: true } });
  });

  it("sends an effort as reasoning_effort on Chat Completions and as a thinking budget on Anthropic", async () => {
    const { client, model } = setup([{ respond: { text: "ok" } }]);
    await client.call(ask("openai:o4-mini@medium", "hi"));
    await client.call(ask("anthropic:claude-sonnet-4-5@high", "hi", { maxTokens: 500 }));
    await client.call(ask("openai:gpt-4.1-mini", "hi"));
    const [chat, anthropic, plain] = model.received().map((x) => x.body as Record<string, unknown>);
    expect(chat).toMatchObject({ model: "o4-mini", reasoning_effort: "medium", max_completion_tokens: 1024 });
    expect(chat).not.toHaveProperty("temperature");
    expect(anthropic).toMatchObject({ model: "claude-sonnet-4-5", max_tokens: 500 + 16384, thinking: { type: "enabled", budget_tokens: 16384 } });
    expect(anthropic).not.toHaveProperty("temperature");
    expect(plain).toMatchObject({ max_tokens: 1024, temperature: 0 });
    expect(plain).not.toHaveProperty("reasoning_effort");
  });
});

describe("model client: retries, timeouts, limits", () => {
  it("retries a 429 storm honouring Retry-After, then answers", async () => {
    const { client, waits, model } = setup([
      { name: "storm", times: 3, respond: { error: { status: 429, retry_after: 2 } } },
      { respond: { text: "finally" } },
    ]);
    const r = await client.call(ask("openai:gpt-4.1-mini", "x"));
    expect(r.ok && r.answer.text).toBe("finally");
    expect(r.attempts).toBe(4);
    expect(waits).toEqual([2000, 2000, 2000]);
    expect(model.received().map((x) => x.status)).toEqual([429, 429, 429, 200]);
  });

  it("gives up after its attempts with the last status, and backs off with jitter when there is no Retry-After", async () => {
    const { client, waits } = setup([{ respond: { error: { status: 503, message: "overloaded" } } }], { retry: { maxAttempts: 3, baseDelayMs: 100 } });
    const r = await client.call(ask("anthropic:claude-haiku-4-5", "x"));
    expect(r).toMatchObject({ ok: false, attempts: 3, error: { kind: "http", status: 503 } });
    expect(r.ok || r.error.message).toBe("anthropic answered HTTP 503: overloaded (after 3 attempts)");
    expect(waits).toEqual([75, 150]);
  });

  it("does not retry a request error, nor wait for a Retry-After past its limit", async () => {
    const { client, waits } = setup([
      { when: { last_message: "bad" }, respond: { error: { status: 400, message: "bad request" } } },
      { respond: { error: { status: 429, retry_after: 3600 } } },
    ]);
    expect(await client.call(ask("openai:gpt-4.1-mini", "bad"))).toMatchObject({ ok: false, attempts: 1, error: { kind: "http", status: 400 } });
    const r = await client.call(ask("openai:gpt-4.1-mini", "x"));
    expect(r).toMatchObject({ ok: false, attempts: 1 });
    expect(r.ok || r.error.message).toMatch(/asked to wait 3600 s/);
    expect(waits).toEqual([]);
  });

  it("times out a hung model on every attempt and says so", async () => {
    const { client } = setup([{ respond: { hang: true } }], { timeoutMs: 50, retry: { maxAttempts: 2 } });
    const r = await client.call(ask("openai:gpt-4.1-mini", "x"));
    expect(r).toMatchObject({ ok: false, attempts: 2, error: { kind: "timeout", raw: null } });
    expect(r.ok || r.error.message).toBe("openai did not answer within 50 ms (after 2 attempts)");
  });

  it("runs at most `concurrency` calls at once", async () => {
    let inFlight = 0;
    let peak = 0;
    const base = scriptedFetch(new ScriptedModel((compileScript({ version: 1, rules: [{ latency_ms: 20, respond: { text: "ok" } }] }) as { ok: true; script: never }).script));
    const counting = new ModelClient({
      endpoints: { openai: { provider: "openai", baseUrl: "http://scripted.test/v1", key: null } },
      concurrency: 2,
      fetch: async (i, init) => {
        peak = Math.max(peak, ++inFlight);
        try {
          return await base(i, init);
        } finally {
          inFlight--;
        }
      },
    });
    const all = await Promise.all(Array.from({ length: 6 }, () => counting.call(ask("openai:gpt-4.1-mini", "x"))));
    expect(all.every((r) => r.ok)).toBe(true);
    expect(peak).toBe(2);
  });
});

describe("model client: budget and cache", () => {
  it("sends nothing once the budget cannot hold a call, and says skipped for budget", async () => {
    const budget = new MemoryBudget(2_000); // $0.002
    const { client, model } = setup([{ respond: { text: "ok", usage: { input_tokens: 1000, output_tokens: 200 } } }], { budget });
    // gpt-4.1-mini: worst case of a small request with max_tokens 400 ~ 0.00069; each answer costs 0.00072.
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await client.call(ask("openai:gpt-4.1-mini", `question ${i}`, { maxTokens: 400 })));
    const kinds = results.map((r) => (r.ok ? "ok" : r.error.kind));
    expect(kinds).toEqual(["ok", "ok", "budget", "budget", "budget"]);
    expect(model.received()).toHaveLength(2);
    expect(await budget.spentMicros()).toBe(1440);
    expect(results[2].ok || results[2].error.message).toMatch(/^skipped for budget: \$0\.0014 of the \$0\.0020 budget/);
  });

  it("refuses a budget for a model it cannot price", async () => {
    const { client, model } = setup([{ respond: { text: "ok" } }], { budget: new MemoryBudget(1_000_000) });
    const r = await client.call(ask("openai:my-local-llama", "x"));
    expect(r).toMatchObject({ ok: false, error: { kind: "config" } });
    expect(model.received()).toHaveLength(0);
  });

  it("answers a repeated request from the cache at no cost, and never caches a malformed answer", async () => {
    const cache = new MemoryCache();
    const { client, model } = setup([
      { when: { last_message: "broken" }, respond: { raw: "not json" } },
      { respond: { json: { verdict: "fail", why: "no" } } },
    ], { cache });
    const req = ask("openai:gpt-4.1-mini", "judge", { output: verdictOut.output });
    const first = await client.call(req, { validate: verdictOut.validate });
    const second = await client.call(req, { validate: verdictOut.validate });
    expect([first.cached, second.cached]).toEqual([false, true]);
    expect(second).toMatchObject({ ok: true, micros: 0, attempts: 0, value: { verdict: "fail", why: "no" } });
    await client.call(ask("openai:gpt-4.1-mini", "broken", { output: verdictOut.output }), { validate: verdictOut.validate });
    await client.call(ask("openai:gpt-4.1-mini", "broken", { output: verdictOut.output }), { validate: verdictOut.validate });
    expect(model.received()).toHaveLength(3);
    expect(cache.entries.size).toBe(1);
  });
});

describe("model client: keys", () => {
  it("never returns the key, even when the server echoes it back", async () => {
    const { client } = setup([
      { when: { last_message: "echo-error" }, respond: { error: { status: 401, message: `Incorrect API key provided: ${KEY}` } } },
      { when: { last_message: "echo-answer" }, respond: { raw: `your key is ${KEY}` } },
    ]);
    const a = await client.call(ask("openai:gpt-4.1-mini", "echo-error"));
    const b = await client.call(ask("anthropic:claude-haiku-4-5", "echo-answer", { output: verdictOut.output }), { validate: verdictOut.validate });
    const text = JSON.stringify([a, b]);
    expect(text).not.toContain(KEY);
    expect(text).toContain("[redacted]");
  });
});
