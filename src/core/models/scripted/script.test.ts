// The script format: clear errors for every mistake, rules matched in order, `times` falling through.
import { describe, expect, it } from "vitest";
import { loadScript } from "./script";
import { ScriptedModel } from "./handler";

const post = (body: unknown, path = "/v1/chat/completions") => ({ method: "POST", path, headers: {}, body: JSON.stringify(body) });

describe("scripted model: the script", () => {
  it("names every problem by its place in the file", () => {
    const bad = loadScript(
      ["version: 1", "rules:", "  - respond: { text: hi, json: {} }", "  - when: { last_message: '(' }", "    respond: { text: x }", "  - when: { modle: x }", "    respond: { hang: true, stop: length }"].join("\n"),
      "judge.script.yaml",
    );
    expect(bad.ok).toBe(false);
    const problems = bad.ok ? [] : bad.problems;
    expect(problems).toContainEqual("judge.script.yaml: rules[0].respond: has text and json: give exactly one of text, json, raw, tool_calls, refuse, error, hang");
    expect(problems.some((p) => p.startsWith('judge.script.yaml: rules[2].when: Unrecognized key: "modle"'))).toBe(true);
    expect(problems).toContainEqual("judge.script.yaml: rules[2].respond.stop: applies only to text, json or raw");
    expect(loadScript("version: 1\nrules:\n  - when: { last_message: '(' }\n    respond: { text: x }\n", "s.yaml")).toMatchObject({ ok: false, problems: [expect.stringMatching(/^s\.yaml: rules\[0\]\.when\.last_message \(rule 1\): not a regular expression/)] });
    expect(loadScript("version: 2\nrules: []", "s.yaml")).toMatchObject({ ok: false });
    expect(loadScript("{not yaml", "s.yaml")).toMatchObject({ ok: false, problems: [expect.stringMatching(/^s\.yaml: not YAML or JSON/)] });
  });

  it("matches rules in order on model, tools, schema and the last message; `times` falls through", async () => {
    const loaded = loadScript(
      JSON.stringify({
        version: 1,
        rules: [
          { name: "first-two", times: 2, when: { model: "gpt-*" }, respond: { text: "early" } },
          { name: "tools", when: { tools: true }, respond: { tool_calls: [{ name: "lookup", arguments: { q: "x" } }] } },
          { name: "tool-result", when: { role: "tool", last_message: "id=(\\w+)" }, respond: { text: "got $1 ($$5)" } },
          { name: "rest", respond: { text: "late" } },
        ],
      }),
      "s.json",
    );
    if (!loaded.ok) throw new Error(loaded.problems.join());
    const m = new ScriptedModel(loaded.script);
    const text = async (body: unknown) => JSON.parse((await m.handle(post(body))).body).choices[0].message;
    const plain = { model: "gpt-4.1-mini", messages: [{ role: "user", content: "hi" }] };
    expect((await text(plain)).content).toBe("early");
    expect((await text(plain)).content).toBe("early");
    expect((await text(plain)).content).toBe("late");
    expect((await text({ ...plain, tools: [{ type: "function", function: { name: "lookup", parameters: {} } }] })).tool_calls[0].function).toEqual({ name: "lookup", arguments: '{"q":"x"}' });
    expect((await text({ ...plain, messages: [...plain.messages, { role: "tool", tool_call_id: "c1", content: "found id=cus_9" }] })).content).toBe("got cus_9 ($5)");
    expect(m.received().map((r) => r.rule)).toEqual(["first-two", "first-two", "rest", "tools", "tool-result"]);
  });

  it("tells structured answers apart by their name (response format or forced tool)", async () => {
    const loaded = loadScript(
      JSON.stringify({ version: 1, rules: [{ when: { answer: "person_reply" }, respond: { json: { reply: "hi", done: false } } }, { when: { schema: true }, respond: { json: { asked: [] } } }] }),
      "s.json",
    );
    if (!loaded.ok) throw new Error(loaded.problems.join());
    const m = new ScriptedModel(loaded.script);
    const ask = (name: string) => ({ model: "m", messages: [{ role: "user", content: "x" }], response_format: { type: "json_schema", json_schema: { name, schema: {} } } });
    const content = async (body: unknown) => JSON.parse(JSON.parse((await m.handle(post(body))).body).choices[0].message.content);
    expect(await content(ask("person_asked"))).toEqual({ asked: [] });
    expect(await content(ask("person_reply"))).toEqual({ reply: "hi", done: false });
    const forced = { model: "m", messages: [{ role: "user", content: "x" }], tools: [{ type: "function", function: { name: "person_reply", parameters: {} } }], tool_choice: { type: "function", function: { name: "person_reply" } } };
    expect(JSON.parse(JSON.parse((await m.handle(post(forced))).body).choices[0].message.tool_calls[0].function.arguments)).toEqual({ reply: "hi", done: false });
  });

  it("answers what it cannot serve with a clear error", async () => {
    const loaded = loadScript("version: 1\nrules:\n  - when: { last_message: never }\n    respond: { text: x }\n", "s.yaml");
    if (!loaded.ok) throw new Error();
    const m = new ScriptedModel(loaded.script);
    const miss = await m.handle(post({ model: "m", messages: [{ role: "user", content: "hello" }] }));
    expect(miss.status).toBe(400);
    expect(JSON.parse(miss.body).error.message).toMatch(/^no rule in the script matches this request \(chat, model m, no tools, no schema, last user: "hello"\)/);
    expect((await m.handle(post({ model: "m", messages: [{ role: "user", content: "x" }], stream: "yes" }))).status).toBe(400);
    expect((await m.handle({ method: "POST", path: "/v1/embeddings", headers: {}, body: "{}" })).status).toBe(404);
    const an = await m.handle(post({ model: "m", max_tokens: 5, messages: [] }, "/v1/messages"));
    expect(JSON.parse(an.body)).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
  });

  it("matches in linear time: a catastrophic pattern and a hostile model id answer at once (issue 34)", async () => {
    const loaded = loadScript(
      JSON.stringify({
        version: 1,
        rules: [
          { name: "nested", when: { last_message: "(a+)+$" }, respond: { text: "matched" } },
          { name: "glob", when: { model: "gpt-*-*-*-mini" }, respond: { text: "glob" } },
          { name: "rest", respond: { text: "rest" } },
        ],
      }),
      "s.json",
    );
    if (!loaded.ok) throw new Error(loaded.problems.join());
    const m = new ScriptedModel(loaded.script);
    const timed = async (body: unknown) => {
      const t = performance.now();
      const res = JSON.parse((await m.handle(post(body))).body).choices[0].message.content as string;
      return { res, ms: performance.now() - t };
    };
    // A backtracking engine takes about 2^n steps on n a's before the "!": 30 is tens of seconds, 64 forever.
    for (const n of [30, 64]) {
      const { res, ms } = await timed({ model: "m", messages: [{ role: "user", content: `${"a".repeat(n)}!` }] });
      expect(res).toBe("rest");
      expect(ms).toBeLessThan(1_000);
    }
    expect((await timed({ model: "m", messages: [{ role: "user", content: "xaaa" }] })).res).toBe("matched");
    // The glob reads the whole model id in one pass per piece; as a regex it was cubic in it.
    const hostile = await timed({ model: `gpt-${"-".repeat(20_000)}`, messages: [{ role: "user", content: "!" }] });
    expect(hostile.res).toBe("rest");
    expect(hostile.ms).toBeLessThan(1_000);
    expect((await timed({ model: "gpt-4-1-x-mini", messages: [{ role: "user", content: "!" }] })).res).toBe("glob");
    expect((await timed({ model: "gpt-4-mini", messages: [{ role: "user", content: "!" }] })).res).toBe("rest");
    // A message of any size costs the same: the pattern reads its first MAX_MATCHED_CHARS.
    const big = await timed({ model: "m", messages: [{ role: "user", content: `${"a".repeat(2_000_000)}!` }] });
    expect(big.res).toBe("matched");
    expect(big.ms).toBeLessThan(2_000);
  });

  it("refuses lookaround and backreferences when the script loads, naming the rule", () => {
    const loaded = loadScript("version: 1\nrules:\n  - name: customer\n    when: { last_message: '^(?=.*customer)(\\w+)' }\n    respond: { text: x }\n  - when: { last_message: '(a)\\1' }\n    respond: { text: y }\n", "s.yaml");
    expect(loaded.ok).toBe(false);
    const problems = loaded.ok ? [] : loaded.problems;
    expect(problems[0]).toMatch(/^s\.yaml: rules\[0\]\.when\.last_message \(customer\): not a regular expression worlds can match: .*\(matching is linear-time RE2: lookahead, lookbehind and backreferences are not supported\)$/);
    expect(problems[1]).toMatch(/^s\.yaml: rules\[1\]\.when\.last_message \(rule 2\): /);
  });

  it("p: answers with that probability, each draw keyed on the rule, the message and its repetition, so runs repeat", async () => {
    const script = JSON.stringify({ version: 1, rules: [{ name: "right", p: 0.7, when: { role: "user" }, respond: { text: "right" } }, { name: "wrong", respond: { text: "wrong" } }] });
    const loaded = loadScript(script, "s.json");
    if (!loaded.ok) throw new Error(loaded.problems.join());
    const answers = async (m: ScriptedModel, content: string, n: number) => {
      const out: string[] = [];
      for (let i = 0; i < n; i++) out.push(JSON.parse((await m.handle(post({ model: "m", messages: [{ role: "user", content }] }))).body).choices[0].message.content);
      return out;
    };
    const first = await answers(new ScriptedModel(loaded.script), "refund order QH4821", 200);
    const right = first.filter((a) => a === "right").length;
    expect(right).toBeGreaterThan(120);
    expect(right).toBeLessThan(160);
    // A fresh server (or one reset) draws the same sequence; another message draws its own.
    expect(await answers(new ScriptedModel(loaded.script), "refund order QH4821", 200)).toEqual(first);
    const m = new ScriptedModel(loaded.script);
    await answers(m, "refund order QH4821", 50);
    m.reset();
    expect(await answers(m, "refund order QH4821", 200)).toEqual(first);
    expect(await answers(new ScriptedModel(loaded.script), "refund order QH4907", 200)).not.toEqual(first);
    expect(loadScript(JSON.stringify({ version: 1, rules: [{ p: 1.5, respond: { text: "x" } }] }), "s.json")).toMatchObject({ ok: false, problems: [expect.stringContaining("rules[0].p:")] });
  });
});
