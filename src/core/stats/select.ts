// Which tasks deserve attention: the ones whose verdict flips between runs, and the single worst one.

/** A task is flaky when its runs did not all end the same way (infrastructure errors are not the agent's). */
export function isFlaky(outcomes: readonly (string | null)[]): boolean {
  const seen = new Set(outcomes.filter((o): o is string => o !== null));
  return seen.size > 1;
}

export interface WorstCandidate {
  /** Position in the tasks file (1-based); the last tie-breaker, so the choice never depends on sort stability. */
  position: number;
  /** Successes over trials; null for a task with no key (never a candidate). */
  accuracy: number | null;
  /** Cents graded wrong across every run. */
  dollarsWrongCents: number;
}

/**
 * The worst task: lowest accuracy, then most money wrong, then earliest in the file. A suite where every
 * keyed task passed every run with no money wrong has no worst task (nothing to replay): returns null.
 */
export function pickWorst<T extends WorstCandidate>(tasks: readonly T[]): T | null {
  let worst: T | null = null;
  for (const t of tasks) {
    if (t.accuracy === null) continue;
    if (t.accuracy >= 1 && t.dollarsWrongCents === 0) continue;
    if (worst === null || worse(t, worst)) worst = t;
  }
  return worst;
}

function worse(a: WorstCandidate, b: WorstCandidate): boolean {
  if (a.accuracy !== b.accuracy) return (a.accuracy ?? 1) < (b.accuracy ?? 1);
  if (a.dollarsWrongCents !== b.dollarsWrongCents) return a.dollarsWrongCents > b.dollarsWrongCents;
  return a.position < b.position;
}
