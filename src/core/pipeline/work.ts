// What differs between the kinds of hosted run in one episode: the world it starts from (and its person), what the agent is told,
// and how the world's end is graded. The episode's skeleton (claim, world, agent call, trace, result, cleanup) is
// the same for every kind (src/hosted/runs/episode.ts).
import type { AgentOutcome, EpisodeRecordInput, InfraError } from "../../core/results/index";
import type { AgentAssignment, Credits } from "../../core/pipeline/index";
import type { SeedDocument } from "../../core/world/seed/schema";
import type { WorldDiff } from "../../core/world/diff/types";
import type { TraceRecord } from "../../../durable-objects/protocol";
import type { PersonSetup } from "../../core/kinds/replay/person/setup";
import type { PersonTurn } from "../../core/kinds/replay/person/schema";

export interface WorldEndEvidence {
  world: string;
  diff: WorldDiff;
  trace: TraceRecord[];
  agent: AgentOutcome;
  reply: string;
  /** The reply's whole size when it was cut to the agent reply limit. */
  replyBytes: number | null;
  /** The person's conversation as the world ended; empty when the world has no person. */
  personTurns: PersonTurn[];
}

export interface GradedEnd {
  record: EpisodeRecordInput;
  credits: Credits | null;
  /** A grader that failed on this world: the same world fails the same way again, so it is final. */
  infra: InfraError | null;
  passed: number;
  graded: number;
  note: string;
}

export interface EpisodeWork {
  tickets: number[];
  seed: SeedDocument;
  /** The person the agent talks to, set on the world as it is made; absent for none. */
  person?: PersonSetup | null;
  /** The agent body's kind and task. */
  assignment: AgentAssignment;
  grade(end: WorldEndEvidence): Promise<GradedEnd>;
}
