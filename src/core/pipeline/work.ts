// What differs between the kinds in one episode, as each kind declares it (src/core/kinds/*/episode.ts): the world
// it starts from (and its person), what the agent is told, and how the world's end is graded into the shared
// record. The episode's skeleton (claim, world, agent, end, grade, judge, record, finish) is the host's and the
// same for every kind (src/hosted/runs/episode.ts). Runtime-neutral: what only a host can give (a model on the
// server's keys) comes in through EpisodeHost.
import type { AgentOutcome, EpisodeRecordInput, InfraError } from "../results/index";
import type { AgentAssignment } from "./request";
import { infraRecord, type Credits } from "./record";
import type { RunMode, RunPlan } from "./plan";
import type { SeedDocument } from "../world/seed/schema";
import type { WorldDiff } from "../world/diff/types";
import type { TraceRecord } from "../../../durable-objects/protocol";
import type { PersonSetup } from "../kinds/replay/person/setup";
import type { PersonTurn } from "../kinds/replay/person/schema";
import type { WorldGrade } from "../kinds/account/grader/index";
import type { ModelClient, ModelName } from "../models/index";

/** One episode of a stored run: which of the plan's tasks (1-based; the ticket for account runs) and which repetition. */
export interface EpisodeRef {
  task: number;
  repetition: number;
}

/** A model client on the host's own keys, or why the host cannot run that model. */
export type HostModel = { ok: true; client: ModelClient; model: ModelName } | { ok: false; message: string };

/** What a kind may ask of the host that runs its episode. */
export interface EpisodeHost {
  /** The run's id, for messages. */
  runId: string;
  /** A model on the host's keys (a rubric's judge, a person); answers cached when asked. */
  model(name: string, opts: { cache: boolean }): HostModel;
}

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

/** What the policy judge reads of a graded account world, when the run asked for a judge. */
export interface JudgeableEnd {
  plan: RunPlan;
  mode: RunMode;
  grade: WorldGrade;
  diff: WorldDiff;
  reply: string;
}

export interface GradedEnd {
  record: EpisodeRecordInput;
  credits: Credits | null;
  /** A grader that failed on this world: the same world fails the same way again, so it is final. */
  infra: InfraError | null;
  passed: number;
  graded: number;
  note: string;
  /** Set when the kind's grade can be read by the policy judge (account worlds, graded without error). */
  judgeable?: JudgeableEnd;
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

/** A grader that threw: recorded as an infrastructure error at grade, final for this world. */
export function gradeFailure(repetition: number, tickets: number[], end: WorldEndEvidence, e: unknown): GradedEnd {
  const infra = { stage: "grade" as const, message: (e as Error).message ?? String(e) };
  return { record: infraRecord(repetition, tickets, end.world, infra, end.agent), credits: null, infra, passed: 0, graded: 0, note: `infrastructure error (grade): ${infra.message}` };
}
