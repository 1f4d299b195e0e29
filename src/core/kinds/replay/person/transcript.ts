// A conversation with the person as the graders read it: the person as the user, the agent as the assistant, and
// the agent's final output last when it is not already. Shared by the episode API and `worlds evals run`, so an
// episode graded by either reads the same.
import type { PersonTurn } from "./schema";

export type TranscriptMessage = { role: "user" | "assistant"; content: string };

/** With no turns (no person, or nothing said) the task's prompt is the opening user message. */
export function transcriptOf(turns: readonly Pick<PersonTurn, "role" | "text">[], opening: string, output: string | null): TranscriptMessage[] {
  const out: TranscriptMessage[] = turns.length ? turns.map((t) => ({ role: t.role === "person" ? "user" : "assistant", content: t.text })) : [{ role: "user", content: opening }];
  // An agent that said its last message to the person and also printed it as its output said it once: the
  // person's answer after it does not make it a second message.
  const lastSaid = out.findLast((m) => m.role === "assistant");
  if (output && lastSaid?.content.trim() !== output.trim()) out.push({ role: "assistant", content: output });
  return out;
}
