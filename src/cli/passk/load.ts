// Compiling the tasks file for passk, once, before any world exists: a library seed name comes from the server
// (the bytes it would load), falling back to the CLI's own library; a .json path is read beside the file.
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { compileTasksFile, formatProblem, readTasksFile, type CompiledTasks, type IdentityMapInput, type Problem } from "../../core/kinds/account/tasks/index";
import { ServerError, type AdminClient } from "../client";
import { packageRoot } from "../paths";
import { scenarioProblem } from "./scenario";
import { ownToolsRefusalOfRead } from "../tools/refusal";

export type LoadOutcome =
  | { ok: true; compiled: CompiledTasks }
  /** exit 2: the file is wrong (problems name file, line, task); exit 3: the server does not hold the seed. */
  | { ok: false; exitCode: 2 | 3; reason: string; nextAction: string; problems: string[] };

/**
 * The same checks as `tasks validate`, so a file validate refuses never runs: its policy file must exist, and its
 * scenario must be one the library holds (unless --scenario replaces it: `fileScenario: false`; likewise
 * --policy for the policy: `filePolicy: false`, so a file whose own policy is missing runs with the one named).
 */
export async function loadTasks(file: string, client: AdminClient, opts: { fileScenario?: boolean; filePolicy?: boolean } = {}): Promise<LoadOutcome> {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return fail(2, `cannot read the tasks file ${file} (${code === "ENOENT" ? "no such file" : code})`, "pass the path of your tasks file with --tasks (for example worlds/tasks.yaml)");
  }
  // One read and one YAML parse serve both the refusal and the compile.
  const read = readTasksFile(bytes, file);
  const refusal = ownToolsRefusalOfRead(resolve(file), file, "worlds passk", bytes, read);
  if (refusal) return fail(2, refusal.replace(/^error: /, ""), `run them with worlds tools run${refusal.includes("--config") ? ` --config ${file}` : ""} -- <your agent command>`);
  const base = dirname(resolve(file));
  let unknownSeed: string | null = null;
  const result = await compileTasksFile({
    text: bytes,
    read,
    fileName: file,
    loadSeed: async (ref) => {
      if (ref.endsWith(".json")) {
        const path = isAbsolute(ref) ? ref : join(base, ref);
        if (!existsSync(path)) return { ok: false, message: `seed file ${ref} does not exist (looked for ${path})` };
        try {
          return { ok: true, document: JSON.parse(readFileSync(path, "utf8")) as unknown, label: ref };
        } catch (e) {
          return { ok: false, message: `seed file ${ref} is not valid JSON: ${(e as Error).message}` };
        }
      }
      try {
        return { ok: true, document: await client.seed(ref), label: `${ref} (from the server)` };
      } catch (e) {
        if (!(e instanceof ServerError) || e.kind !== "not_found") throw e;
        const local = localLibrarySeed(ref);
        if (local) return { ok: true, document: JSON.parse(readFileSync(local, "utf8")) as unknown, label: `${ref} (${local})` };
        unknownSeed = ref;
        return { ok: false, message: `the server holds no seed named '${ref}' (GET /admin/seeds lists the ones it does)` };
      }
    },
    loadIdentityMap: async (ref) => readIdentityMap(isAbsolute(ref) ? ref : join(base, ref)),
    checkPolicy: async (ref) => {
      if (opts.filePolicy === false) return null;
      const path = isAbsolute(ref) ? ref : join(base, ref);
      return existsSync(path) ? null : `policy file ${ref} does not exist (looked for ${path})`;
    },
    checkScenario: opts.fileScenario === false ? undefined : async (ref) => scenarioProblem(ref, resolve(file)),
  });
  if (result.ok) return { ok: true, compiled: result };
  const problems = result.problems.map((p: Problem) => formatProblem(p));
  if (unknownSeed) return { ...fail(3, `the server does not hold the seed '${unknownSeed}'`, "name a seed the server holds (GET /admin/seeds), or point seed: at a .json file beside the tasks file"), problems };
  return { ...fail(2, `${file} has ${problems.length} problem${problems.length === 1 ? "" : "s"}: ${problems[0]}`, `fix the file, then check it with \`worlds tasks validate ${file}\``), problems };
}

/** The CLI's own library: $WORLDS_SEEDS_DIR, then the seeds bundled with this package. */
function localLibrarySeed(name: string): string | null {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(name)) return null;
  const dirs = [process.env.WORLDS_SEEDS_DIR, join(packageRoot(), "seeds")].filter((d): d is string => !!d);
  for (const d of dirs) {
    const p = join(d, `${name}.json`);
    if (existsSync(p)) return p;
  }
  return null;
}

/** Identity maps hold real emails: one that other users can read is refused, as `tasks validate` does. */
function readIdentityMap(path: string): IdentityMapInput {
  if (!existsSync(path)) return { path, missing: true };
  const mode = statSync(path).mode;
  if ((mode & 0o077) !== 0) return { path, error: `${path} can be read by other users (mode ${(mode & 0o777).toString(8)}); run chmod 600 ${path}` };
  try {
    return { path, document: JSON.parse(readFileSync(path, "utf8")) as unknown };
  } catch (e) {
    return { path, error: `${path} is not valid JSON: ${(e as Error).message}` };
  }
}

function fail(exitCode: 2 | 3, reason: string, nextAction: string): Extract<LoadOutcome, { ok: false }> {
  return { ok: false, exitCode, reason, nextAction, problems: [] };
}
