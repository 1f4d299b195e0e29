// The rubric judge's flags (`evals check`, `evals run`): its model, endpoint, timeout and cache; its key only from
// the environment.
import type { FlagDefs } from "../flags";
import { flag } from "../flags";
import { DEFAULT_JUDGE_MODEL } from "../../core/policy-judge/settings";
import { parseModelName } from "../../core/models/index";
import type { RubricJudge } from "../../core/kinds/replay/rubric/index";
import { JUDGE_CLIENT_FLAG_DEFS, JUDGE_CLIENT_FLAG_SHAPE } from "../models/flags";
import { setupModelClient } from "../models/setup";

export const JUDGE_DEFS: FlagDefs = {
  judge: { kind: "value", placeholder: "P:M", help: `the model that grades rubric criteria (default ${DEFAULT_JUDGE_MODEL}; openai:<model> or anthropic:<model>)` },
  ...JUDGE_CLIENT_FLAG_DEFS,
  "no-cache": { kind: "switch", help: "ask the judge again instead of reusing cached answers (.worlds/cache/models)" },
};
export const JUDGE_SHAPE = {
  judge: flag.text().optional(),
  ...JUDGE_CLIENT_FLAG_SHAPE,
};
export type JudgeFlags = { judge?: string; "judge-base-url"?: string; "judge-timeout"?: number; "model-prices"?: string; "no-cache"?: boolean };

/** The judge from the flags and the environment alone (keys only from there), or why it cannot be had. */
export function judgeFrom(f: JudgeFlags): { ok: true; judge: RubricJudge } | { ok: false; message: string } {
  const parsed = parseModelName(f.judge ?? DEFAULT_JUDGE_MODEL);
  if (!parsed.ok) return { ok: false, message: `--judge: ${parsed.message}` };
  const client = setupModelClient({ model: parsed.value, baseUrl: f["judge-base-url"], noCache: !!f["no-cache"], pricesFile: f["model-prices"], timeoutS: f["judge-timeout"] });
  if (!client.ok) return { ok: false, message: `the judge: ${client.message} (${client.nextAction})` };
  return { ok: true, judge: { client: client.client, model: parsed.value } };
}

