// An agent that runs inside the CLI instead of as a process (the built-in model agent, `--model`). It returns the
// same AgentOutcome a process does (reply, exit code, duration), so grading and results need no change, plus
// what only it can say: a failure that is not an exit (the results' agent.error), whether its loop hit its turn
// limit (tools worlds grade that turn_limit), and lines for the episode's evidence notes.
import type { CreatedWorld } from "../client";
import type { AgentOutcome } from "../agent/runner";
import type { EpisodeRecordInput } from "../../core/results/index";

export interface InProcessContext {
  world: CreatedWorld;
  serverUrl: string;
  /** The task JSON a process agent would read on stdin; null in shift mode. */
  taskJson: string | null;
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface InProcessOutcome extends AgentOutcome {
  in_process: {
    error: string | null;
    turn_limit_reached: boolean;
    notes: string[];
  };
}

export interface InProcessAgent {
  /** How results name the agent (agent.command) and the flags that rerun it (replay lines). */
  label: string[];
  run(ctx: InProcessContext): Promise<InProcessOutcome>;
}

export function inProcessOf(o: AgentOutcome | null | undefined): InProcessOutcome["in_process"] | null {
  return o && "in_process" in o ? (o as InProcessOutcome).in_process : null;
}

/** Adds an in-process agent's error and notes to an episode's record; a process agent's record is left alone. */
export function annotateRecord(record: EpisodeRecordInput, o: AgentOutcome | null | undefined): void {
  const ip = inProcessOf(o);
  if (!ip) return;
  if (record.agent && ip.error) record.agent.error = ip.error;
  for (const g of record.grades ?? []) {
    const evidence = (g.evidence ??= { diff: [], reply_sentences: [], notes: [] });
    (evidence.notes ??= []).push(...ip.notes);
  }
}
