// A tasks file compiled from disk: the bytes read within the limit, the seed and identity map found beside the
// file (or in the library), the policy file checked. Shared by validate and build.
import { dirname, resolve } from "node:path";
import { compileTasksFile, formatProblem, type CompileOptions, type CompileResult, type Problem } from "../../core/tasks/index";
import { decodeTasksBytes } from "../../core/tasks/source";
import { checkPolicyRef, loadIdentityMapRef, loadSeedRef, readTasksBytes } from "./files";
import type { CliIo } from "./io";
import { scenarioProblem } from "../passk/scenario";

export interface DiskCompile {
  result: CompileResult;
  /** The file's text as read (for --rewrite); null when it could not be read as text. */
  text: string | null;
}

export async function compileFromDisk(io: CliIo, file: string, options: CompileOptions = {}): Promise<DiskCompile> {
  const read = readTasksBytes(io, file);
  if (!read.ok) return { result: { ok: false, problems: read.problems }, text: null };
  const dir = dirname(resolve(io.cwd, file));
  const result = await compileTasksFile({
    text: read.bytes,
    fileName: file,
    loadSeed: async (ref) => loadSeedRef(io, ref, dir),
    loadIdentityMap: async (ref) => loadIdentityMapRef(ref, dir),
    checkPolicy: async (ref) => checkPolicyRef(io, ref, dir),
    checkScenario: async (ref) => scenarioProblem(ref, resolve(io.cwd, file)),
    options,
  });
  // The text --rewrite edits: decoded again (cheap), not parsed again (the YAML parse is most of a build).
  const decoded = result.ok ? decodeTasksBytes(read.bytes, file) : null;
  const text = decoded?.ok ? decoded.text : null;
  return { result, text };
}

/** Every problem, one per line, then the count: what validate and build print on stderr before exiting 2. */
export function printProblems(io: CliIo, problems: Problem[], tail: string): void {
  for (const p of problems) io.err(formatProblem(p) + "\n");
  io.err(`${problems.length} problem${problems.length === 1 ? "" : "s"}${tail}\n`);
}
