// A person's turn as a row of the world's trace, beside the tool calls: what the agent said (the request) and what
// the person answered (the response), so a world's trace, its archive in R2 and the trace views show the whole
// episode in order. The row's id is the agent's turn number, not a random id, so the same conversation traces the
// same bytes.
import type { PersonConversation } from "./schema";
import { agentTurns } from "./schema";

export const PERSON_TRACE_SERVICE = "person";
export const PERSON_TRACE_METHOD = "POST";
export const PERSON_TRACE_PATH = "/person/v1/respond";

export interface PersonTraceRow {
  request_id: string;
  request_body: string;
  response_body: string;
}

/** The row for the turn that took a conversation from `fromTurns` turns to `next`: the agent's message and the answer. */
export function personTraceRow(fromTurns: number, next: PersonConversation): PersonTraceRow {
  const added = next.turns.slice(fromTurns);
  const said = added.find((t) => t.role === "agent")?.text ?? "";
  const reply = added.find((t) => t.role === "person")?.text ?? "";
  return {
    request_id: `person_${agentTurns(next)}`,
    request_body: JSON.stringify({ said }),
    response_body: JSON.stringify({ reply, done: next.done }),
  };
}
