// The lines of a failed agent's stderr worth reading first. A crash often says why once, near the top
// (`Error: Cannot find module ...`), then prints a stack and the runtime's own footer: the last lines alone cut
// the reason, the first alone cut where it ended. So: the first line that reads like an error, then the tail.

/** The prefix of the evidence note that carries these lines (record.ts writes it, the text report reads it). */
export const STDERR_NOTE = "agent stderr";

const ERROR_WORDS = /\b(error|exception|cannot|can't|could not|failed|fatal|panic|denied|not found|refused|unhandled|traceback)\b/i;
/** errno codes (ENOENT, ECONNREFUSED) and Node's own (ERR_MODULE_NOT_FOUND), which are upper case. */
const ERROR_CODES = /\bE[A-Z]{3,}\b|\bERR_[A-Z_]+/;
/** A thrown error as runtimes print it (`Error: ...`, `TypeError [ERR_X]: ...`, `ValueError: ...`): the best line of all. */
const THROWN = /^\s*(Uncaught\s+)?[A-Za-z.]*(Error|Exception)\b[^:]*:/;
const MAX_LINE = 300;

/**
 * At most `tail + 2` lines: the first error-looking line (when it is not already in the tail), a marker for
 * what was skipped, and the last `tail` non-empty lines. Each line is cut at 300 characters.
 */
export function decisiveLines(stderr: string, tail = 5): string[] {
  const lines = stderr.split(/\r?\n/).map((l) => l.trimEnd()).filter((l) => l.trim() !== "");
  const cut = (l: string) => (l.length > MAX_LINE ? `${l.slice(0, MAX_LINE)}…` : l);
  if (lines.length <= tail) return lines.map(cut);
  const start = lines.length - tail;
  const thrown = lines.findIndex((l) => THROWN.test(l));
  const first = thrown >= 0 ? thrown : lines.findIndex((l) => ERROR_WORDS.test(l) || ERROR_CODES.test(l));
  const out: string[] = [];
  if (first >= 0 && first < start) {
    out.push(lines[first]);
    if (first + 1 < start) out.push(`… ${linesWord(start - first - 1)}`);
  } else out.push(`… ${linesWord(start)} before`);
  out.push(...lines.slice(start));
  return out.map(cut);
}

function linesWord(n: number): string {
  return `${n} line${n === 1 ? "" : "s"}`;
}

/** The evidence note for a failed agent's stderr, or null when it wrote nothing. */
export function stderrNote(stderr: string, tail = 8): string | null {
  const lines = decisiveLines(stderr, tail);
  return lines.length > 0 ? `${STDERR_NOTE}: ${lines.join("\n")}` : null;
}

/** The stderr lines a note carries, from a world's evidence notes (empty when there is none). */
export function stderrFromNotes(notes: readonly string[]): string[] {
  const note = notes.find((n) => n.startsWith(`${STDERR_NOTE}`));
  if (!note) return [];
  return note.slice(note.indexOf(":") + 1).trimStart().split("\n");
}
