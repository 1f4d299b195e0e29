// A run's file flags and agent command with bundled references resolved (src/cli/bundled/resolve.ts): what
// passk, judge check and the other runners read is a path, and what the user typed is said once, in words.
import { isBundledRef, resolveCommand, resolveRef, type BundledKind } from "./resolve";

export interface FileFlags {
  tasks?: string;
  seed?: string;
  rubric?: string;
  scenario?: string;
  policy?: string;
}

/** Which bundled kinds each flag takes by name. */
const EXPECT: Record<keyof FileFlags, readonly BundledKind[]> = {
  tasks: ["pack", "example"],
  seed: ["seed"],
  rubric: ["rubric"],
  scenario: ["scenario"],
  policy: ["example", "seed"],
};

export type ResolvedInputs<F extends FileFlags> = { ok: true; flags: F; command: string[] | null; notes: string[] } | { ok: false; message: string };

/**
 * Each file flag replaced by the file it names when it is a bundled reference or falls back to the package; a
 * flag naming the user's own file (or a library name such as `--seed acme-small`) is left exactly as typed.
 */
export function resolveInputs<F extends FileFlags>(flags: F, command: string[] | null, cwd: string): ResolvedInputs<F> {
  const out: F = { ...flags };
  const notes: string[] = [];
  for (const key of Object.keys(EXPECT) as Array<keyof FileFlags>) {
    const ref = flags[key];
    if (ref === undefined) continue;
    const r = resolveRef(ref, cwd, EXPECT[key]);
    if (!r.ok) return { ok: false, message: `--${key} ${r.message}` };
    if (r.note === null) continue;
    // The server knows its scenarios by name: `scenario:slow-api` is the library's slow-api, not a file upload.
    out[key] = (key === "scenario" && isBundledRef(ref) ? r.name! : r.path) as F[typeof key];
    notes.push(`--${key} ${r.note}`);
  }
  if (!command) return { ok: true, flags: out, command, notes };
  const c = resolveCommand(command, cwd);
  if (!c.ok) return { ok: false, message: `the agent command: ${c.message}` };
  return { ok: true, flags: out, command: c.argv, notes: [...notes, ...c.notes.map((n) => `the agent command's ${n}`)] };
}
