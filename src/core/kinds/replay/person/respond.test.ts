// The person against the scripted model in-process: a when_asked fact stays out of the person's prompt until the
// agent asks for it, then stays in; nothing is asked once nothing is held back; done from the model or the turn
// limit; the deterministic settings on the wire; a rerun answered from the cache; a model failure returned.
import { describe, expect, it } from "vitest";
import { compileScript, ScriptedModel, scriptedFetch } from "../../../models/scripted/index";
import { MemoryCache, ModelClient, type ModelName } from "../../../models/index";
import { openConversation, personSpec, respondAsPerson, type PersonConversation } from "./index";

const MODEL: ModelName = { provider: "openai", model: "person-model" };
const spec = personSpec.parse({
  brief: "You are Dana Reyes. You were charged twice for your March order and want the duplicate refunded.",
  facts: [
    { text: "You paid on March 14 with a Visa ending 4242.", disclose: "always" },
    { text: "Your order number is A-1042.", disclose: "when_asked" },
    { text: "You also want the February late fee waived.", disclose: "when_asked", extra: "ignored" },
  ],
  unknown_field: true,
});

const RULES = [
  { name: "asked-order", when: { answer: "person_asked", last_message: "order number" }, respond: { json: { asked: [2, 1, 99] } } },
  { name: "asked-none", when: { answer: "person_asked" }, respond: { json: { asked: [] } } },
  { name: "reply-order", when: { answer: "person_reply", last_message: "order number" }, respond: { json: { reply: " It's A-1042. ", done: false } } },
  { name: "reply-done", when: { answer: "person_reply", last_message: "refunded" }, respond: { json: { reply: "Great, thanks!", done: true } } },
  { name: "reply", when: { answer: "person_reply" }, respond: { json: { reply: "I was charged twice.", done: false } } },
];

function setup(rules: unknown[] = RULES, cache: MemoryCache | null = null) {
  const compiled = compileScript({ version: 1, rules });
  if (!compiled.ok) throw new Error(compiled.problems.join("\n"));
  const model = new ScriptedModel(compiled.script);
  const client = new ModelClient({ endpoints: { openai: { provider: "openai", baseUrl: "http://scripted.test/v1", key: null } }, fetch: scriptedFetch(model), sleep: async () => undefined, cache });
  return { model, person: { client, model: MODEL } };
}

const systemOf = (body: unknown) => ((body as { messages: Array<{ role: string; content: string }> }).messages.find((m) => m.role === "system")?.content ?? "");

describe("the simulated person", () => {
  it("holds a when_asked fact back until the agent asks for it", async () => {
    const { model, person } = setup();
    const opening = "Hi, I was charged twice for my March order.";
    let c: PersonConversation = openConversation(opening);
    const first = await respondAsPerson({ spec, opening, conversation: c, said: "Hello! Sorry to hear that. Let me look.", person });
    if (!first.ok) throw new Error(first.error.message);
    expect(first).toMatchObject({ reply: "I was charged twice.", done: false, newlyDisclosed: [] });
    c = first.conversation;
    let sent = model.received();
    expect(sent.map((r) => r.rule)).toEqual(["asked-none", "reply"]);
    // The classifier sees the held-back facts, numbered; the person's own prompt has only what it may say.
    expect(systemOf(sent[0]!.body)).toContain("[2] Your order number is A-1042.");
    expect(systemOf(sent[0]!.body)).not.toContain("Visa");
    expect(systemOf(sent[1]!.body)).toContain("Visa ending 4242");
    expect(systemOf(sent[1]!.body)).not.toContain("A-1042");
    expect(systemOf(sent[1]!.body)).toContain(opening);

    const second = await respondAsPerson({ spec, opening, conversation: c, said: "Could you give me your order number?", person });
    if (!second.ok) throw new Error(second.error.message);
    // 2 asked for; 1 is not held back and 99 is no fact: both ignored.
    expect(second).toMatchObject({ reply: "It's A-1042.", done: false, newlyDisclosed: [1] });
    c = second.conversation;
    expect(c.disclosed).toEqual([1]);
    sent = model.received();
    expect(systemOf(sent[3]!.body)).toContain("Your order number is A-1042.");
    expect(systemOf(sent[3]!.body)).not.toContain("late fee");
    // The person's side of the conversation: the agent as the user, the person as the assistant.
    expect((sent[3]!.body as { messages: unknown[] }).messages.slice(1)).toEqual([
      { role: "user", content: "Hello! Sorry to hear that. Let me look." },
      { role: "assistant", content: "I was charged twice." },
      { role: "user", content: "Could you give me your order number?" },
    ]);

    const third = await respondAsPerson({ spec, opening, conversation: c, said: "The duplicate is refunded.", person });
    if (!third.ok) throw new Error(third.error.message);
    expect(third).toMatchObject({ reply: "Great, thanks!", done: true });
    expect(third.conversation.turns.map((t) => t.role)).toEqual(["person", "agent", "person", "agent", "person", "agent", "person"]);
    // Deterministic settings on every request.
    for (const r of model.received()) expect(r.body).toMatchObject({ temperature: 0, seed: 15 });
  });

  it("asks nothing when no fact is held back, and ends at the turn limit", async () => {
    const { model, person } = setup();
    const open = personSpec.parse({ brief: "A customer.", facts: ["You live in Lyon."] });
    expect(open.facts).toEqual([{ text: "You live in Lyon." }]);
    const r = await respondAsPerson({ spec: open, opening: null, conversation: openConversation(null), said: "Hello", person, turnLimit: 1 });
    expect(r).toMatchObject({ ok: true, done: true });
    expect(model.received().map((x) => x.rule)).toEqual(["reply"]);
  });

  it("costs nothing the second time through the cache", async () => {
    const cache = new MemoryCache();
    const run = async () => {
      const { model, person } = setup(RULES, cache);
      const r = await respondAsPerson({ spec, opening: null, conversation: openConversation(null), said: "What is your order number?", person });
      return { r, sent: model.received().length };
    };
    const a = await run();
    const b = await run();
    expect(a.sent).toBe(2);
    expect(b.sent).toBe(0);
    expect(b.r).toEqual({ ...a.r, usage: { ...a.r.usage, requests: 0, cached: 2 } });
  });

  it("returns a model failure and leaves the conversation to the caller", async () => {
    const { person } = setup([{ when: { answer: "person_asked" }, respond: { json: { asked: [] } } }, { respond: { raw: '{"reply": ' } }]);
    const r = await respondAsPerson({ spec, opening: null, conversation: openConversation(null), said: "Hi", person });
    expect(r).toMatchObject({ ok: false, error: { kind: "malformed" } });
  });
});
