// Grading one run of a task with its own grader: the judge per rubric criterion (through the shared model client)
// and the end-state checks, folded into one record. Reward is the share met; the run passes only when every one
// is. A judge that cannot answer never throws: its criteria stay ungraded (met null) with the error recorded.
import type { ModelClient } from "../../../models/client";
import { modelLabel, type ModelName } from "../../../models/names";
import { microsToDollars } from "../../../models/prices";
import type { Decoded } from "../../../models/wire/common";
import { isEndStateGrader, isRubricGrader, type Criterion, type EvalTask, type RubricGrader } from "../task-format/format";
import { checkEndState, type CriterionResult } from "../checks/end-state";
import { writesOf, type GradedEpisode } from "../checks/episode";
import { RUBRIC_OUTPUT, rubricRequest, type RubricAnswer } from "./prompt";
import { END_STATE_GRADER, RUBRIC_GRADER, type RubricRecord } from "./record";

export interface RubricJudge {
  client: ModelClient;
  model: ModelName;
  signal?: AbortSignal;
}

/** The answer's shape, then its coverage: every criterion graded exactly once, and nothing else. */
function validator(criteria: readonly Criterion[]): (value: unknown) => Decoded<RubricAnswer> {
  const wanted = criteria.map((c) => c.id);
  return (value) => {
    const shaped = RUBRIC_OUTPUT.validate(value);
    if (!shaped.ok) return shaped;
    const got = shaped.value.criteria.map((c) => c.id);
    const missing = wanted.filter((id) => !got.includes(id));
    const unknown = got.filter((id) => !wanted.includes(id));
    const twice = got.filter((id, i) => got.indexOf(id) !== i);
    if (missing.length || unknown.length || twice.length) {
      const parts = [missing.length ? `missing ${missing.join(", ")}` : "", unknown.length ? `not criteria: ${unknown.join(", ")}` : "", twice.length ? `graded twice: ${twice.join(", ")}` : ""];
      return { ok: false, message: `the answer does not grade each criterion once (${parts.filter(Boolean).join("; ")})` };
    }
    return shaped;
  };
}

function fold(base: Omit<RubricRecord, "verdict" | "passed" | "reward" | "reasons" | "criteria">, criteria: CriterionResult[]): RubricRecord {
  const graded = criteria.every((c) => c.met !== null);
  const met = criteria.filter((c) => c.met === true).length;
  const passed = graded ? met === criteria.length : null;
  return {
    ...base,
    verdict: passed === null ? null : passed ? "passed" : "failed",
    passed,
    reward: graded ? met / criteria.length : null,
    reasons: criteria.map((c) => `${c.met === null ? "not graded" : c.met ? "met" : "not met"} ${c.id}: ${c.reason}`),
    criteria,
  };
}

/** The end-state checks alone: pure, no model. */
export function gradeEndState(task: EvalTask, episode: GradedEpisode): RubricRecord | null {
  if (!isEndStateGrader(task.grader)) return null;
  const criteria = checkEndState(task.grader.checks, writesOf(task, episode.tool_calls));
  return fold({ grader: END_STATE_GRADER, outcome: "graded", dollars_wrong_cents: null, model: null, cost: null, cached: false, error: null }, criteria);
}

export async function gradeRubric(judge: RubricJudge, task: EvalTask & { grader: RubricGrader }, episode: GradedEpisode): Promise<RubricRecord> {
  const g = task.grader;
  const writes = writesOf(task, episode.tool_calls);
  const last = episode.transcript[episode.transcript.length - 1];
  const outputShown = !episode.output || (last?.role === "assistant" && last.content === episode.output);
  const transcript = outputShown ? episode.transcript : [...episode.transcript, { role: "assistant", content: episode.output ?? null }];
  const checks = checkEndState(g.checks, writes);
  const r = await judge.client.call(rubricRequest(judge.model, { facts: g.facts, criteria: g.criteria, transcript, writes }), { validate: validator(g.criteria), signal: judge.signal });
  const cost = { dollars: r.micros === null ? null : microsToDollars(r.micros), input_tokens: r.usage.input_tokens, output_tokens: r.usage.output_tokens, attempts: r.attempts, duration_ms: Math.round(r.ms) };
  const base = { grader: RUBRIC_GRADER, dollars_wrong_cents: null, model: modelLabel(judge.model), cost, cached: r.cached } as const;
  if (!r.ok) {
    const skipped = r.error.kind === "budget";
    const why = skipped ? r.error.message : `the judge could not grade (${r.error.kind}): ${r.error.message}`;
    const ungraded: CriterionResult[] = g.criteria.map((c) => ({ id: c.id, claim: c.claim, met: null, reason: why, by: "judge" }));
    return fold({ ...base, outcome: skipped ? "skipped_for_budget" : "error", error: { kind: r.error.kind, message: r.error.message, raw: r.error.raw } }, [...ungraded, ...checks]);
  }
  const byId = new Map(r.value.criteria.map((c) => [c.id, c]));
  const judged: CriterionResult[] = g.criteria.map((c) => {
    const a = byId.get(c.id)!;
    return { id: c.id, claim: c.claim, met: a.met, reason: a.reason.trim(), by: "judge" };
  });
  return fold({ ...base, outcome: "graded", error: null }, [...judged, ...checks]);
}

/** The task's own grader when worlds builds it (rubric, end_state); null for a kind of the user's own. */
export async function gradeTask(judge: RubricJudge | null, task: EvalTask, episode: GradedEpisode): Promise<RubricRecord | null> {
  if (isEndStateGrader(task.grader)) return gradeEndState(task, episode);
  if (!isRubricGrader(task.grader)) return null;
  if (!judge) throw new Error(`task ${task.slug}: a rubric grader needs a judge model`);
  return gradeRubric(judge, task as EvalTask & { grader: RubricGrader }, episode);
}
