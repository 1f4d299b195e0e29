// A world's person and its conversation, kept in the world's meta: the setup chosen at creation, and the
// conversation so far, saved after each answered turn. The model call happens in the Worker (src/routes/person.ts);
// a save names the turn count it started from, so two messages answered at once cannot both land: the second is
// refused and its agent told to wait for the first answer.
import type { Store } from "../store/store";
import { openConversation, type PersonConversation } from "../../src/core/kinds/replay/person/schema";
import type { PersonSetup } from "../../src/core/kinds/replay/person/setup";

export const PERSON_META = "person";
const CONVERSATION_META = "person_conversation";

export interface PersonState {
  setup: PersonSetup;
  conversation: PersonConversation;
}

export function personSetup(store: Store): PersonSetup | null {
  const raw = store.meta(PERSON_META);
  return raw ? (JSON.parse(raw) as PersonSetup | null) : null;
}

export function personState(store: Store): PersonState | null {
  const setup = personSetup(store);
  if (!setup) return null;
  const raw = store.meta(CONVERSATION_META);
  return { setup, conversation: raw ? (JSON.parse(raw) as PersonConversation) : openConversation(setup.opening) };
}

export type PersonSave = "saved" | "conflict" | "no_person";

export function savePersonTurn(store: Store, fromTurns: number, next: PersonConversation): PersonSave {
  const now = personState(store);
  if (!now) return "no_person";
  if (now.conversation.turns.length !== fromTurns || now.conversation.done) return "conflict";
  store.setMeta(CONVERSATION_META, JSON.stringify(next));
  return "saved";
}
