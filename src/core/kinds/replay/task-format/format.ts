// The portable task format (docs/replay.md): one situation from production traffic made runnable, with the
// environment and grader it needs. Only the fields worlds uses are read; anything else in a task is ignored, so a
// file from a newer writer still loads. The environment and grader of a kind worlds does not build keep every
// field, because the user's own code (--environment, --grader) reads them.
import { z } from "zod";
import { readTranscript, zodIssue } from "./reference";
import type { EffectSource } from "./effect";

/** Our own writer's format names; a reader accepts any producer's `<name>.task/v1` and `<name>.benchmark/v1`. */
export const TASK_FORMAT = "worlds.task/v1";
export const BENCHMARK_FORMAT = "worlds.benchmark/v1";
export const TASK_FORMAT_RULE = /^[A-Za-z0-9_.-]+\.task\/v1$/;
export const BENCHMARK_FORMAT_RULE = /^[A-Za-z0-9_.-]+\.benchmark\/v1$/;

/** The two kinds worlds builds itself; any other kind is the user's own code, named on the command line. */
export const REPLAY_KIND = "replay";
export const RUBRIC_KIND = "rubric";
export const END_STATE_KIND = "end_state";

const MAX_TEXT = 200_000;
const text = z.string().min(1, "must not be empty").max(MAX_TEXT);
const optionalText = z.string().max(MAX_TEXT);
/** Slugs, criterion ids and kinds appear in file names, JUnit and report lines: printable, no spaces or slashes. */
const name = z
  .string()
  .min(1, "must not be empty")
  .max(128)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]*$/, "must start with a letter or digit and hold only letters, digits and _ . : -");
const args = z.record(z.string(), z.unknown());

export const FactSchema = z.preprocess(
  (v) => (typeof v === "string" ? { text: v } : v),
  z.object({
    text,
    /** `always`: the person says it when it matters; `when_asked`: only once the agent asks for it. */
    disclose: z.enum(["always", "when_asked"]).default("always"),
  }),
);
export type Fact = z.infer<typeof FactSchema>;

export const PersonSchema = z.object({ brief: text, facts: z.array(FactSchema).max(200).default([]) });
export type Person = z.infer<typeof PersonSchema>;

/** A Chat Completions tool ({type: "function", function: {...}}) is read as the function inside it. */
function unwrapFunctionTool(v: unknown): unknown {
  if (v && typeof v === "object" && !Array.isArray(v)) {
    const o = v as Record<string, unknown>;
    if (o.type === "function" && o.function && typeof o.function === "object") return o.function;
  }
  return v;
}

export const ReplayToolSchema = z.preprocess(
  unwrapFunctionTool,
  z
    .object({
      name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "must be 1-64 letters, digits, _ or - (the names model providers accept)"),
      description: optionalText.default(""),
      input_schema: z.record(z.string(), z.unknown()).optional(),
      inputSchema: z.record(z.string(), z.unknown()).optional(),
      parameters: z.record(z.string(), z.unknown()).optional(),
      effect: z.enum(["read", "write"]).optional(),
      annotations: z.looseObject({ readOnlyHint: z.boolean().optional() }).optional(),
    })
    .transform((t): { name: string; description: string; inputSchema: Record<string, unknown>; effect: "read" | "write" | "unknown"; effect_source: EffectSource } => ({
      name: t.name,
      description: t.description,
      inputSchema: t.input_schema ?? t.inputSchema ?? t.parameters ?? { type: "object", properties: {} },
      // Stated, or MCP's read-only hint; otherwise the loader infers it from the task (effect.ts), and until then
      // it is not known, which replay treats as a write (docs/replay.md).
      effect: t.effect ?? (t.annotations ? (t.annotations.readOnlyHint === true ? "read" : "write") : "unknown"),
      effect_source: t.effect ? "stated" : t.annotations ? "annotation" : "inferred",
    })),
);
export type ReplayTool = z.infer<typeof ReplayToolSchema>;

/** `result` is what the tool returned in production (any JSON, null included); it must be present. */
export const ObservationSchema = z.object({ tool: name, arguments: args.default({}), result: z.unknown() });
export type Observation = z.infer<typeof ObservationSchema>;

export const ReplayEnvironmentSchema = z.object({
  kind: z.literal(REPLAY_KIND),
  person: PersonSchema.optional(),
  tools: z.array(ReplayToolSchema).max(256).default([]),
  observations: z.array(ObservationSchema).max(10_000).default([]),
});
export type ReplayEnvironment = z.infer<typeof ReplayEnvironmentSchema>;

/** A kind worlds does not build: every field kept for the user's own code. */
export const OwnKindSchema = z.looseObject({ kind: name });
export type OwnKind = z.infer<typeof OwnKindSchema>;

export const EndStateCheckSchema = z.object({
  id: name,
  /** A write to `tool` whose arguments hold every `arguments` entry (compared as replay's near match compares). */
  must: z.enum(["exist", "not_exist"]),
  tool: name,
  arguments: args.default({}),
  description: optionalText.optional(),
});
export type EndStateCheck = z.infer<typeof EndStateCheckSchema>;

export const CriterionSchema = z.object({ id: name, claim: text });
export type Criterion = z.infer<typeof CriterionSchema>;

export const RubricGraderSchema = z.object({
  kind: z.literal(RUBRIC_KIND),
  facts: z.array(text).max(200).default([]),
  criteria: z.array(CriterionSchema).min(1, "needs at least one criterion").max(100),
  checks: z.array(EndStateCheckSchema).max(100).default([]),
});
export type RubricGrader = z.infer<typeof RubricGraderSchema>;

export const EndStateGraderSchema = z.object({
  kind: z.literal(END_STATE_KIND),
  checks: z.array(EndStateCheckSchema).min(1, "needs at least one check").max(100),
});
export type EndStateGrader = z.infer<typeof EndStateGraderSchema>;

/** One tool call as a run made it. `name` is read as `tool` (the spelling of several tracing formats). */
export const ToolCallSchema = z.preprocess(
  (v) => (v && typeof v === "object" && !Array.isArray(v) && !("tool" in v) && "name" in v ? { ...(v as object), tool: (v as { name: unknown }).name } : v),
  z.object({ tool: name, arguments: args.default({}), result: z.unknown().optional() }),
);
export type ToolCall = z.infer<typeof ToolCallSchema>;

export const MessageSchema = z.looseObject({
  role: z.string().min(1).max(64),
  content: z.union([z.string().max(MAX_TEXT), z.array(z.unknown()), z.null()]).default(null),
});
export type Message = z.infer<typeof MessageSchema>;

export const ReferenceRunSchema = z
  .object({
    label: name,
    /** Absent: a failure's reference runs are expected to fail, a success's to pass. */
    expect: z.enum(["pass", "fail"]).optional(),
    transcript: z.array(MessageSchema).max(2_000).default([]),
    tool_calls: z.array(ToolCallSchema).max(2_000).optional(),
  })
  .transform((r, ctx) => {
    // The calls inside a Chat Completions or Anthropic transcript are the run's calls, unless the run lists its
    // own non-empty `tool_calls` (then those are, and the transcript is the conversation alone).
    const read = readTranscript(r.transcript, zodIssue(ctx, ["transcript"]));
    read.calls.forEach((c, i) => {
      if (!name.safeParse(c.tool).success) ctx.addIssue({ code: "custom", path: ["transcript"], message: `tool call ${i + 1} names '${c.tool.slice(0, 80)}', not a tool name (letters, digits and _ . : -)` });
    });
    return { label: r.label, ...(r.expect ? { expect: r.expect } : {}), transcript: read.transcript as Message[], tool_calls: r.tool_calls?.length ? r.tool_calls : (read.calls as ToolCall[]) };
  });
export type ReferenceRun = z.infer<typeof ReferenceRunSchema>;

/** Environment and grader are read loosely first (kind), then by their kind's own schema in the loader. */
export const TaskSchema = z.object({
  format: z.string().regex(TASK_FORMAT_RULE, "must be a task format of version 1 (<name>.task/v1)").optional(),
  slug: name,
  origin: z.enum(["failure", "success"]),
  split: z.enum(["train", "held_out"]),
  tags: z.array(z.string().min(1).max(128)).max(100).default([]),
  workflow: z.looseObject({ name: z.string().max(500).optional() }).optional(),
  prompt: text,
  expected: optionalText.optional(),
  agent: z
    .looseObject({
      instructions: optionalText.optional(),
      models: z.array(z.string().max(200)).max(50).optional(),
      tools: z.array(z.unknown()).max(256).optional(),
    })
    .optional(),
  environment: OwnKindSchema,
  grader: OwnKindSchema,
  reference: z.array(ReferenceRunSchema).max(100).default([]),
});

type TaskBase = z.infer<typeof TaskSchema>;
export type TaskEnvironment = ReplayEnvironment | OwnKind;
export type TaskGrader = RubricGrader | EndStateGrader | OwnKind;

/** A task as worlds reads it: environment and grader typed by kind. */
export interface EvalTask extends Omit<TaskBase, "environment" | "grader"> {
  environment: TaskEnvironment;
  grader: TaskGrader;
}

export function isReplayEnvironment(env: TaskEnvironment): env is ReplayEnvironment {
  return env.kind === REPLAY_KIND;
}
export function isRubricGrader(g: TaskGrader): g is RubricGrader {
  return g.kind === RUBRIC_KIND;
}
export function isEndStateGrader(g: TaskGrader): g is EndStateGrader {
  return g.kind === END_STATE_KIND;
}

/** The expectation of a reference run: its own, or what the task's origin implies. */
export function expectOf(task: Pick<EvalTask, "origin">, run: Pick<ReferenceRun, "expect">): "pass" | "fail" {
  return run.expect ?? (task.origin === "failure" ? "fail" : "pass");
}
