// `init --tickets`: an export row that imports but cannot be graded on the account (a requester address two
// customers share, say) is reported and left out of the tasks file, instead of throwing away the whole init
// (and the account it may just have imported from Stripe) for one row.
import { readFileSync, writeFileSync } from "node:fs";
import { isMap, isSeq, parseDocument } from "yaml";
import type { Problem } from "../../core/kinds/account/tasks/problems";

/**
 * The tasks `problems` name, when every problem is one task's and every such task was imported (not written by
 * init itself); null when a problem is the file's or a starter task's, which leaving tasks out cannot fix.
 */
export function importedTasksToLeaveOut(problems: readonly Problem[], importedIds: ReadonlySet<string>): string[] | null {
  const ids = new Set<string>();
  for (const p of problems) {
    if (p.task === null || !importedIds.has(p.task)) return null;
    ids.add(p.task);
  }
  return ids.size ? [...ids] : null;
}

/** The ids of the tasks a tasks file holds, as the problems name them (an id as written, else its position). */
export function taskIdsOf(path: string): string[] {
  const doc = parseDocument(readFileSync(path, "utf8"));
  const tasks = doc.get("tasks");
  if (!isSeq(tasks)) return [];
  return tasks.items.map((item, i) => {
    const id = isMap(item) ? item.get("id") : undefined;
    return id === undefined || id === null ? String(i + 1) : String(id);
  });
}

/** Removes the named tasks from the file, comments and the other tasks kept as they were. */
export function leaveOutTasks(path: string, ids: readonly string[]): void {
  const doc = parseDocument(readFileSync(path, "utf8"));
  const tasks = doc.get("tasks");
  if (!isSeq(tasks)) return;
  const drop = new Set(ids);
  tasks.items = tasks.items.filter((item) => !(isMap(item) && drop.has(String(item.get("id")))));
  writeFileSync(path, doc.toString());
}
