// passk's policy judge: the flags and the tasks file's `policy:` become a judge for the run (a model client, the
// policy text, the results' judge input) and the hook that judges each graded episode. Every problem is found
// here, before a server or a world exists, and is a configuration error (exit 2).
import { readFileSync, statSync } from "node:fs";
import { z } from "zod";
import { dirname, isAbsolute, join, resolve } from "node:path";
import type { WorldDiff } from "../../core/world/diff/types";
import type { WorldGrade } from "../../core/kinds/account/grader/index";
import { checkPolicyText, DEFAULT_JUDGE_MODEL, JUDGE_PROMPT_VERSION, judgeCases, judgeEpisodeRecord, judgeErrorRecord, type JudgeSetup } from "../../core/policy-judge/index";
import { modelLabel, parseModelName, type ModelClient, type ModelName } from "../../core/models/index";
import type { EpisodeRecordInput } from "../../core/results/index";
import type { JudgeRunInput } from "../../core/results/judge";
import type { RunMode, RunPlan } from "../../core/pipeline/index";
import { sha256Hex } from "../../core/util/canonical";
import { JUDGE_CLIENT_FLAG_DEFS, JUDGE_CLIENT_FLAG_SHAPE } from "../models/flags";
import { setupModelClient } from "../models/setup";
import type { EpisodeJudge } from "./execute";
import type { HostedJudgeRequest } from "../../core/policy-judge/index";
import { readTasksFile } from "../../core/kinds/account/tasks/index";
import { flag, type FlagDefs } from "../flags";

/** The judge's flags, shared by passk and `worlds judge check`. */
export const JUDGE_FLAG_DEFS: FlagDefs = {
  judge: { kind: "optional", placeholder: "P:M", implied: "", accepts: /^(openai|anthropic):\S+$/, help: `judge every task against the policy with this model (default ${DEFAULT_JUDGE_MODEL}; docs/judge.md)` },
  policy: { kind: "value", placeholder: "F", help: "the policy the judge reads (default: the tasks file's policy:)" },
  "judge-budget": { kind: "value", placeholder: "USD", help: "the most the judge may spend in this run, in dollars; past it tasks are skipped for budget" },
  ...JUDGE_CLIENT_FLAG_DEFS,
  "no-cache": { kind: "switch", help: "ask the model again instead of reusing cached judgements (.worlds/cache/models)" },
};

export const JUDGE_FLAG_SHAPE = {
  judge: z.string().optional(),
  policy: flag.text().optional(),
  "judge-budget": z
    .string()
    .regex(/^\d+(\.\d+)?$/, { message: "must be an amount in dollars, like 0.50" })
    .transform(Number)
    .pipe(z.number().max(100_000, { message: "must be at most 100000 dollars" }))
    .optional(),
  ...JUDGE_CLIENT_FLAG_SHAPE,
};

/** For usage lines: the judge's options in one bracket. */
export const JUDGE_USAGE = "[--judge [P:M]] [--policy F] [--judge-budget USD] [--judge-base-url URL] [--judge-timeout S] [--model-prices F] [--no-cache]";

/** The flags passk takes for the judge (see passk.ts DEFS). */
export interface JudgeFlags {
  judge?: string;
  policy?: string;
  "judge-budget"?: number;
  "judge-base-url"?: string;
  "judge-timeout"?: number;
  "model-prices"?: string;
  "no-cache"?: true;
}

export interface PasskJudge {
  run: JudgeRunInput;
  setup: JudgeSetup;
  /** One line for the run's header: which model, which policy, what budget. */
  line: string;
  hook(plan: RunPlan, mode: RunMode): EpisodeJudge;
}

export type JudgeChoice = { ok: true; judge: PasskJudge | null } | { ok: false; message: string; nextAction: string };

/** The judge's model and client, checked from the flags and the environment alone: before any server starts. */
export interface PreparedJudge {
  model: ModelName;
  client: ModelClient;
  budgetDollars: number | null;
  cached: boolean;
}

export type Prepared = { ok: true; prepared: PreparedJudge | null } | { ok: false; message: string; nextAction: string };

export function prepareJudge(f: JudgeFlags, env: NodeJS.ProcessEnv = process.env): Prepared {
  if (f.judge === undefined) {
    const stray = (["policy", "judge-budget", "judge-base-url", "judge-timeout"] as const).find((k) => f[k] !== undefined);
    if (stray) return { ok: false, message: `--${stray} applies to the policy judge, which is off`, nextAction: `add --judge (default model ${DEFAULT_JUDGE_MODEL}) to judge every task against the policy` };
    return { ok: true, prepared: null };
  }
  const parsed = parseModelName(f.judge || DEFAULT_JUDGE_MODEL);
  if (!parsed.ok) return { ok: false, message: `--judge: ${parsed.message}`, nextAction: `name the judge as provider:model, e.g. --judge ${DEFAULT_JUDGE_MODEL}` };
  const client = setupModelClient({ model: parsed.value, baseUrl: f["judge-base-url"], budgetDollars: f["judge-budget"], noCache: !!f["no-cache"], pricesFile: f["model-prices"], timeoutS: f["judge-timeout"] }, env);
  if (!client.ok) return { ok: false, message: `the judge: ${client.message}`, nextAction: client.nextAction };
  return { ok: true, prepared: { model: parsed.value, client: client.client, budgetDollars: client.budgetDollars, cached: client.cacheDir !== null } };
}

/**
 * The judge for the run, once the tasks file is compiled: `policyRef` is its `policy:` (relative to the file);
 * --policy (relative to the working directory) overrides it.
 */
export async function passkJudge(f: JudgeFlags, p: PreparedJudge | null, tasksFile: string | null, policyRef: string | null, signal: AbortSignal): Promise<JudgeChoice> {
  if (!p) return { ok: true, judge: null };
  const path = f.policy ? resolve(f.policy) : policyRef && tasksFile ? (isAbsolute(policyRef) ? policyRef : join(dirname(resolve(tasksFile)), policyRef)) : null;
  const source = f.policy ?? policyRef;
  if (!path || !source) return { ok: false, message: "the judge needs a policy: the tasks file has no policy: and no --policy was given", nextAction: "write your rules in plain words in a file and pass it with --policy FILE (or set policy: in the tasks file)" };
  let text: string;
  try {
    if (statSync(path).size > 4 * 1024 * 1024) return { ok: false, message: `the policy ${source} is over 4 MB`, nextAction: "give the judge the policy itself, in plain words" };
    text = readFileSync(path, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { ok: false, message: `cannot read the policy ${source} (${code === "ENOENT" ? "no such file" : code})`, nextAction: "pass an existing policy file with --policy FILE" };
  }
  const policy = checkPolicyText(text, source);
  if (!policy.ok) return { ok: false, message: policy.message, nextAction: "write the policy's rules in the file, one per line or paragraph" };

  const setup: JudgeSetup = { client: p.client, model: p.model, policy: policy.text, signal };
  const label = modelLabel(p.model);
  const run: JudgeRunInput = {
    model: label,
    prompt_version: JUDGE_PROMPT_VERSION,
    policy: { source, sha256: await sha256Hex(policy.text), chars: policy.text.length },
    budget_dollars: p.budgetDollars,
  };
  const line = `judge: ${label} on ${source}${p.budgetDollars !== null ? ` · budget $${p.budgetDollars.toFixed(2)}` : ""}${p.cached ? "" : " · no cache"}`;
  return {
    ok: true,
    judge: {
      run,
      line,
      setup,
      hook(plan, mode) {
        const tasks = new Map(plan.tasks.map((t) => [t.ticket.id, t.task]));
        return async (record: EpisodeRecordInput, grade: WorldGrade, diff: WorldDiff, reply: string) => {
          try {
            await judgeEpisodeRecord(setup, record, judgeCases(tasks, mode, grade, diff, reply));
          } catch (e) {
            // A bug here must not cost the run its results: each task says what went wrong.
            for (const g of record.grades ?? []) if (!g.judge) g.judge = judgeErrorRecord(label, p.client.redact((e as Error).message));
          }
        };
      },
    },
  };
}

export type HostedJudgeChoice = { ok: true; judge: HostedJudgeRequest | undefined } | { ok: false; message: string; nextAction: string };

/**
 * A hosted run's judge (`passk --agent-url ... --judge`): the policy's text goes in the request, because the
 * server reads no files; the model's key and base URL are the server's own, so flags that would set them here
 * are refused rather than silently ignored.
 */
export function hostedJudge(f: JudgeFlags, tasksFile: string): HostedJudgeChoice {
  if (f.judge === undefined) {
    const stray = (["policy", "judge-budget", "judge-base-url", "judge-timeout", "model-prices"] as const).find((k) => f[k] !== undefined);
    return stray ? { ok: false, message: `--${stray} applies to the policy judge, which is off`, nextAction: "add --judge to judge every task against the policy" } : { ok: true, judge: undefined };
  }
  const local = (["judge-base-url", "judge-timeout", "model-prices"] as const).find((k) => f[k] !== undefined);
  if (local) return { ok: false, message: `--${local} does not apply to a hosted run: the server calls the judge with its own settings`, nextAction: "set the server's OPENAI_BASE_URL / ANTHROPIC_BASE_URL variables and keys as secrets (docs/judge.md)" };
  const model = f.judge || DEFAULT_JUDGE_MODEL;
  const parsed = parseModelName(model);
  if (!parsed.ok) return { ok: false, message: `--judge: ${parsed.message}`, nextAction: `name the judge as provider:model, e.g. --judge ${DEFAULT_JUDGE_MODEL}` };
  let policyPath: string | null = f.policy ? resolve(f.policy) : null;
  if (!policyPath) {
    let ref: string | null = null;
    try {
      ref = readTasksFile(readFileSync(tasksFile), tasksFile).refs.policy;
    } catch {
      ref = null; // the tasks file is checked (and reported) when the run is compiled
    }
    if (ref) policyPath = isAbsolute(ref) ? ref : join(dirname(resolve(tasksFile)), ref);
  }
  if (!policyPath) return { ok: false, message: "the judge needs a policy: the tasks file has no policy: and no --policy was given", nextAction: "pass the policy with --policy FILE (or set policy: in the tasks file)" };
  let text: string;
  try {
    text = readFileSync(policyPath, "utf8");
  } catch (e) {
    return { ok: false, message: `cannot read the policy ${policyPath} (${(e as NodeJS.ErrnoException).code})`, nextAction: "pass an existing policy file with --policy FILE" };
  }
  const policy = checkPolicyText(text, policyPath);
  if (!policy.ok) return { ok: false, message: policy.message, nextAction: "write the policy's rules in the file" };
  return { ok: true, judge: { model, policy: policy.text, ...(f["judge-budget"] !== undefined ? { budget_usd: f["judge-budget"] } : {}), cache: !f["no-cache"] } };
}
