// What the results builder is given: the compiled tasks, and one record per episode (a world an agent worked)
// as the CLI's runner or the Worker's queue consumer saw it. Parsed with zod because the Worker reads these
// records back from D1 and the CLI hands them over from another module: both are boundaries.
import { z } from "zod";
import { VERDICTS } from "../kinds/account/grader/types";
import { TOOLS_VERDICTS } from "../kinds/tools/grade";
import { RUBRIC_VERDICTS } from "../kinds/replay/rubric/record";
import { rubricDocument } from "../rubric/schema";
import { judgeRecord } from "../policy-judge/record";
import { judgeRunInput } from "./judge";
import { worldTrace } from "./trace";

/**
 * Verdicts a grader gives a keyed task, worst first; null is a policy-only task's. The account grader's words
 * (docs/grading.md), the tools replay grader's failing words (docs/tools.md), then the criteria graders' (rubric,
 * end_state, your own; docs/replay.md): results, statistics and reports read any of them the same way (passed
 * passes, every other word fails).
 */
export const GRADER_VERDICTS = [...VERDICTS.filter((v) => v !== "passed"), ...TOOLS_VERDICTS.filter((v) => v !== "passed"), ...RUBRIC_VERDICTS] as const;
export const graderVerdict = z.enum(GRADER_VERDICTS);
export type GraderVerdict = z.infer<typeof graderVerdict>;

/** The verdict for a task whose world could not be created, run or graded: nobody's answer, everyone's problem. */
export const INFRA_ERROR = "infra_error" as const;
export type Verdict = GraderVerdict | typeof INFRA_ERROR;

const cents = z.number().int().nonnegative();

/** A pass/fail assertion beyond a task's key: an invariant, the budget, harm outside the rubric. */
export const check = z.strictObject({
  name: z.string().min(1),
  held: z.boolean(),
  /** What was measured, for people ("created.subscriptions = 1"). */
  detail: z.string().default(""),
  /** Money the failure put wrong, when it is money (a refund on a customer no task names). */
  dollars_wrong_cents: cents.default(0),
});
export type Check = z.infer<typeof check>;

const diffEntryEvidence = z.looseObject({
  type: z.string(),
  id: z.string(),
  op: z.enum(["created", "updated", "deleted"]),
});

/** Why the grader decided as it did. */
export const evidence = z.strictObject({
  /** The diff entries that decided the verdict (the refund made, the charge left untouched...). */
  diff: z.array(diffEntryEvidence).default([]),
  /** Sentences of the reply that decided it (a claim, the missing confirmation...). */
  reply_sentences: z.array(z.string()).default([]),
  /** The grader's own explanation, one line each. */
  notes: z.array(z.string()).default([]),
});
export type Evidence = z.infer<typeof evidence>;

export const taskGrade = z.strictObject({
  /** The rubric ticket's id: its 1-based position in the compiled desk. */
  ticket: z.number().int().positive(),
  verdict: graderVerdict.nullable(),
  dollars_wrong_cents: cents.default(0),
  /** The grader's reward, 0 to 1 (a rubric's share met); null for a grader that only passes or fails. */
  reward: z.number().min(0).max(1).nullable().default(null),
  /** The reply graded: the agent's stdout in isolated mode, its desk reply in shift mode. */
  reply: z.string().nullable().default(null),
  /** Size in UTF-8 bytes of the whole reply as produced, when more was produced than kept. */
  reply_bytes: z.number().int().nonnegative().nullable().default(null),
  /** Desk status the ticket ended in (shift mode); null in isolated mode. */
  status_after: z.string().nullable().default(null),
  evidence: evidence.default({ diff: [], reply_sentences: [], notes: [] }),
  /** The policy judge's record for this task (passk --judge, a hosted run's judge); null without one. */
  judge: judgeRecord.nullable().default(null),
});
export type TaskGrade = z.infer<typeof taskGrade>;

export const agentOutcome = z.strictObject({
  exit_code: z.number().int().nullable(),
  /** Signal name that ended it (SIGKILL after a timeout, SIGSEGV...), or null. */
  signal: z.string().nullable().default(null),
  timed_out: z.boolean().default(false),
  /** Why the process could not be started at all (spawn ENOENT...). */
  start_error: z.string().nullable().default(null),
  /** A failure that is not a process exit: an HTTP agent that answered 500, timed out or sent no reply. */
  error: z.string().nullable().default(null),
  duration_ms: z.number().nonnegative().nullable().default(null),
});
export type AgentOutcome = z.infer<typeof agentOutcome>;

export const unsupportedCall = z.strictObject({
  method: z.string(),
  path: z.string(),
  /** route: the twin has no such endpoint; parameter: it refused a parameter it does not model. */
  kind: z.enum(["route", "parameter"]),
  message: z.string().default(""),
});
export type UnsupportedCall = z.infer<typeof unsupportedCall>;

export const traffic = z.strictObject({
  billing_requests: z.number().int().nonnegative(),
  desk_requests: z.number().int().nonnegative(),
  unsupported: z.array(unsupportedCall).default([]),
});
export type Traffic = z.infer<typeof traffic>;

export const INFRA_STAGES = ["world_create", "agent_start", "grade", "server"] as const;
export const infraError = z.strictObject({
  stage: z.enum(INFRA_STAGES),
  message: z.string(),
});
export type InfraError = z.infer<typeof infraError>;

/** One world an agent worked: isolated mode, one task; shift mode, every task of the run. */
export const episodeRecord = z.strictObject({
  /** Repetition, 1-based. */
  run: z.number().int().positive(),
  world: z.string().nullable(),
  /** Rubric ticket ids the world held, in desk order. */
  tickets: z.array(z.number().int().positive()).min(1),
  /** One grade per ticket held; empty when the episode ended in an infrastructure error. */
  grades: z.array(taskGrade).default([]),
  /** Null when the agent was never started (its world could not be created). */
  agent: agentOutcome.nullable(),
  /** Null when nothing was counted (no world, or a server that does not report traffic). */
  traffic: traffic.nullable().default(null),
  /** World-level checks: every invariant, changes outside the rubric. */
  checks: z.array(check).default([]),
  infra_error: infraError.nullable().default(null),
  /** The agent's calls in the world, each with the diff entries it caused (results/trace.ts); null when not read. */
  trace: worldTrace.nullable().default(null),
});
export type EpisodeRecord = z.infer<typeof episodeRecord>;
export type EpisodeRecordInput = z.input<typeof episodeRecord>;

export const SETUP_STATUSES = ["configuration_incomplete", "setup_failed"] as const;

/** Variables a suggested command line sets before `worlds`, by name only. */
export const serverEnv = z.array(z.enum(["WORLDS_TOKEN"]));
export type ServerEnv = z.infer<typeof serverEnv>;

export const buildInput = z.strictObject({
  mode: z.enum(["isolated", "shift"]),
  runs_requested: z.number().int().positive(),
  tasks: z.strictObject({
    /** The tasks file as the user named it (used verbatim in the replay line). */
    file: z.string().min(1),
    hashes: z.strictObject({ file: z.string(), seed: z.string(), rubric: z.string() }),
    /** The starter pack's name when the file is one. */
    pack: z.string().nullable().default(null),
  }),
  rubric: rubricDocument,
  invocation: z.strictObject({
    /** The agent command as argv (what followed `--`). */
    agent_command: z.array(z.string()).min(1),
    /** Flags naming the server (`--url URL`; none for a local run), kept on every suggested command. Never a token. */
    server_flags: z.array(z.string()).default([]),
    /** Variables a suggested command needs set first (the token given as --token): named on the line as `NAME=…`, never valued. */
    server_env: serverEnv.default([]),
    /** Other flags a replay must keep to reproduce the episode (`--mode shift`, `--timeout 60`, `--scenario S`). */
    replay_flags: z.array(z.string()).default([]),
    /** How the run named its tasks, when not `--tasks <file>` (a library shift: `--seed S --rubric R`). */
    source_flags: z.array(z.string()).optional(),
    /** A built-in agent's flags (`--model P:M` and its settings), when no command ran: replay lines rerun them instead of `-- <command>`. */
    agent_flags: z.array(z.string().min(1)).min(1).optional(),
    /** The worlds command that made the run, when not passk (`tools run`), so replay lines rerun it. */
    command: z.array(z.string().min(1)).min(1).optional(),
  }),
  episodes: z.array(episodeRecord),
  /** Run-level checks (the budget, asserted across a run's tasks), by run index. */
  run_checks: z.array(z.strictObject({ run: z.number().int().positive(), checks: z.array(check) })).default([]),
  /** The run stopped on a signal (Ctrl-C): results cover the episodes that finished. */
  interrupted: z.strictObject({ signal: z.string() }).nullable().default(null),
  /** A failure before any world existed. */
  setup_failure: z
    .strictObject({ status: z.enum(SETUP_STATUSES), reason: z.string().min(1), next_action: z.string().min(1) })
    .nullable()
    .default(null),
  /** The policy judge of this run (model, policy, budget); null when it was off. */
  judge: judgeRunInput.nullable().default(null),
  /** ISO timestamp to stamp on the results; null keeps the output byte-identical across runs. */
  generated_at: z.string().nullable().default(null),
});
export type BuildInput = z.infer<typeof buildInput>;
export type BuildInputRaw = z.input<typeof buildInput>;
