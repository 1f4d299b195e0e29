// A task's runs in one glance: one mark per run, in run order. It is how the report and the comparison show a
// flaky task (✓✗✓) apart from one that always fails (✗✗✗); an infrastructure error has its own mark because it
// says nothing about the agent.

export const MARK = { passed: "✓", failed: "✗", infra_error: "!", not_run: "·" } as const;

/** The mark of one trial of a keyed task (a policy-only task or a task that did not run gets the not-run dot). */
export function trialMark(w: { passed: boolean | null; verdict: string | null } | undefined): string {
  if (!w) return MARK.not_run;
  if (w.verdict === "infra_error") return MARK.infra_error;
  if (w.passed === true) return MARK.passed;
  if (w.passed === false) return MARK.failed;
  return MARK.not_run;
}

/** Some runs succeeded and some failed (infrastructure errors aside): flaky in the sense a person means. */
export function mixedPattern(pattern: string): boolean {
  return pattern.includes(MARK.passed) && pattern.includes(MARK.failed);
}

/** Every run that said anything about the agent failed: it never succeeded once. */
export function neverPassed(pattern: string): boolean {
  return pattern.includes(MARK.failed) && !pattern.includes(MARK.passed);
}
