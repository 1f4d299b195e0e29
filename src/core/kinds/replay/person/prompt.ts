// What the person's model is told. Two requests a turn at most: which held-back facts the agent's message asks
// for (only while some are still held back), then the person's reply. A held-back fact is never in the reply's
// prompt until it has been asked for, so the person cannot let it slip: the rule is kept by construction, not by
// hoping the model obeys.
import { z } from "zod";
import { structured, type ModelMessage } from "../../../models/index";
import { withheld, type PersonConversation, type PersonSpec } from "./schema";

export const PERSON_REPLY = structured(
  "person_reply",
  z.strictObject({
    reply: z.string().max(8_000),
    done: z.boolean(),
  }),
  { description: "What the person writes back, and whether the conversation is over for them." },
);

export const PERSON_ASKED = structured(
  "person_asked",
  z.strictObject({ asked: z.array(z.number().int()).max(200) }),
  { description: "The numbers of the details the agent's message asks the person for." },
);

export function askedSystem(spec: PersonSpec, pending: number[]): string {
  return [
    "You read one message a support agent sent to a customer and decide which of the customer's details below it asks for.",
    "A detail is asked for when the message asks the customer a question whose answer is that detail, or asks them to give, confirm or describe it.",
    "Stating, offering or guessing the detail is not asking for it.",
    "",
    "The customer's details:",
    ...pending.map((i) => `[${i + 1}] ${spec.facts[i]!.text}`),
    "",
    'Answer as JSON: {"asked": [the numbers of the details asked for]}, an empty list when it asks for none.',
  ].join("\n");
}

export function replySystem(spec: PersonSpec, conversation: Pick<PersonConversation, "disclosed">, opening: string | null): string {
  const free = spec.facts.flatMap((f, i) => (withheld(spec, i) ? [] : [f.text]));
  const given = conversation.disclosed.map((i) => spec.facts[i]!.text);
  const lines = [
    "You are playing a person who wrote to a company's support team. The messages you receive are from the company's support agent.",
    "Stay in character: never say you are an AI, a model or a simulation, and never act as the agent.",
    "",
    "Who you are and what you need:",
    spec.brief,
  ];
  if (free.length) lines.push("", "What you know and say whenever it is relevant:", ...free.map((t) => `- ${t}`));
  if (given.length) lines.push("", "Details the agent has asked you for, which you now give when they fit:", ...given.map((t) => `- ${t}`));
  if (opening) lines.push("", "You opened the conversation with this message:", opening);
  lines.push(
    "",
    "Answer only what the agent's latest message calls for, in a few short sentences, as this person would write.",
    "State no fact beyond those above; asked for anything else, say you do not know or do not have it to hand.",
    "Set done to true when your need is met (the agent has done what you need or firmly committed to it, or clearly cannot and you accept that) or the conversation has reached its end; otherwise false.",
    'Answer as JSON: {"reply": what you write back, "done": true or false}.',
  );
  return lines.join("\n");
}

/** The conversation from the person's side: the agent speaks as the user, the person as the assistant. */
export function replyMessages(conversation: PersonConversation, said: string): ModelMessage[] {
  const out: ModelMessage[] = [];
  // The opening is in the system prompt: both providers want the conversation to start with the user.
  const turns = conversation.turns[0]?.role === "person" ? conversation.turns.slice(1) : conversation.turns;
  for (const t of turns) out.push(t.role === "agent" ? { role: "user", content: t.text } : { role: "assistant", content: t.text });
  out.push({ role: "user", content: said });
  return out;
}
