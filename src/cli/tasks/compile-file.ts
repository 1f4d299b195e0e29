// A tasks file compiled from disk: the bytes read within the limit, the seed and identity map found beside the
// file (or in the library), the policy file checked. Shared by validate and build.
import { dirname, resolve } from "node:path";
import { compileTasksFile, formatProblem, readTasksFile, type CompileOptions, type CompileResult, type Problem } from "../../core/kinds/account/tasks/index";
import { ownToolsRefusal, ownToolsRefusalOfRead } from "../tools/refusal";
import { checkPolicyRef, loadIdentityMapRef, loadSeedRef, readTasksBytes } from "./files";
import type { CliIo } from "./io";
import { scenarioProblem } from "../passk/scenario";

export type DiskCompile =
  | {
      refusal: null;
      result: CompileResult;
      /** The file's text as read (for --rewrite); null when it could not be read as text. */
      text: string | null;
    }
  /** The file holds tasks on a team's own tools (tools/refusal.ts): the one line to print, exit 2, nothing compiled. */
  | { refusal: string };

/**
 * `refuseAs` names the command in the refusal of a file on a team's own tools, checked (from the same read and
 * parse) before anything compiles; without it the file is not checked for that.
 */
export async function compileFromDisk(io: CliIo, file: string, options?: CompileOptions): Promise<Extract<DiskCompile, { refusal: null }>>;
export async function compileFromDisk(io: CliIo, file: string, options: CompileOptions, refuseAs: string): Promise<DiskCompile>;
export async function compileFromDisk(io: CliIo, file: string, options: CompileOptions = {}, refuseAs?: string): Promise<DiskCompile> {
  const path = resolve(io.cwd, file);
  const bytes = readTasksBytes(io, file);
  if (!bytes.ok) {
    // Unreadable as a tasks file (a directory, too large): the refusal still reads its head, as it always did.
    const refusal = refuseAs === undefined ? null : ownToolsRefusal(path, file, refuseAs);
    return refusal ? { refusal } : { refusal: null, result: { ok: false, problems: bytes.problems }, text: null };
  }
  // One read and one YAML parse serve both the refusal and the compile.
  const read = readTasksFile(bytes.bytes, file);
  const refusal = refuseAs === undefined ? null : ownToolsRefusalOfRead(path, file, refuseAs, bytes.bytes, read);
  if (refusal) return { refusal };
  const dir = dirname(path);
  const result = await compileTasksFile({
    text: bytes.bytes,
    read,
    fileName: file,
    loadSeed: async (ref) => loadSeedRef(io, ref, dir),
    loadIdentityMap: async (ref) => loadIdentityMapRef(ref, dir),
    checkPolicy: async (ref) => checkPolicyRef(io, ref, dir),
    checkScenario: async (ref) => scenarioProblem(ref, resolve(io.cwd, file)),
    options,
  });
  // The text --rewrite edits: the one the compile parsed (BOM removed), not parsed again.
  return { refusal: null, result, text: result.ok ? read.text : null };
}

/** Every problem, one per line, then the count: what validate and build print on stderr before exiting 2. */
export function printProblems(io: CliIo, problems: Problem[], tail: string): void {
  for (const p of problems) io.err(formatProblem(p) + "\n");
  io.err(`${problems.length} problem${problems.length === 1 ? "" : "s"}${tail}\n`);
}
