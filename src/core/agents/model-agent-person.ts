// The built-in model agent in a world with a person (a replay task's): each answer the model writes goes to the
// person, and the person's reply comes back as the next user message, until the person is done. The model's turn
// limit covers the whole conversation, so a long one ends like a long tool loop, on the limit, said.
import { converse, type ConverseResult } from "./converse";
import { addUsage } from "./describe";
import { DEFAULT_TURN_LIMIT, runModelAgent, type ModelAgentInput, type ModelAgentRun } from "./model-agent";
import type { PersonSurface } from "./person-surface";

export async function runModelAgentWithPerson(o: ModelAgentInput, person: PersonSurface): Promise<{ run: ModelAgentRun; talk: ConverseResult }> {
  const limit = o.turnLimit ?? DEFAULT_TURN_LIMIT;
  let total: ModelAgentRun | null = null;
  const talk = await converse({
    person,
    ...(o.signal ? { signal: o.signal } : {}),
    async next(reply) {
      // The conversation so far after the first user message, then the person's reply as the next user message.
      const history = total ? [...total.messages.slice(1), { role: "user" as const, content: reply ?? "" }] : o.history;
      const run = await runModelAgent({ ...o, ...(history ? { history } : {}), turnLimit: limit - (total?.turns ?? 0) });
      total = total ? joined(total, run) : run;
      return run.end === "answered" ? { ok: true, text: run.reply } : { ok: false, error: run.end };
    },
  });
  return { run: total!, talk };
}

/** Two stretches of one conversation as one run: the later end and reply, everything counted once. */
function joined(a: ModelAgentRun, b: ModelAgentRun): ModelAgentRun {
  const usage = { ...a.usage };
  addUsage(usage, b.usage);
  return { ...b, turns: a.turns + b.turns, calls: [...a.calls, ...b.calls], usage, remarks: [...a.remarks, ...b.remarks] };
}
