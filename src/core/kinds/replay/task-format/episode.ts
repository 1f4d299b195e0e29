// One episode of a portable task in the shared results contract (`worlds evals run`): what the agent is given,
// the tasks as rubric tickets for the results builder, and the graded record with its verdict. Kind-neutral on
// the results side: the record carries a verdict word and notes, like every other grader's.
import type { EpisodeRecordInput, AgentOutcome } from "../../../results/index";
import type { RubricDocument } from "../../../rubric/schema";
import { subjectOf, taskTicketsRubric } from "../../../rubric/task-tickets";
import type { GraderRecord } from "../../../results/grader-record";
import type { RubricVerdict } from "../rubric/record";
import type { ReplayTally } from "../recorded/tally";
import type { EvalTask } from "./format";
import { agentFailure } from "../../../report/format";

/** A tool as an agent is shown it, in OpenAI's function-tool shape (the tools world's task JSON uses the same). */
export interface AgentTool {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** What the agent reads on stdin (and in WORLDS_TASK_JSON): the tools world's task shape, so any tools agent runs. */
export interface EvalsAgentTask {
  id: string;
  request: string;
  tools: AgentTool[];
  /** The instructions the agent ran on in production (`agent.instructions`), when the task records them. */
  instructions?: string;
}

export function evalsAgentTask(task: EvalTask, tools: ReadonlyArray<{ name: string; description: string; inputSchema: Record<string, unknown> }>): EvalsAgentTask {
  const instructions = task.agent?.instructions?.trim();
  return {
    id: task.slug,
    request: task.prompt,
    tools: tools.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.inputSchema } })),
    ...(instructions ? { instructions } : {}),
  };
}

/** The tasks as rubric tickets (ticket n = task n), so results count and report each like a keyed task. */
export function evalsRubric(source: { name: string; hash: string }, tasks: readonly EvalTask[]): RubricDocument {
  return taskTicketsRubric(
    source,
    tasks.map((task) => ({
      label: task.slug,
      subject: subjectOf(task.prompt.replace(/\s+/g, " ").trim()),
      requester: { email: "person@evals.worlds.invalid", name: task.slug },
      line: `${task.grader.kind}: ${task.expected ? subjectOf(task.expected) : "every criterion met"}`,
      // Slices of the report: a failure the task catches, or work it keeps right; and its split.
      trap_class: `${task.origin} (${task.split})`,
      tags: [...task.tags],
    })),
  );
}

/** A graded run's verdict: every criterion met, or not. A record with no opinion (passed null) is not graded. */
export function criteriaVerdict(record: GraderRecord): RubricVerdict | null {
  if (record.passed === null) return null;
  return record.passed ? "passed" : "criteria_unmet";
}

/**
 * Why the agent did not finish its trial (it crashed, exited non-zero, timed out, was killed, or an HTTP agent
 * failed), with the last line it wrote to stderr; null when it finished. Such a trial is not graded.
 */
export function agentFailedError(agent: Omit<AgentOutcome, "duration_ms"> & { duration_ms?: number | null }, stderr = ""): string | null {
  const how = agentFailure({ ...agent, duration_ms: agent.duration_ms ?? null });
  if (!how) return null;
  const last = stderr.split(/\r?\n/).map((l) => l.trim()).filter(Boolean).at(-1);
  return `the agent ${how}${last ? `; its last stderr line: ${last.length > 300 ? `${last.slice(0, 300)}…` : last}` : ""}`;
}

/**
 * The record of a trial whose agent failed: reward 0, not passed, the error as its one reason. The judge is not
 * asked: a conversation cut off by a crash says nothing about the agent's handling, and a reward from it would
 * train on a crash (the document's rule, and runTask's).
 */
export function agentFailedRecord(task: Pick<EvalTask, "grader">, error: string): GraderRecord {
  return { grader: task.grader.kind, verdict: "failed", passed: false, reward: 0, reasons: [`not graded: ${error}`], dollars_wrong_cents: null };
}

/** How far the run kept to the recording, one line for the evidence (a run that strays says so). */
export function tallyLine(t: ReplayTally): string {
  const strayed = t.unrecorded_calls.slice(0, 5).map((c) => c.tool);
  return `calls: ${t.calls} (exact ${t.exact}, near ${t.near}, unrecorded ${t.unrecorded}${strayed.length ? `: ${strayed.join(", ")}` : ""}, writes ${t.writes}, refused ${t.refused})`;
}

export interface GradedEvalsEpisode {
  run: number;
  ticket: number;
  world: string;
  agent: AgentOutcome;
  reply: string | null;
  record: GraderRecord;
  verdict: RubricVerdict;
  /** What the run wrote, as diff entries (a replay world's records); empty for an environment of your own. */
  writes: ReadonlyArray<{ type: string; id: string; op: "created" | "updated" | "deleted" }>;
  /** Lines after the grader's reasons (the tally, the agent's stderr when it did not finish cleanly). */
  notes: string[];
}

export function evalsGradedRecord(e: GradedEvalsEpisode): EpisodeRecordInput {
  // What failed first, so a report's one-line problem names the criterion; then the reward and the rest.
  const unmet = e.record.reasons.filter((r) => r.startsWith("not met "));
  const rest = e.record.reasons.filter((r) => !r.startsWith("not met "));
  const reward = e.record.reward === null ? [] : [`reward ${Number(e.record.reward.toFixed(3))} by ${e.record.grader}`];
  return {
    run: e.run,
    world: e.world,
    tickets: [e.ticket],
    agent: e.agent,
    traffic: null,
    checks: [],
    grades: [{ ticket: e.ticket, verdict: e.verdict, reply: e.reply, reward: e.record.reward, evidence: { diff: e.writes.map((x) => ({ type: x.type, id: x.id, op: x.op })), reply_sentences: [], notes: [...unmet, ...reward, ...rest, ...e.notes] } }],
  };
}
