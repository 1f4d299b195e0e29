// From a process agent's episode (src/cli/episode) to the results contract's record. The grading and the
// record shapes are the shared ones in core/runs; what is CLI-only is how a local process can fail (spawn,
// exit, stderr) and which infrastructure stage each failure belongs to.
import type { WorldGrade } from "../../core/grader/index";
import type { EpisodeRecordInput } from "../../core/results/index";
import { gradedRecord, infraRecord, type RunMode } from "../../core/runs/index";
import { stderrNote } from "../../core/results/stderr";
import { agentSucceeded, type AgentOutcome } from "../agent/runner";
import { describeOutcome } from "../render/outcome";
import type { EpisodeResult } from "../episode/episode";

export function episodeRecord(run: number, tickets: number[], mode: RunMode, ep: EpisodeResult<WorldGrade>): EpisodeRecordInput {
  const world = ep.world?.id ?? null;
  if (ep.create_error) return infraRecord(run, tickets, world, { stage: "world_create", message: ep.create_error.message });
  const out = ep.agent!;
  const agent = agentRecord(out);
  // The bare cause ("ENOENT: spawn ..."): every reader wraps it in its own "could not be started (...)".
  if (!out.started) return infraRecord(run, tickets, world, { stage: "agent_start", message: agent.start_error ?? describeOutcome(out) }, agent, ep.traffic);
  if (ep.inspect_error || !ep.inspected || !ep.diff) {
    const message = ep.inspect_error?.message ?? "the world was not graded";
    return infraRecord(run, tickets, world, { stage: ep.diff ? "grade" : "server", message }, agent, ep.traffic);
  }
  const record = gradedRecord({
    repetition: run,
    tickets,
    mode,
    world: world!,
    agent,
    reply: out.reply,
    replyBytes: out.reply_truncated ? out.stdout_bytes : null,
    grade: ep.inspected,
    diff: ep.diff,
    traffic: ep.traffic,
  });
  // When the agent did not finish cleanly, its stderr is the first thing to read: keep the lines that say why.
  const note = agentSucceeded(out) ? null : stderrNote(out.stderr, 5);
  if (note) for (const g of record.grades ?? []) g.evidence?.notes?.push(note);
  return record;
}

export function agentRecord(o: AgentOutcome) {
  return {
    exit_code: o.exit_code,
    signal: o.signal,
    timed_out: o.timed_out,
    start_error: o.started ? null : o.spawn_error ? `${o.spawn_error.code}: ${o.spawn_error.message}` : "not started",
    error: null,
    duration_ms: o.duration_ms,
  };
}
