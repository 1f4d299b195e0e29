// The plan of a tools run before anything is sent: episodes, the calls a shortest solution makes, what to expect
// and the ceiling, and the model's cost. The cost replays each task's shortest conversation against the simulator
// (the real answers, history included), counting each turn's input (system prompt, tool block, conversation so
// far) and output with the o200k tokenizer, at the model's price. A rough guide: the budget is what holds.
import { TOOLS_SYSTEM_PROMPT } from "../../agents/task-message";
import type { Price } from "../../models/prices";
import { canonicalJson } from "../../util/canonical";
import { tokensOf } from "./dials/tokens";
import { openAiTool } from "./render";
import { resultOf } from "./simulate/answer";
import type { ToolsTask } from "./tasks/generate";

/** What a model writes for one tool call beyond its arguments (id, name, wrapping), and for its final reply. */
const CALL_OVERHEAD = 12;
const REPLY_TOKENS = 40;
/** Per message framing a provider adds to the prompt. */
const MESSAGE_OVERHEAD = 4;

export interface EpisodeTokens {
  turns: number;
  input: number;
  output: number;
}

/** The tokens of one episode solved the shortest way, a planned fault retried once per fault. */
export function shortestEpisode(task: ToolsTask, clockUnix: number, system = TOOLS_SYSTEM_PROMPT): EpisodeTokens {
  const fixed = tokensOf(system) + tokensOf(JSON.stringify(task.world.definitions.map(openAiTool))) + MESSAGE_OVERHEAD;
  let conversation = tokensOf(task.request) + MESSAGE_OVERHEAD;
  for (const h of task.history?.calls ?? []) conversation += tokensOf(JSON.stringify(h.arguments)) + CALL_OVERHEAD + tokensOf(canonicalJson(h.result)) + MESSAGE_OVERHEAD;
  let input = 0;
  let output = 0;
  let turns = 0;
  const faults = new Map<string, number>();
  for (const f of task.world.task.faults) faults.set(f.name, (faults.get(f.name) ?? 0) + 1);
  for (const call of task.expected.calls) {
    const written = tokensOf(JSON.stringify(call.arguments)) + CALL_OVERHEAD;
    const answer = tokensOf(canonicalJson(resultOf(task.world, call, clockUnix))) + MESSAGE_OVERHEAD;
    const tries = 1 + (faults.get(call.name) ?? 0);
    faults.delete(call.name);
    for (let i = 0; i < tries; i++) {
      turns++;
      input += fixed + conversation;
      output += written;
      conversation += written + (i === tries - 1 ? answer : 20);
    }
  }
  turns++;
  input += fixed + conversation;
  output += REPLY_TOKENS;
  return { turns, input, output };
}

export interface ToolsPlan {
  episodes: number;
  calls: { shortest: number; expected: number; atMost: number; perEpisode: number };
  tokens: { input: number; output: number };
  /** The model calls if every task is solved the shortest way (what a call's reservation is estimated from). */
  turns: number;
  /** Null when the model has no price (or the agent is a command worlds cannot see into). */
  dollars: number | null;
}

export function planRun(tasks: readonly ToolsTask[], runs: number, o: { clockUnix: number; price: Price | null; system?: string }): ToolsPlan {
  let shortest = 0;
  let expected = 0;
  let atMost = 0;
  let input = 0;
  let output = 0;
  let turns = 0;
  for (const t of tasks) {
    shortest += t.expected.calls.length;
    expected += t.expected.calls.length + t.world.task.faults.length;
    atMost += t.world.max_calls;
    const e = shortestEpisode(t, o.clockUnix, o.system);
    input += e.input;
    output += e.output;
    turns += e.turns;
  }
  const perEpisode = Math.max(0, ...tasks.map((t) => t.world.max_calls));
  const dollars = o.price ? (runs * (input * o.price.input + output * o.price.output)) / 1e6 : null;
  return { episodes: tasks.length * runs, calls: { shortest: shortest * runs, expected: expected * runs, atMost: atMost * runs, perEpisode }, tokens: { input: input * runs, output: output * runs }, turns: turns * runs, dollars };
}

/** A `--model` run without `--model-budget` stops here: nobody spends more than a dollar by leaving a flag out. */
export const DEFAULT_MODEL_CAP_DOLLARS = 1;

/**
 * What one model call reserves against the cap: twice the plan's mean per call (the estimate is held within a
 * factor of two of real runs), so a cap a few calls wide still runs them; each call settles on its real usage.
 */
export const reservePerCallMicros = (p: ToolsPlan): number | undefined => (p.dollars !== null && p.turns > 0 ? Math.ceil((2 * p.dollars * 1e6) / p.turns) : undefined);

/** `$0.0052`: cents and below shown to four places, so a cheap run does not read as free. */
export const dollarsText = (d: number) => (d >= 1 ? `$${d.toFixed(2)}` : `$${d.toFixed(4)}`);
