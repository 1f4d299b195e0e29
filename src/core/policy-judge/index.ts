// The policy judge (docs/judge.md): one model reads the policy, the ticket, the reply and the agent's changes,
// and answers pass or fail with a finding per rule it applied. A second opinion beside the key, the only grade
// of a policy-only task, and never a cause of a run's status or exit code.
export { judgeCases, JUDGE_REPLY_CHARS, type JudgeCase } from "./case";
export { judgeCase, type JudgeSetup } from "./judge";
export { judgeEpisodeRecord } from "./episode";
export { JUDGE_PROMPT_VERSION, JUDGE_SYSTEM, JUDGE_MAX_TOKENS, judgeRequest, judgeUserMessage, judgeAnswer, type JudgeAnswer } from "./prompt";
export { judgeRecord, judgeFinding, judgeErrorRecord, JUDGE_GRADER, JUDGE_OUTCOMES, type JudgeRecord, type JudgeFinding, type JudgeOutcome } from "./record";
export { DEFAULT_JUDGE_MODEL, MAX_POLICY_CHARS, checkPolicyText, type PolicyCheck } from "./settings";
export { agreementReport, agreementText, type AgreementReport, type AgreementRow, type Cells, type JudgeColumn } from "./agreement";
export { hostedJudgeRequest, storedJudge, type HostedJudgeRequest, type StoredJudge } from "./hosted";
