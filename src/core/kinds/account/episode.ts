// An account episode: its ticket (isolated) or every ticket (shift) placed on the run's seed, the agent told the
// task, and the world's diff graded against the key. The policy judge, when the run asked for one, reads the
// graded end afterwards (the host's step, not this kind's).
import { episodeNote, episodeSeed, gradedRecord, gradeEpisode, summarizeTraffic, trialCounts, type RunMode, type RunPlan } from "../../pipeline/index";
import { gradeFailure, type EpisodeRef, type EpisodeWork } from "../../pipeline/work";

export interface AccountRun {
  plan: RunPlan;
  mode: RunMode;
}

export function accountEpisode(run: AccountRun, ep: EpisodeRef): EpisodeWork {
  const { plan, mode } = run;
  const tickets = mode === "isolated" ? [ep.task] : plan.tasks.map((t) => t.ticket.id);
  return {
    tickets,
    seed: episodeSeed(plan, { tickets }, mode),
    assignment: { kind: "account", task: mode === "isolated" ? (plan.tasks.find((t) => t.ticket.id === ep.task)?.task ?? null) : null },
    async grade(end) {
      const traffic = summarizeTraffic(end.trace);
      try {
        const grade = gradeEpisode(plan.rubric, plan.objects, mode, tickets, end.diff, end.reply);
        const record = gradedRecord({ repetition: ep.repetition, tickets, mode, world: end.world, agent: end.agent, reply: end.reply, replyBytes: end.replyBytes, grade, diff: end.diff, traffic });
        const credits = { total: grade.credits.total, count: grade.credits.count };
        return { record, credits, infra: null, ...trialCounts(grade), note: episodeNote(grade, record), judgeable: { plan, mode, grade, diff: end.diff, reply: end.reply } };
      } catch (e) {
        const failed = gradeFailure(ep.repetition, tickets, end, e);
        return { ...failed, record: { ...failed.record, traffic } };
      }
    },
  };
}
