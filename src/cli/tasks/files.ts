// The tasks commands' file system side: reading a tasks file within its size limit, finding the seed a file
// names (beside the file, in WORLDS_SEEDS_DIR, or bundled with the package), reading the identity map only
// when no other user can, and writing outputs so that a failure never leaves half of them behind.
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
import type { IdentityMapInput, Problem, SeedLoad } from "../../core/kinds/account/tasks/index";
import { MAX_TASKS_FILE_BYTES } from "../../core/kinds/account/tasks/index";
import { formatSize, tooLargeProblem } from "../../core/kinds/account/tasks/source";
import { packageRoot } from "../paths";
import { parseJsonText } from "./json";
import type { CliIo } from "./io";

const SEED_NAME = /^[a-z0-9][a-z0-9-]*$/;
/** Seeds are generated documents and can be large, but not unbounded. */
const MAX_SEED_BYTES = 256 * 1024 * 1024;

export type ReadResult = { ok: true; bytes: Uint8Array } | { ok: false; problems: Problem[] };

function fileProblem(file: string, message: string): Problem {
  return { file, line: 1, column: 1, task: null, path: "", message };
}

/** Reads a tasks file, refusing one over the size limit before reading it. */
export function readTasksBytes(io: CliIo, file: string): ReadResult {
  const path = resolve(io.cwd, file);
  let size: number;
  try {
    const st = statSync(path);
    if (st.isDirectory()) return { ok: false, problems: [fileProblem(file, "is a directory, not a tasks file")] };
    size = st.size;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { ok: false, problems: [fileProblem(file, code === "ENOENT" ? "no such file" : `cannot read it (${code})`)] };
  }
  if (size > MAX_TASKS_FILE_BYTES) return { ok: false, problems: [tooLargeProblem(file, size)] };
  // Read at most one byte past the limit, in case the file grew since stat.
  const fd = openSync(path, "r");
  try {
    const buf = Buffer.alloc(Math.min(size, MAX_TASKS_FILE_BYTES) + 1);
    let n = 0;
    for (;;) {
      const r = readSync(fd, buf, n, buf.length - n, null);
      if (r === 0) break;
      n += r;
      if (n === buf.length) break;
    }
    if (n > MAX_TASKS_FILE_BYTES) return { ok: false, problems: [tooLargeProblem(file, n)] };
    return { ok: true, bytes: new Uint8Array(buf.buffer, buf.byteOffset, n) };
  } finally {
    closeSync(fd);
  }
}

function readJson(path: string, shown: string, what: string): { ok: true; value: unknown } | { ok: false; message: string } {
  const size = statSync(path).size;
  if (size > MAX_SEED_BYTES) return { ok: false, message: `${what} ${shown} is ${formatSize(size)}, more than the ${formatSize(MAX_SEED_BYTES)} a seed may be` };
  const r = parseJsonText(readFileSync(path, "utf8"));
  return r.ok ? r : { ok: false, message: `${what} ${shown} is not valid JSON: ${r.message}` };
}

/** Library directories in the order they are searched: the user's WORLDS_SEEDS_DIR, then the package's seeds/. */
export function seedLibraryDirs(env: CliIo["env"]): string[] {
  const dirs: string[] = [];
  if (env.WORLDS_SEEDS_DIR) dirs.push(resolve(env.WORLDS_SEEDS_DIR));
  dirs.push(join(packageRoot(), "seeds"));
  return dirs;
}

/**
 * A seed reference from a tasks file: a `.json` path that exists (relative to the tasks file) is a seed file;
 * anything else is a library name.
 */
export function loadSeedRef(io: CliIo, ref: string, tasksDir: string): SeedLoad {
  if (ref.endsWith(".json")) {
    const path = isAbsolute(ref) ? ref : join(tasksDir, ref);
    if (existsSync(path)) {
      const r = readJson(path, ref, "seed file");
      return r.ok ? { ok: true, document: r.value, label: ref } : r;
    }
    if (!SEED_NAME.test(ref)) return { ok: false, message: `seed file ${ref} does not exist (looked for ${relative(io.cwd, path) || path})` };
  }
  if (!SEED_NAME.test(ref)) return { ok: false, message: `'${ref}' is neither a .json seed file nor a seed name (lowercase letters, digits and dashes)` };
  const dirs = seedLibraryDirs(io.env);
  for (const dir of dirs) {
    const path = join(dir, `${ref}.json`);
    if (existsSync(path)) {
      const r = readJson(path, ref, "seed");
      return r.ok ? { ok: true, document: r.value, label: ref } : r;
    }
  }
  return { ok: false, message: `no seed named '${ref}' among the bundled seeds${io.env.WORLDS_SEEDS_DIR ? " or in WORLDS_SEEDS_DIR" : ""}; a seed file must end in .json` };
}

/** Identity maps hold real emails: one that other users can read is refused before it is opened. */
export function loadIdentityMapRef(ref: string, tasksDir: string): IdentityMapInput {
  const path = isAbsolute(ref) ? ref : join(tasksDir, ref);
  if (!existsSync(path)) return { path: ref, missing: true };
  const mode = statSync(path).mode & 0o777;
  if (process.platform !== "win32" && (mode & 0o077) !== 0) {
    return { path: ref, error: `${ref} can be read by other users (mode ${mode.toString(8).padStart(3, "0")}); it holds real emails, so run chmod 600 ${ref}` };
  }
  const r = parseJsonText(readFileSync(path, "utf8"));
  return r.ok ? { path: ref, document: r.value } : { path: ref, error: `${ref} is not valid JSON: ${r.message}` };
}

/** A policy file is read by the judge later; a missing one is a problem now. */
export function checkPolicyRef(io: CliIo, ref: string, tasksDir: string): string | null {
  const path = isAbsolute(ref) ? ref : join(tasksDir, ref);
  return existsSync(path) ? null : `policy file ${ref} does not exist (looked for ${relative(io.cwd, path) || path})`;
}

/**
 * Writes every file or none: each goes to a temporary name first, and only when all are written are they
 * renamed into place.
 */
export function writeAll(files: Array<{ path: string; text: string }>): void {
  const temps: string[] = [];
  try {
    for (const f of files) {
      mkdirSync(dirname(f.path), { recursive: true });
      const tmp = join(dirname(f.path), `.${basename(f.path)}.${process.pid}.tmp`);
      writeFileSync(tmp, f.text);
      temps.push(tmp);
    }
    files.forEach((f, i) => renameSync(temps[i], f.path));
  } catch (e) {
    for (const t of temps) if (existsSync(t)) unlinkSync(t);
    throw e;
  }
}
