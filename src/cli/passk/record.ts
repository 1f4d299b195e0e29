// From a process agent's episode (src/cli/episode) to the results contract's record. The grading and the
// record shapes are the shared ones in core/runs; how a local process can fail, and which infrastructure stage
// each failure belongs to, is the shared episode loop's (episodeRecordOf).
import type { WorldGrade } from "../../core/kinds/account/grader/index";
import type { EpisodeRecordInput } from "../../core/results/index";
import { gradedRecord, type RunMode } from "../../core/pipeline/index";
import type { EpisodeResult } from "../episode/episode";
import { episodeRecordOf } from "../episode/loop";

export function episodeRecord(run: number, tickets: number[], mode: RunMode, ep: EpisodeResult<WorldGrade>): EpisodeRecordInput {
  return episodeRecordOf(run, tickets, ep, (g, agent, note) => {
    const out = g.agent;
    const record = gradedRecord({
      repetition: run,
      tickets,
      mode,
      world: g.world.id,
      agent,
      reply: out.reply,
      replyBytes: out.reply_truncated ? out.stdout_bytes : null,
      grade: g.inspected,
      diff: g.diff,
      traffic: g.traffic,
    });
    if (note) for (const grade of record.grades ?? []) grade.evidence?.notes?.push(note);
    return record;
  });
}
