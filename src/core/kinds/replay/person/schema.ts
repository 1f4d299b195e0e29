// The person an agent talks to: who they are and what they need (the brief), and what they know (facts). A fact
// marked when_asked is held back until the agent asks for it; every other fact the person may say when it fits.
// Read loosely, as task files are: fields worlds does not use are ignored, so a newer task file still loads.
import { z } from "zod";

export const WHEN_ASKED = "when_asked";
export const MAX_BRIEF_CHARS = 20_000;
export const MAX_FACT_CHARS = 4_000;
export const MAX_FACTS = 200;
/** What an agent may say in one message, and what an opening message may be. */
export const MAX_SAID_CHARS = 32 * 1024;
/** Agent messages a conversation takes; the last one is answered with done. */
export const DEFAULT_PERSON_TURN_LIMIT = 20;
export const MAX_PERSON_TURN_LIMIT = 100;

/** A fact is its text, or {text, disclose}; a bare string is said freely. */
export const personFact = z.preprocess(
  (v) => (typeof v === "string" ? { text: v } : v),
  z.looseObject({
    text: z.string().trim().min(1, "a fact needs its text").max(MAX_FACT_CHARS),
    /** "when_asked": said only once the agent asks for it; "always", anything else or nothing: said freely. */
    disclose: z.string().max(64).optional(),
  }),
);

export const personSpec = z.looseObject({
  brief: z.string().trim().min(1, "the person needs a brief").max(MAX_BRIEF_CHARS),
  facts: z.array(personFact).max(MAX_FACTS).default([]),
});
export type PersonSpec = z.infer<typeof personSpec>;

export function withheld(spec: PersonSpec, i: number): boolean {
  return spec.facts[i]?.disclose === WHEN_ASKED;
}

export interface PersonTurn {
  role: "agent" | "person";
  text: string;
}

/** A conversation as the world keeps it. */
export interface PersonConversation {
  turns: PersonTurn[];
  /** Indexes (into spec.facts) of the when_asked facts the agent has asked for so far, ascending. */
  disclosed: number[];
  done: boolean;
}

export function openConversation(opening: string | null): PersonConversation {
  return { turns: opening ? [{ role: "person", text: opening }] : [], disclosed: [], done: false };
}

export function agentTurns(c: PersonConversation): number {
  return c.turns.filter((t) => t.role === "agent").length;
}
