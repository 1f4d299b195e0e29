// The worlds/tasks.yaml init writes: the packs' shared header (seed, mode, currency, plans, the two invariants),
// the policy beside it, and the chosen tasks as the packs wrote them.
import { Document, isMap, isSeq } from "yaml";
import type { PackTask } from "./packs";
import { STARTER_INVARIANTS } from "../../core/kinds/account/tasks/invariants";

const STRINGIFY = { lineWidth: 0, flowCollectionPadding: false, blockQuote: "literal" } as const;

export interface TasksFileSpec {
  seed: string;
  policy: string;
  /** What the tasks are, for the header comment. */
  origin: string;
  header: { mode?: unknown; currency?: unknown; plan_names?: unknown; invariants?: unknown };
  tasks: PackTask[];
}

/** The two checks every starter carries: a run fails when a customer is deleted or a subscription created. */
export { STARTER_INVARIANTS };

export function renderTasksFile(spec: TasksFileSpec): string {
  const head: Record<string, unknown> = { version: 1, seed: spec.seed, policy: spec.policy, mode: spec.header.mode ?? "isolated" };
  if (spec.header.currency) head.currency = spec.header.currency;
  if (spec.header.plan_names) head.plan_names = spec.header.plan_names;
  head.invariants = spec.header.invariants ?? STARTER_INVARIANTS;
  const doc = new Document({ ...head, tasks: spec.tasks.map(stripUndefined) });
  const planNames = doc.get("plan_names", true);
  if (isSeq(planNames)) planNames.flow = true;
  const tasks = doc.get("tasks", true);
  if (isSeq(tasks)) {
    tasks.flow = spec.tasks.length === 0;
    tasks.items.forEach((item, i) => {
      if (!isMap(item)) return;
      // A blank line between tasks, as the packs are laid out.
      if (i > 0) item.spaceBefore = true;
      for (const key of ["tags", "decoys", "terminal_status"]) {
        const seq = item.get(key, true);
        if (isSeq(seq)) seq.flow = true;
      }
    });
  }
  const comment = [
    "worlds/tasks.yaml: your crash test, written by `worlds init`.",
    spec.origin,
    "Check it after every edit: worlds tasks validate worlds/tasks.yaml",
    "Run it:                    worlds passk --tasks worlds/tasks.yaml -- <your agent command>",
    "docs/tasks-file.md has the format and the expected: grammar.",
  ];
  doc.commentBefore = comment.map((l) => ` ${l}`).join("\n");
  return doc.toString(STRINGIFY);
}

function stripUndefined(t: PackTask): Record<string, unknown> {
  return Object.fromEntries(Object.entries(t).filter(([, v]) => v !== undefined));
}
