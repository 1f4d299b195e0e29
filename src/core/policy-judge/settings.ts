// The judge's defaults and the limits on what it is given.
export const DEFAULT_JUDGE_MODEL = "openai:gpt-4.1-mini";
/** A policy is plain words for people; past this it is not a policy but a manual, and every judgement pays for it. */
export const MAX_POLICY_CHARS = 100_000;

export type PolicyCheck = { ok: true; text: string } | { ok: false; message: string };

export function checkPolicyText(text: string, source: string): PolicyCheck {
  const trimmed = text.replace(/^\uFEFF/, "").trim();
  if (!trimmed) return { ok: false, message: `the policy ${source} is empty: the judge has nothing to judge against` };
  if (trimmed.length > MAX_POLICY_CHARS) return { ok: false, message: `the policy ${source} is ${trimmed.length} characters, more than the ${MAX_POLICY_CHARS} a judge is given` };
  return { ok: true, text: trimmed };
}
