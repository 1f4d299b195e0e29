// One turn of the simulated person: the agent says something, the person answers and says whether they are done.
// Runtime-neutral (the model client is fetch-based): the Worker's /person/v1/respond and in-process callers use
// the same function. Deterministic settings (temperature 0, a fixed seed) and the client's response cache make the
// same conversation cost nothing the second time. A model failure is returned, never thrown, and leaves the
// conversation as it was, so the agent may say the same thing again.
import type { CallResult, ModelClient, ModelError, ModelName } from "../../../models/index";
import { askedSystem, PERSON_ASKED, PERSON_REPLY, replyMessages, replySystem } from "./prompt";
import { agentTurns, DEFAULT_PERSON_TURN_LIMIT, withheld, type PersonConversation, type PersonSpec } from "./schema";

/** The seed sent with every person request (OpenAI honours it; Anthropic has none). */
export const PERSON_SEED = 15;
const ASKED_MAX_TOKENS = 200;
const REPLY_MAX_TOKENS = 800;

export interface PersonModel {
  client: Pick<ModelClient, "call">;
  model: ModelName;
}

export interface PersonUsage {
  requests: number;
  cached: number;
  input_tokens: number;
  output_tokens: number;
  micros: number;
}

export type PersonTurnResult =
  | { ok: true; reply: string; done: boolean; conversation: PersonConversation; newlyDisclosed: number[]; usage: PersonUsage }
  | { ok: false; error: ModelError; usage: PersonUsage };

export interface PersonTurnInput {
  spec: PersonSpec;
  opening: string | null;
  conversation: PersonConversation;
  said: string;
  person: PersonModel;
  turnLimit?: number;
  signal?: AbortSignal;
}

export async function respondAsPerson(o: PersonTurnInput): Promise<PersonTurnResult> {
  const usage: PersonUsage = { requests: 0, cached: 0, input_tokens: 0, output_tokens: 0, micros: 0 };
  const tally = (r: CallResult<unknown>) => {
    usage.requests += r.attempts;
    if (r.cached) usage.cached++;
    usage.input_tokens += r.usage.input_tokens;
    usage.output_tokens += r.usage.output_tokens;
    usage.micros += r.micros ?? 0;
  };
  const pending = o.spec.facts.flatMap((_, i) => (withheld(o.spec, i) && !o.conversation.disclosed.includes(i) ? [i] : []));
  let newly: number[] = [];
  if (pending.length) {
    const r = await o.person.client.call<{ asked: number[] }>(
      { model: o.person.model, system: askedSystem(o.spec, pending), messages: [{ role: "user", content: o.said }], output: PERSON_ASKED.output, maxTokens: ASKED_MAX_TOKENS, temperature: 0, seed: PERSON_SEED },
      { validate: PERSON_ASKED.validate, signal: o.signal },
    );
    tally(r);
    if (!r.ok) return { ok: false, error: r.error, usage };
    // Numbers are 1-based in the prompt; anything not held back is ignored rather than trusted.
    newly = [...new Set(r.value.asked.map((n) => n - 1))].filter((i) => pending.includes(i)).sort((a, b) => a - b);
  }
  const disclosed = [...o.conversation.disclosed, ...newly].sort((a, b) => a - b);
  const r = await o.person.client.call<{ reply: string; done: boolean }>(
    {
      model: o.person.model,
      system: replySystem(o.spec, { disclosed }, o.opening),
      messages: replyMessages(o.conversation, o.said),
      output: PERSON_REPLY.output,
      maxTokens: REPLY_MAX_TOKENS,
      temperature: 0,
      seed: PERSON_SEED,
    },
    { validate: PERSON_REPLY.validate, signal: o.signal },
  );
  tally(r as CallResult<unknown>);
  if (!r.ok) return { ok: false, error: r.error, usage };
  const reply = r.value.reply.trim();
  // The conversation ends at the turn limit whatever the person says: an agent that never finishes must not loop.
  const done = r.value.done || agentTurns(o.conversation) + 1 >= (o.turnLimit ?? DEFAULT_PERSON_TURN_LIMIT);
  const conversation: PersonConversation = {
    turns: [...o.conversation.turns, { role: "agent", text: o.said }, { role: "person", text: reply }],
    disclosed,
    done,
  };
  return { ok: true, reply, done, conversation, newlyDisclosed: newly, usage };
}


