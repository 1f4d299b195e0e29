// The policy judge in the results: each trial's judgement beside the key's verdict (their agreement), and the
// run's judge block: what it cost, what it could not judge, how often it agreed with the keys. The judge is a
// second opinion: nothing here feeds the status, the exit code or the crash-test numbers.
import { z } from "zod";
import type { JudgeRecord } from "../policy-judge/record";
import type { RunResult, WorldJudge, JudgeRunBlock } from "./types";

/** What the caller tells the builder about the judge of this run (null: the judge was off). */
export const judgeRunInput = z.strictObject({
  model: z.string().min(1),
  prompt_version: z.string().min(1),
  /** Where the policy came from (a file name as the user gave it, or "request" for a hosted run's text). */
  policy: z.strictObject({ source: z.string().min(1), sha256: z.string(), chars: z.number().int().nonnegative() }),
  /** The hard limit on its spend, in dollars; null: none. */
  budget_dollars: z.number().nonnegative().nullable(),
});
export type JudgeRunInput = z.infer<typeof judgeRunInput>;

/** A trial's judgement with its agreement: on a keyed task, whether the judge's pass/fail is the key's. */
export function worldJudge(j: JudgeRecord | null | undefined, keyed: boolean, verdict: string | null): WorldJudge | null {
  if (!j) return null;
  const agrees = keyed && j.verdict !== null && verdict !== null && verdict !== "infra_error" ? (j.verdict === "passed") === (verdict === "passed") : null;
  return {
    grader: j.grader,
    model: j.model,
    outcome: j.outcome,
    verdict: j.verdict,
    passed: j.passed,
    reward: j.reward,
    reasons: [...j.reasons],
    dollars_wrong_cents: null,
    findings: j.findings.map((f) => ({ rule: f.rule, evidence: f.evidence, why: f.why, followed: f.followed, in_policy: f.in_policy })),
    cost: { ...j.cost },
    cached: j.cached,
    error: j.error ? { ...j.error } : null,
    agrees_with_key: agrees,
  };
}

export function judgeBlock(input: JudgeRunInput | null, runs: RunResult[], keyedPositions: ReadonlySet<number>): JudgeRunBlock | null {
  if (!input) return null;
  const all = runs.flatMap((r) => r.worlds).filter((w) => w.judge !== null);
  const js = all.map((w) => w.judge!);
  const errorsByKind: Record<string, number> = {};
  for (const j of js) if (j.outcome === "error" && j.error) errorsByKind[j.error.kind] = (errorsByKind[j.error.kind] ?? 0) + 1;
  const policyOnly = all.filter((w) => !keyedPositions.has(w.position) && w.judge!.outcome === "judged");
  const keyed = all.filter((w) => w.judge!.agrees_with_key !== null);
  const cell = (keyPassed: boolean, judgePassed: boolean) => keyed.filter((w) => (w.verdict === "passed") === keyPassed && w.judge!.passed === judgePassed).length;
  const agreed = keyed.filter((w) => w.judge!.agrees_with_key).length;
  const priced = js.filter((j) => j.cost.dollars !== null);
  return {
    model: input.model,
    prompt_version: input.prompt_version,
    policy: { ...input.policy },
    budget_dollars: input.budget_dollars,
    tasks: js.length,
    judged: js.filter((j) => j.outcome === "judged").length,
    errors: js.filter((j) => j.outcome === "error").length,
    errors_by_kind: sortedCounts(errorsByKind),
    skipped_for_budget: js.filter((j) => j.outcome === "skipped_for_budget").length,
    calls: js.reduce((s, j) => s + j.cost.attempts, 0),
    cached: js.filter((j) => j.cached).length,
    tokens: { input: js.reduce((s, j) => s + j.cost.input_tokens, 0), output: js.reduce((s, j) => s + j.cost.output_tokens, 0) },
    duration_ms: { total: js.reduce((s, j) => s + j.cost.duration_ms, 0), mean: js.length ? Math.round(js.reduce((s, j) => s + j.cost.duration_ms, 0) / js.length) : null },
    dollars: Math.round(priced.reduce((s, j) => s + j.cost.dollars!, 0) * 1e6) / 1e6,
    unpriced: js.some((j) => j.cost.dollars === null),
    policy_only: { judged: policyOnly.length, passed: policyOnly.filter((w) => w.judge!.passed).length, failed: policyOnly.filter((w) => !w.judge!.passed).length },
    agreement: {
      compared: keyed.length,
      agreed,
      rate: keyed.length ? Math.round((agreed / keyed.length) * 1e6) / 1e6 : null,
      key_passed: { judge_passed: cell(true, true), judge_failed: cell(true, false) },
      key_failed: { judge_passed: cell(false, true), judge_failed: cell(false, false) },
    },
  };
}

function sortedCounts(c: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of Object.keys(c).sort()) out[k] = c[k];
  return out;
}
