import { describe, expect, it } from "vitest";
import { converse, type AgentTurn } from "./converse";
import type { PersonAnswer, PersonSurface } from "./person-surface";

const person = (answers: PersonAnswer[]): PersonSurface & { heard: string[] } => {
  const heard: string[] = [];
  return { heard, respond: async (said) => (heard.push(said), answers.shift() ?? { ok: false, status: 409, code: "conversation_over", message: "over" }) };
};
const agent = (texts: AgentTurn[]) => {
  const replies: Array<string | null> = [];
  return { replies, next: async (reply: string | null) => (replies.push(reply), texts.shift() ?? { ok: true, text: "" }) };
};

describe("converse", () => {
  it("sends each message to the person and the reply back until the person is done", async () => {
    const p = person([{ ok: true, reply: "A-1001.", done: false }, { ok: true, reply: "Thanks!", done: true }]);
    const a = agent([{ ok: true, text: "Your order?" }, { ok: true, text: "Refunded." }]);
    expect(await converse({ next: a.next, person: p })).toEqual({ output: "Refunded.", delivered: true, done: true, error: null, failed: null, said: 2 });
    expect(a.replies).toEqual([null, "A-1001."]);
    expect(p.heard).toEqual(["Your order?", "Refunded."]);
  });

  it("takes the first answer as the output without a person", async () => {
    expect(await converse({ next: agent([{ ok: true, text: "Done." }]).next, person: null })).toMatchObject({ output: "Done.", delivered: false, done: true, said: 0 });
  });

  it("ends on the agent's error, an empty message, a person already done, or a person that cannot answer", async () => {
    expect(await converse({ next: agent([{ ok: false, error: "boom" }]).next, person: person([]) })).toMatchObject({ error: "boom", failed: "agent", done: false });
    const quiet = person([]);
    expect(await converse({ next: agent([{ ok: true, text: "  " }]).next, person: quiet })).toMatchObject({ error: null, done: false, said: 0 });
    expect(quiet.heard).toEqual([]);
    expect(await converse({ next: agent([{ ok: true, text: "Hi" }]).next, person: person([]) })).toMatchObject({ done: true, delivered: false, error: null });
    const down = person([{ ok: false, status: 502, code: "person_unavailable", message: "the model failed" }]);
    expect(await converse({ next: agent([{ ok: true, text: "Hi" }]).next, person: down })).toMatchObject({ failed: "person", error: "the person could not answer (person_unavailable): the model failed" });
  });
});
