// The person at /person/v1 on the real local server (the Worker on Miniflare), its model the scripted one on
// loopback: the world keeps the conversation, a when_asked fact reaches the person's prompt only once the agent
// asks, done ends it, the world's end carries the transcript, a rerun is answered from the cache, and the key
// rules as for every surface.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScriptedServer } from "../../src/cli/models/scripted-server";
import type { LocalServer } from "../../src/cli/server/local";
import { startScriptedLocal } from "./helpers/scripted-local";

let model: ScriptedServer;
let server: LocalServer;

export const PERSON = {
  spec: {
    brief: "You are Dana Reyes. You were charged twice for your March order and want the duplicate refunded.",
    facts: [
      { text: "You paid on March 14 with a Visa ending 4242." },
      { text: "Your order number is A-1042.", disclose: "when_asked" },
    ],
  },
  model: "openai:person-model",
  opening: "Hi, I was charged twice for my March order.",
};

let stop: () => Promise<void> = async () => undefined;
beforeAll(async () => {
  ({ model, server, stop } = await startScriptedLocal("test/fixtures/person/person.script.yaml"));
}, 120_000);
afterAll(() => stop());

const admin = () => ({ authorization: `Bearer ${server.token}`, "content-type": "application/json" });
async function createWorld(body: Record<string, unknown>): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${server.url}/admin/worlds`, { method: "POST", headers: admin(), body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}
async function say(key: string, said: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${server.url}/person/v1/respond`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify({ said }) });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}
const systemOf = (body: unknown) => ((body as { messages: Array<{ role: string; content: string }> }).messages.find((m) => m.role === "system")?.content ?? "");

describe("the person at /person/v1", () => {
  it("plays the brief, discloses a when_asked fact only when asked, and ends with the world", async () => {
    const w = await createWorld({ seed: "acme-small", person: PERSON });
    expect(w.status, JSON.stringify(w.json)).toBe(201);
    const key = w.json.key as string;
    expect(w.json.person_url).toBe(`${server.url}/person/v1`);
    const before = model.received().length;

    expect(await say(key, "Hello, sorry about that. Let me look into it.")).toEqual({ status: 200, json: { reply: "I was charged twice on March 14.", done: false } });
    let sent = model.received().slice(before);
    expect(sent.map((r) => r.rule)).toEqual(["asked-nothing", "explains"]);
    expect(systemOf(sent[1]!.body)).toContain("Visa ending 4242");
    expect(systemOf(sent[1]!.body)).not.toContain("A-1042");

    expect(await say(key, "Could you tell me your order number?")).toEqual({ status: 200, json: { reply: "Sure, it's A-1042.", done: false } });
    sent = model.received().slice(before);
    expect(sent.map((r) => r.rule)).toEqual(["asked-nothing", "explains", "asked-order-number", "gives-order-number"]);
    expect(systemOf(sent[3]!.body)).toContain("Your order number is A-1042.");

    // Nothing is held back any more: no classifier call.
    expect(await say(key, "I have refunded the duplicate charge.")).toEqual({ status: 200, json: { reply: "Perfect, thank you!", done: true } });
    expect(model.received().slice(before).map((r) => r.rule).slice(4)).toEqual(["satisfied"]);
    expect(await say(key, "Anything else?")).toMatchObject({ status: 409, json: { error: { code: "conversation_over" } } });

    const conv = await fetch(`${server.url}/person/v1/conversation`, { headers: { authorization: `Bearer ${key}` } });
    expect(((await conv.json()) as { turns: unknown[] }).turns).toHaveLength(7);
    // Each answered turn is a row of the world's trace, in order, under the agent's turn number; the refused one is not.
    const traced = (await (await fetch(`${server.url}/admin/worlds/${w.json.id}/trace`, { headers: admin() })).text()).trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(traced.filter((r) => r.service === "person").map((r) => [r.request_id, r.method, r.path, r.status, JSON.parse(r.request_body as string), JSON.parse(r.response_body as string)])).toEqual([
      ["person_1", "POST", "/person/v1/respond", 200, { said: "Hello, sorry about that. Let me look into it." }, { reply: "I was charged twice on March 14.", done: false }],
      ["person_2", "POST", "/person/v1/respond", 200, { said: "Could you tell me your order number?" }, { reply: "Sure, it's A-1042.", done: false }],
      ["person_3", "POST", "/person/v1/respond", 200, { said: "I have refunded the duplicate charge." }, { reply: "Perfect, thank you!", done: true }],
    ]);
    const ended = (await (await fetch(`${server.url}/admin/worlds/${w.json.id}/end`, { method: "POST", headers: admin() })).json()) as { person: { turns: Array<{ role: string; text: string }>; done: boolean } };
    expect(ended.person.done).toBe(true);
    expect(ended.person.turns[0]).toEqual({ role: "person", text: PERSON.opening });
    expect(ended.person.turns.at(-1)).toEqual({ role: "person", text: "Perfect, thank you!" });
  }, 120_000);

  it("answers the same conversation again from the cache", async () => {
    const run = async () => {
      const w = await createWorld({ seed: "acme-small", person: { ...PERSON, opening: "Charged twice (cache test)." } });
      const key = w.json.key as string;
      return [await say(key, "What is your order number?"), await say(key, "Refunded the duplicate.")];
    };
    const first = await run();
    const n = model.received().length;
    expect(await run()).toEqual(first);
    expect(model.received().length).toBe(n);
  }, 120_000);

  it("refuses without the world's key, without a person, a bad body, and a model the server cannot run", async () => {
    const plain = await createWorld({ seed: "acme-small" });
    expect(plain.json.person_url).toBeUndefined();
    expect(await say(plain.json.key as string, "hi")).toMatchObject({ status: 404, json: { error: { code: "no_person" } } });
    expect(await say("sk_test_nope", "hi")).toMatchObject({ status: 401, json: { error: { code: "unauthorized" } } });
    const w = await createWorld({ seed: "acme-small", person: PERSON });
    expect(await say(w.json.key as string, "")).toMatchObject({ status: 400, json: { error: { code: "invalid_request" } } });
    expect(await say(w.json.key as string, 42)).toMatchObject({ status: 400 });
    const anthropic = await createWorld({ seed: "acme-small", person: { ...PERSON, model: "anthropic:claude-x" } });
    expect(anthropic).toMatchObject({ status: 400, json: { error: { code: "person_unavailable" } } });
    const bad = await createWorld({ seed: "acme-small", person: { spec: { facts: [] } } });
    expect(bad.status).toBe(400);
  }, 120_000);
});
