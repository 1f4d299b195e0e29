// `loadTasks(file)` beside runTask in the package: a task file (a benchmark, a bare list, one task; JSON or YAML)
// read and checked by the same reader as `worlds evals`, answering each task as the file holds it, ready for
// runTask. `parseTasks(text)` does the same for text in hand, in any runtime; loadTasks reads the file with
// node:fs, loaded only when called, so the package still runs where there is no file system. A file with problems
// throws TaskFileError with every problem, each naming the file, line, task and field.
import { loadTasks as readTasks } from "../kinds/replay/task-format/load";
import { decodeTasksBytes, MAX_TASKS_FILE_BYTES } from "../kinds/account/tasks/source";
import { formatProblem } from "../kinds/account/tasks/problems";

export class TaskFileError extends Error {
  constructor(
    readonly file: string,
    readonly problems: string[],
  ) {
    super(`${file} has ${problems.length} problem${problems.length === 1 ? "" : "s"}:\n${problems.join("\n")}`);
    this.name = "TaskFileError";
  }
}

export function parseTasks(text: string, name = "tasks.json"): Array<Record<string, unknown>> {
  const r = readTasks(text, name);
  if (!r.ok) throw new TaskFileError(name, r.problems.map(formatProblem));
  return r.tasks.map((t) => structuredClone(t.raw));
}

export async function loadTasks(file: string): Promise<Array<Record<string, unknown>>> {
  const { readFile } = await import("node:fs/promises");
  const bytes = new Uint8Array(await readFile(file));
  if (bytes.byteLength > MAX_TASKS_FILE_BYTES) throw new TaskFileError(file, [`${file}: the file is larger than a task file may be (${MAX_TASKS_FILE_BYTES} bytes)`]);
  const decoded = decodeTasksBytes(bytes, file);
  if (!decoded.ok) throw new TaskFileError(file, decoded.problems.map(formatProblem));
  return parseTasks(decoded.text, file);
}
