// An agent and the person, turn by turn: the agent's message goes to the person, the person's reply comes back
// for the agent's next message, until the person is done. Shared by the built-in model agent and the runTask
// client, so both end a conversation the same way. Without a person the agent's first answer is the output.
import { MAX_PERSON_TURN_LIMIT } from "../kinds/replay/person/schema";
import type { PersonSurface } from "./person-surface";

/** The agent's next message, or why it could not give one (its error ends the conversation). */
export type AgentTurn = { ok: true; text: string } | { ok: false; error: string };

export interface ConverseInput {
  /** Called with the person's last reply (null for the first turn, whose input is the opening). */
  next(reply: string | null): Promise<AgentTurn>;
  person: PersonSurface | null;
  signal?: AbortSignal;
}

export interface ConverseResult {
  /** The agent's last message. */
  output: string;
  /** The last message reached the person (it is in the conversation, not beside it). */
  delivered: boolean;
  /** The person said done (or had already). */
  done: boolean;
  /** The agent failed (its own words), or the person could not answer. */
  error: string | null;
  /** Which side failed, when one did. */
  failed: "agent" | "person" | null;
  /** Agent messages sent to the person. */
  said: number;
}

/** More agent turns than any person takes: its turn limit (at most MAX_PERSON_TURN_LIMIT) ends it with done first. */
const TURN_GUARD = MAX_PERSON_TURN_LIMIT + 1;

export async function converse(o: ConverseInput): Promise<ConverseResult> {
  let reply: string | null = null;
  let output = "";
  let said = 0;
  for (let turn = 1; turn <= TURN_GUARD; turn++) {
    const t = await o.next(reply);
    if (!t.ok) return { output, delivered: false, done: false, error: t.error, failed: "agent", said };
    output = t.text;
    // Nothing to say is the agent ending the episode: the person has nothing to answer.
    if (!o.person || !t.text.trim()) return { output, delivered: false, done: !o.person, error: null, failed: null, said };
    const a = await o.person.respond(t.text, o.signal);
    if (!a.ok) {
      if (a.code === "conversation_over") return { output, delivered: false, done: true, error: null, failed: null, said };
      return { output, delivered: false, done: false, error: `the person could not answer (${a.code}): ${a.message}`, failed: "person", said };
    }
    said++;
    if (a.done) return { output, delivered: true, done: true, error: null, failed: null, said };
    reply = a.reply;
  }
  return { output, delivered: true, done: false, error: `the conversation went past ${TURN_GUARD} agent messages without the person ending it`, failed: "person", said };
}
