// One tools episode, the parts every driver shares (the CLI's `worlds tools run` and the server's hosted runs):
// the world's seed, what the agent is given, the calls read back from the trace, the tasks as rubric tickets for
// the shared results builder, and the graded record in the results contract.
import type { AgentOutcome, EpisodeRecordInput } from "../../../results/index";
import type { RubricDocument } from "../../../rubric/schema";
import { subjectOf, taskTicketsRubric } from "../../../rubric/task-tickets";
import type { WorldDiff } from "../../../world/diff/types";
import { canonicalJson } from "../../../util/canonical";
import type { ToolsGrade, TracedCall } from "../grade";
import { openAiTool } from "../render";
import type { ToolsAgentTask } from "../../../pipeline/request";
import type { ToolsTask } from "../tasks/generate";

/** The seed a tools world is created from: no account data, the task's block. */
export function toolsSeed(clock: string, task: ToolsTask): Record<string, unknown> {
  return { version: 1, kind: "tools", name: "tools-world", clock, currency: "usd", data: {}, tools: task.world };
}

/** What the agent is given: the task's id, its request, and the tool block in OpenAI's format. */
export function toolsAgentTask(task: ToolsTask): ToolsAgentTask {
  return { id: task.id, request: task.request, tools: task.world.definitions.map(openAiTool), ...(task.history?.calls.length ? { history: task.history.calls } : {}) };
}

interface TraceRow {
  service: string;
  path: string;
  status: number;
  request_body?: string;
  response_body?: string;
}

/** The tool calls of a world's trace, in order (twin requests an account tool made are traced beside them). */
export function tracedCalls(trace: readonly TraceRow[]): TracedCall[] {
  return trace.filter((r) => r.service === "tools").map((r) => ({ name: r.path, status: r.status, arguments: r.request_body ?? "", response: r.response_body ?? "" }));
}

const expectedLine = (task: ToolsTask) => task.expected.calls.map((c) => `${c.name}(${canonicalJson(c.arguments)})`).join(" then ");

/** The tasks as rubric tickets (ticket n = task n of the list), so results count and report them like keyed tasks. */
export function toolsRubric(set: { name: string; sha256: string }, tasks: readonly ToolsTask[]): RubricDocument {
  return taskTicketsRubric(
    { name: set.name, hash: set.sha256 },
    tasks.map((task) => ({
      label: task.id,
      subject: subjectOf(task.request),
      requester: { email: "agent@tools.worlds.invalid", name: set.name },
      line: expectedLine(task),
      trap_class: task.arm,
      tags: [task.arm],
    })),
  );
}

export interface GradedToolsEpisode {
  repetition: number;
  ticket: number;
  world: string;
  agent: AgentOutcome;
  reply: string | null;
  grade: ToolsGrade;
  diff: WorldDiff;
  /** Extra lines after the grader's reasons (an agent's stderr when it did not finish cleanly). */
  notes?: string[];
}

export function toolsGradedRecord(e: GradedToolsEpisode): EpisodeRecordInput {
  return {
    run: e.repetition,
    world: e.world,
    tickets: [e.ticket],
    agent: e.agent,
    traffic: null,
    checks: [],
    grades: [
      {
        ticket: e.ticket,
        verdict: e.grade.verdict,
        reply: e.reply,
        evidence: { diff: e.diff.entries.filter((x) => x.type === "records").map((x) => ({ type: x.type, id: x.id, op: x.op })), reply_sentences: [], notes: [...e.grade.reasons, ...(e.notes ?? [])] },
      },
    ],
  };
}
