// A replay episode: the world is the task's replay world with its person, the agent is told the task's slug,
// prompt and tools, and the world's end is graded by the task's own grader (the rubric judge on the host's keys,
// or end-state checks) from the person's conversation, the traced calls and the agent's reply. A judge that
// cannot grade is not the agent's failing: it is an infrastructure error at grade.
import { agentFailedError, agentFailedRecord, criteriaVerdict, evalsAgentTask, evalsGradedRecord, tallyLine } from "./task-format/episode";
import { isRubricGrader, type EvalTask, type ReplayEnvironment } from "./task-format/index";
import type { EvalsRunPlan } from "./task-format/hosted";
import { gradeTask } from "./rubric/index";
import { transcriptOf } from "./person/transcript";
import { replayBlock, replaySeed, tallyCalls, toolCallsOfTrace } from "./recorded/index";
import { parseSeed } from "../../world/seed/parse";
import { gradeFailure, type EpisodeHost, type EpisodeRef, type EpisodeWork, type GradedEnd } from "../../pipeline/work";

/** A stored replay run: its plan and its tasks, read again from the plan's text (task n = tasks[n-1]). */
export interface ReplayRun {
  plan: EvalsRunPlan;
  tasks: EvalTask[];
}

export function replayEpisode(run: ReplayRun, ep: EpisodeRef, host: EpisodeHost): EpisodeWork {
  const { plan, tasks } = run;
  const task = tasks[ep.task - 1] as (EvalTask & { environment: ReplayEnvironment }) | undefined;
  if (!task) throw new Error(`run ${host.runId} has no evals task ${ep.task} (its plan holds ${tasks.length})`);
  const seed = parseSeed(replaySeed(task));
  if (!seed.ok) throw new Error(`evals task ${task.slug}: its replay world is not a valid seed: ${seed.issues.slice(0, 3).map((i) => `${i.path}: ${i.message}`).join("; ")}`);
  const block = replayBlock(task.slug, task.environment);
  const person = task.environment.person ? { spec: task.environment.person, model: plan.person, opening: task.prompt, turn_limit: plan.person_turn_limit, cache: true } : null;
  return {
    tickets: [ep.task],
    seed: seed.seed,
    person,
    assignment: { kind: "evals", task: evalsAgentTask(task, block.tools) },
    async grade(end): Promise<GradedEnd> {
      const output = end.reply.trim() ? end.reply : null;
      const transcript = transcriptOf(end.personTurns, task.prompt, output);
      const tool_calls = toolCallsOfTrace(end.trace);
      const writes = end.diff.entries.filter((e) => e.type === "records");
      const tally = tallyLine(tallyCalls(block, tool_calls));
      // An agent that failed (an error answer, no answer in time) ends its trial at reward 0 with why, unjudged.
      const failed = agentFailedError(end.agent);
      if (failed) {
        const record = evalsGradedRecord({ run: ep.repetition, ticket: ep.task, world: end.world, agent: end.agent, reply: output, record: agentFailedRecord(task, failed), verdict: "criteria_unmet", writes, notes: [tally] });
        return { record, credits: null, infra: null, passed: 0, graded: 1, note: `${task.slug} criteria_unmet: ${failed}` };
      }
      try {
        const judge = isRubricGrader(task.grader) ? host.model(plan.judge, { cache: true }) : null;
        if (judge && !judge.ok) throw new Error(`the judge: ${judge.message}`);
        const r = await gradeTask(judge?.ok ? judge : null, task, { transcript, tool_calls, output });
        if (!r) throw new Error(`task ${task.slug}: no grader the server runs`);
        if (r.passed === null) throw new Error(r.error ? `the judge could not grade (${r.error.kind}): ${r.error.message}` : `the judge could not grade: ${r.reasons.find((x) => x.startsWith("not graded")) ?? "no verdict"}`);
        const verdict = criteriaVerdict(r)!;
        const record = evalsGradedRecord({ run: ep.repetition, ticket: ep.task, world: end.world, agent: end.agent, reply: output, record: r, verdict, writes, notes: [tally] });
        return { record, credits: null, infra: null, passed: r.passed ? 1 : 0, graded: 1, note: `${task.slug} ${verdict}` };
      } catch (e) {
        return gradeFailure(ep.repetition, [ep.task], end, e);
      }
    },
  };
}
