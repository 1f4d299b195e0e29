// Judging one task: the case goes to the model through the shared client, the answer is validated (shape, and a
// verdict that agrees with its own findings), and whatever happens becomes a JudgeRecord. Never throws, never
// passes silently: an answer that cannot be read is an error on the task, with the raw text kept.
import type { ModelClient } from "../models/client";
import { modelLabel, type ModelName } from "../models/names";
import { microsToDollars } from "../models/prices";
import type { Decoded } from "../models/wire/common";
import type { JudgeCase } from "./case";
import { JUDGE_OUTPUT, judgeRequest, type JudgeAnswer } from "./prompt";
import { JUDGE_GRADER, type JudgeFinding, type JudgeRecord } from "./record";

export interface JudgeSetup {
  client: ModelClient;
  model: ModelName;
  policy: string;
  signal?: AbortSignal;
}

/** The answer's schema, then its consistency: a fail with every rule followed (or the reverse) is not a judgement. */
function validate(value: unknown): Decoded<JudgeAnswer> {
  const shaped = JUDGE_OUTPUT.validate(value);
  if (!shaped.ok) return shaped;
  const broken = shaped.value.findings.some((f) => !f.followed);
  if (shaped.value.verdict === "fail" && !broken) return { ok: false, message: "the verdict is fail but every finding says the rule was followed" };
  if (shaped.value.verdict === "pass" && broken) return { ok: false, message: "the verdict is pass but a finding says a rule was not followed" };
  return shaped;
}

const normal = (s: string) => s.toLowerCase().replace(/[“”"‘’'`*_]/g, "").replace(/\s+/g, " ").trim();

export async function judgeCase(setup: JudgeSetup, c: JudgeCase): Promise<JudgeRecord> {
  const r = await setup.client.call(judgeRequest(setup.model, setup.policy, c), { validate, signal: setup.signal });
  const cost = { dollars: r.micros === null ? null : microsToDollars(r.micros), input_tokens: r.usage.input_tokens, output_tokens: r.usage.output_tokens, attempts: r.attempts, duration_ms: Math.round(r.ms) };
  const base = { grader: JUDGE_GRADER, model: modelLabel(setup.model), dollars_wrong_cents: null, cost, cached: r.cached } as const;
  if (!r.ok) {
    const skipped = r.error.kind === "budget";
    return {
      ...base,
      outcome: skipped ? "skipped_for_budget" : "error",
      verdict: null,
      passed: null,
      reward: null,
      reasons: [skipped ? r.error.message : `the judge could not judge this task (${r.error.kind}): ${r.error.message}`],
      findings: [],
      error: { kind: r.error.kind, message: r.error.message, raw: r.error.raw },
    };
  }
  const policy = normal(setup.policy);
  const findings: JudgeFinding[] = r.value.findings.map((f) => ({ rule: f.rule, evidence: f.evidence, why: f.why, followed: f.followed, in_policy: policy.includes(normal(f.rule)) }));
  const passed = r.value.verdict === "pass";
  const reasons = findings.length
    ? findings.map((f) => `${f.followed ? "followed" : "broke"} "${f.rule}"${f.in_policy ? "" : " (not found in the policy)"}: ${f.why}`)
    : ["no policy rule applies to this ticket"];
  return { ...base, outcome: "judged", verdict: passed ? "passed" : "failed", passed, reward: passed ? 1 : 0, reasons, findings, error: null };
}
