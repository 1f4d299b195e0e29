// A task file from disk into tasks, or the problems that stop it, each already in `file:line:column: message` form.
import { readFile } from "node:fs/promises";
import { loadTasks, type LoadedTask } from "../../core/kinds/replay/task-format/index";
import { decodeTasksBytes, MAX_TASKS_FILE_BYTES } from "../../core/kinds/account/tasks/source";
import { formatProblem } from "../../core/kinds/account/tasks/problems";

export type ReadResult = { ok: true; tasks: LoadedTask[] } | { ok: false; lines: string[] };

export async function readTaskFile(path: string): Promise<ReadResult> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { ok: false, lines: [`${path}: ${code === "ENOENT" ? "no such file" : (e as Error).message}`] };
  }
  if (bytes.byteLength > MAX_TASKS_FILE_BYTES) return { ok: false, lines: [`${path}: the file is larger than a task file may be`] };
  const decoded = decodeTasksBytes(bytes, path);
  if (!decoded.ok) return { ok: false, lines: decoded.problems.map(formatProblem) };
  const r = loadTasks(decoded.text, path);
  return r.ok ? r : { ok: false, lines: r.problems.map(formatProblem) };
}
