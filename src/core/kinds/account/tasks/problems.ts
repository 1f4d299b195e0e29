// A problem found in a tasks file, always pinned to a place a user can jump to: file, line, column, and the
// task it belongs to. Every tasks command prints problems in this one form, so an editor can link them.

export interface Problem {
  file: string;
  /** 1-based; 1 when the problem is about the file as a whole. */
  line: number;
  /** 1-based. */
  column: number;
  /** The task's label (its own id, or its position) when the problem is inside a task. */
  task: string | null;
  /** The field path inside the document, e.g. `tasks[3].expected` (empty for the file itself). */
  path: string;
  /** The full message, already prefixed with `task <label>: ` when it concerns a task. */
  message: string;
}

export function formatProblem(p: Problem): string {
  return `${p.file}:${p.line}:${p.column}: ${p.message}`;
}

/** Problems in reading order; at one position, in the order they were found (the sort is stable). */
export function sortProblems(problems: Problem[]): Problem[] {
  return [...problems].sort((a, b) => a.line - b.line || a.column - b.column);
}
