// The policy judge in hosted runs. At creation: the model is checked against the server's own keys and base
// URLs, the policy stored in R2 under its hash and the budget opened in D1. Per episode: the world's tasks are
// judged with the same core code as `passk --judge`, answers cached in R2, the budget held across isolates.
import type { Env } from "../../env";
import { checkPolicyText, judgeCases, judgeErrorRecord, judgeEpisodeRecord, JUDGE_PROMPT_VERSION, type HostedJudgeRequest, type StoredJudge } from "../../core/policy-judge/index";
import { dollarsToMicros, ModelClient, parseModelName, pickModelEnv, resolveEndpoint, type ModelName } from "../../core/models/index";
import type { WorldDiff } from "../../core/world/diff/types";
import type { WorldGrade } from "../../core/kinds/account/grader/index";
import type { EpisodeRecordInput } from "../../core/results/index";
import type { JudgeRunInput } from "../../core/results/judge";
import type { JudgeableEnd } from "../../core/pipeline/index";
import { sha256Hex } from "../../core/util/canonical";
import { D1Budget } from "../models/d1-budget";
import { R2ModelCache } from "../models/r2-cache";

export const policyKey = (hash: string) => `policies/${hash}.txt`;

export type JudgeStart = { ok: true; stored: StoredJudge | null } | { ok: false; status: 400; code: string; message: string };

/** Checks and stores a run request's judge before the run exists; a judge the server cannot run refuses the run. */
export async function prepareRunJudge(env: Env, req: HostedJudgeRequest | undefined): Promise<JudgeStart> {
  if (!req) return { ok: true, stored: null };
  const model = parseModelName(req.model);
  if (!model.ok) return { ok: false, status: 400, code: "invalid_judge", message: `judge.model: ${model.message}` };
  const endpoint = resolveEndpoint(model.value.provider, pickModelEnv(env as unknown as Record<string, string | undefined>));
  if (!endpoint.ok) return { ok: false, status: 400, code: "judge_unavailable", message: `The server cannot run the judge: ${endpoint.message}. Set it as a secret (wrangler secret put ${model.value.provider === "openai" ? "OPENAI_API_KEY" : "ANTHROPIC_API_KEY"}).` };
  const policy = checkPolicyText(req.policy, "in judge.policy");
  if (!policy.ok) return { ok: false, status: 400, code: "invalid_judge", message: policy.message };
  const sha = await sha256Hex(policy.text);
  const key = policyKey(sha);
  if (!(await env.ARTIFACTS.head(key))) await env.ARTIFACTS.put(key, policy.text, { httpMetadata: { contentType: "text/plain; charset=utf-8" } });
  return { ok: true, stored: { model: req.model, policy_key: key, policy_sha256: sha, policy_chars: policy.text.length, budget_usd: req.budget_usd ?? null, cache: req.cache } };
}

/** After the run row exists: its budget row. */
export async function openRunBudget(env: Env, runId: string, judge: StoredJudge | null): Promise<void> {
  if (judge?.budget_usd) await D1Budget.open(env.DB, runId, dollarsToMicros(judge.budget_usd));
}

/** What the results builder is told about the run's judge. */
export function judgeRunInput(judge: StoredJudge | null | undefined): JudgeRunInput | null {
  if (!judge) return null;
  return { model: judge.model, prompt_version: JUDGE_PROMPT_VERSION, policy: { source: "judge.policy", sha256: judge.policy_sha256, chars: judge.policy_chars }, budget_dollars: judge.budget_usd };
}

const policies = new Map<string, string>();

async function policyText(env: Env, key: string): Promise<string> {
  const hit = policies.get(key);
  if (hit !== undefined) return hit;
  const obj = await env.ARTIFACTS.get(key);
  if (!obj) throw new Error(`the run's policy ${key} is missing from R2`);
  const text = await obj.text();
  policies.set(key, text);
  while (policies.size > 16) policies.delete(policies.keys().next().value as string);
  return text;
}

/**
 * Judges one graded episode's tasks onto its record. `fetcher` is the consumer's (tests route the model's host to
 * the scripted model through it). A failure to set the judge up lands on every task as that task's error.
 */
export async function judgeHostedEpisode(env: Env, runId: string, judge: StoredJudge, end: JudgeableEnd, record: EpisodeRecordInput, fetcher: typeof fetch): Promise<void> {
  const { plan, mode, grade, diff, reply } = end;
  const parsed = parseModelName(judge.model);
  const endpoint = parsed.ok ? resolveEndpoint(parsed.value.provider, pickModelEnv(env as unknown as Record<string, string | undefined>)) : null;
  if (!parsed.ok || !endpoint?.ok) {
    const message = !parsed.ok ? parsed.message : endpoint && !endpoint.ok ? endpoint.message : "no endpoint";
    for (const g of record.grades ?? []) g.judge = judgeErrorRecord(judge.model, message);
    return;
  }
  const model: ModelName = parsed.value;
  const client = new ModelClient({
    endpoints: { [model.provider]: endpoint.endpoint },
    fetch: fetcher,
    budget: judge.budget_usd ? new D1Budget(env.DB, runId, dollarsToMicros(judge.budget_usd)) : null,
    cache: judge.cache ? new R2ModelCache(env.ARTIFACTS) : null,
  });
  try {
    const policy = await policyText(env, judge.policy_key);
    const tasks = new Map(plan.tasks.map((t) => [t.ticket.id, t.task]));
    await judgeEpisodeRecord({ client, model, policy }, record, judgeCases(tasks, mode, grade, diff, reply));
  } catch (e) {
    for (const g of record.grades ?? []) if (!g.judge) g.judge = judgeErrorRecord(judge.model, client.redact((e as Error).message));
  }
}
