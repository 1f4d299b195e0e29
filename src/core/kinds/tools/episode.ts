// A tools episode of a hosted run: the world is the task's own block, the agent is told the task's id, request
// and tools, and the world's end is graded by replaying its calls (src/core/kinds/tools/grade.ts).
import { infraRecord } from "../../../core/pipeline/index";
import { parseSeed } from "../../../core/world/seed/parse";
import { gradeToolsEpisode } from "../../../core/kinds/tools/grade";
import { toolsAgentTask, toolsGradedRecord, toolsSeed, tracedCalls } from "../../../core/kinds/tools/run/episode";
import type { RunContext } from "../context";
import type { EpisodeRow } from "../store";
import type { EpisodeWork } from "../work";

export function toolsWork(ctx: Extract<RunContext, { kind: "tools" }>, ep: EpisodeRow): EpisodeWork {
  const task = ctx.tools.tasks[ep.task - 1];
  if (!task) throw new Error(`run ${ctx.run.id} has no tools task ${ep.task} (its plan holds ${ctx.tools.tasks.length})`);
  const seed = parseSeed(toolsSeed(ctx.tools.clock, task));
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
        const infra = { stage: "grade" as const, message: (e as Error).message };
        const record = infraRecord(ep.repetition, [ep.task], end.world, infra, end.agent);
        return { record, credits: null, infra, passed: 0, graded: 0, note: `infrastructure error (grade): ${infra.message}` };
      }
    },
  };
}
