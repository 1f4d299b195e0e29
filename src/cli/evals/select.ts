// The tasks a command works on: the file's, narrowed by --task SLUG (repeatable) and --split. A slug the file does
// not hold is a flag problem naming the file and its slugs, never an empty run. Shared by `evals run` and `evals check`.
import type { LoadedTask } from "../../core/kinds/replay/task-format/index";
import { FlagError } from "../flags";

export function selectTasks(sub: string, file: string, all: LoadedTask[], f: { task?: string[]; split?: "train" | "held_out" }): LoadedTask[] {
  let tasks = all;
  if (f.task?.length) {
    const unknown = f.task.filter((s) => !all.some((t) => t.task.slug === s));
    if (unknown.length) throw new FlagError(sub, `--task ${unknown.join(", ")}: no such task in ${file} (tasks: ${all.map((t) => t.task.slug).join(", ")})`);
    tasks = tasks.filter((t) => f.task!.includes(t.task.slug));
  }
  if (f.split) tasks = tasks.filter((t) => t.task.split === f.split);
  return tasks;
}
