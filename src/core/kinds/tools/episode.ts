// A tools episode: the world is the task's own block, the agent is told the task's id, request and tools, and the
// world's end is graded by replaying its calls (./grade.ts).
import { parseSeed } from "../../world/seed/parse";
import { gradeFailure, type EpisodeRef, type EpisodeWork } from "../../pipeline/work";
import { gradeToolsEpisode } from "./grade";
import type { ToolsRunPlan } from "./run/plan";
import { toolsAgentTask, toolsGradedRecord, toolsSeed, tracedCalls } from "./run/episode";

export function toolsEpisode(plan: ToolsRunPlan, ep: EpisodeRef, runId: string): EpisodeWork {
  const task = plan.tasks[ep.task - 1];
  if (!task) throw new Error(`run ${runId} has no tools task ${ep.task} (its plan holds ${plan.tasks.length})`);
  const seed = parseSeed(toolsSeed(plan.clock, task));
  if (!seed.ok) throw new Error(`tools task ${task.id}: its world block is not a valid seed: ${seed.issues.slice(0, 3).map((i) => `${i.path}: ${i.message}`).join("; ")}`);
  return {
    tickets: [ep.task],
    seed: seed.seed,
    assignment: { kind: "tools", task: toolsAgentTask(task) },
    async grade(end) {
      try {
        const grade = gradeToolsEpisode({ block: task.world, diff: end.diff, calls: tracedCalls(end.trace), reply: end.reply });
        const record = toolsGradedRecord({ repetition: ep.repetition, ticket: ep.task, world: end.world, agent: end.agent, reply: end.reply, grade, diff: end.diff });
        return { record, credits: null, infra: null, passed: grade.passed ? 1 : 0, graded: 1, note: `${task.id} ${grade.verdict}` };
      } catch (e) {
        return gradeFailure(ep.repetition, [ep.task], end, e);
      }
    },
  };
}
