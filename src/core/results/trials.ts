// The per-task view of a results document that statistics across runs need: each task's marks, its success
// counts with and without infrastructure errors, and the money wrong each run, attributed to the task whose world
// it was. Money that belongs to no single task (a shift world's checks, the run's budget) is kept apart, per run.
import { trialMark } from "./pattern";

/** The fields of a results document this reads; a full Results satisfies it, and so does an older document. */
export interface ResultsLike {
  crash_test: { tasks: readonly { id: string; position: number; keyed: boolean; trials: number; passed: number; infra_errors: number }[] };
  tasks: { items: readonly { id: string; position: number; subject: string; keyed: boolean; expected: string | null }[] };
  runs: readonly {
    index: number;
    dollars_wrong_cents: number;
    worlds: readonly {
      position: number;
      world: string | null;
      passed: boolean | null;
      verdict: string | null;
      dollars_wrong_cents: number;
      checks: readonly { dollars_wrong_cents: number }[];
    }[];
  }[];
}

export interface TaskRecord {
  id: string;
  position: number;
  subject: string;
  keyed: boolean;
  expected: string | null;
  /** One mark per run of the document, in run order (see pattern.ts). */
  pattern: string;
  /** Trials with infrastructure errors counted as not passed (the document's own figures). */
  trials: number;
  passed: number;
  infra_errors: number;
  /** Cents wrong in each run the task ran, in run order: its graded money plus the checks of a world it had alone. */
  dollars_per_run: number[];
}

export interface TrialTable {
  tasks: TaskRecord[];
  /** Cents per run that no single task owns. */
  residual_per_run: number[];
}

export function trialTable(doc: ResultsLike): TrialTable {
  const items = new Map(doc.tasks.items.map((i) => [i.position, i]));
  const runs = [...doc.runs].sort((a, b) => a.index - b.index);
  const residual: number[] = [];
  const perTask = new Map<number, number[]>();
  for (const run of runs) {
    const sharing = new Map<string, number>();
    for (const w of run.worlds) if (w.world !== null) sharing.set(w.world, (sharing.get(w.world) ?? 0) + 1);
    let attributed = 0;
    for (const w of run.worlds) {
      // Every task of a shared (shift) world carries that world's checks: they are the world's, not the task's.
      const alone = w.world !== null && sharing.get(w.world) === 1;
      const cents = w.dollars_wrong_cents + (alone ? sum(w.checks.map((c) => c.dollars_wrong_cents)) : 0);
      attributed += cents;
      perTask.set(w.position, [...(perTask.get(w.position) ?? []), cents]);
    }
    residual.push(Math.max(0, run.dollars_wrong_cents - attributed));
  }
  const tasks = doc.crash_test.tasks.map((t): TaskRecord => {
    const item = items.get(t.position);
    const pattern = runs.map((run) => trialMark(run.worlds.find((w) => w.position === t.position))).join("");
    return {
      id: t.id,
      position: t.position,
      subject: item?.subject ?? "",
      keyed: t.keyed,
      expected: item?.expected ?? null,
      pattern: t.keyed ? pattern : "",
      trials: t.trials,
      passed: t.passed,
      infra_errors: t.infra_errors,
      dollars_per_run: perTask.get(t.position) ?? [],
    };
  });
  return { tasks, residual_per_run: residual };
}

/** Mean cents per run of one task (0 when it never ran). */
export function meanPerRun(cents: readonly number[]): number {
  return cents.length === 0 ? 0 : sum(cents) / cents.length;
}

function sum(xs: readonly number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return s;
}
