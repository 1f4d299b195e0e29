// An agent in the document's shape, `handle(messages, toolbox)`, as a conversation's turns: each call gets the
// conversation so far (the person as the user, the agent's own earlier answers as the assistant) and answers its
// next message as a string. Shared by runTask and `worlds evals run --agent FILE:export`, so an agent behaves the
// same in an RL loop and in an eval.
import type { EpisodeAgent, EpisodeMessage, Toolbox } from "../episode-api/shapes";
import type { AgentTurn } from "./converse";

export function handleTurns(agent: EpisodeAgent, opening: readonly EpisodeMessage[], toolbox: Toolbox): (reply: string | null) => Promise<AgentTurn> {
  const messages: EpisodeMessage[] = opening.map((m) => ({ ...m }));
  return async (reply) => {
    if (reply !== null) messages.push({ role: "user", content: reply });
    let text: unknown;
    try {
      // A copy: what the agent does to its list is not the conversation.
      text = await agent(messages.map((m) => ({ ...m })), toolbox);
    } catch (e) {
      return { ok: false, error: `the agent raised: ${e instanceof Error ? e.message : String(e)}` };
    }
    if (typeof text !== "string") return { ok: false, error: `the agent answered ${text === null ? "null" : typeof text}, not its message as a string` };
    messages.push({ role: "assistant", content: text });
    return { ok: true, text };
  };
}
