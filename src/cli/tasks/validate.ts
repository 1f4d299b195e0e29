// `worlds tasks validate FILE`: every problem by task, or one line per task saying what the seed supplied.
import { z } from "zod";
import { taskLine } from "../../core/kinds/account/tasks/index";
import { flag, helpText, parseArgs, type FlagDefs } from "../flags";
import { compileFromDisk, printProblems } from "./compile-file";
import { resolveRef } from "../bundled/resolve";
import type { CliIo } from "./io";

const DEFS: FlagDefs = {
  json: { kind: "switch", help: "print the result as JSON ({ok, summary, tasks} or {ok:false, problems})" },
};
const SCHEMA = z.strictObject({ json: flag.switch() });
export const VALIDATE_USAGE = "worlds tasks validate FILE [--json]";

export async function validateCommand(io: CliIo, argv: string[]): Promise<number> {
  const args = parseArgs("tasks validate", argv, DEFS, SCHEMA, { positionals: 1 });
  if (args.help) {
    io.out(helpText(VALIDATE_USAGE, "Checks a tasks file against its seed: every expected line, requester, decoy and the identity map.", DEFS));
    return 0;
  }
  const ref = args.positionals[0];
  if (!ref) return usageError(io, "validate", "name the tasks file: worlds tasks validate worlds/tasks.yaml");
  const resolved = resolveRef(ref, io.cwd, ["pack", "example"]);
  if (!resolved.ok) return usageError(io, "validate", resolved.message);
  if (resolved.note && !args.flags.json) io.out(resolved.note + "\n");
  const file = resolved.note ? resolved.path : ref;
  const compiled = await compileFromDisk(io, file, {}, "worlds tasks validate");
  if (compiled.refusal !== null) return io.err(`${compiled.refusal}\n`), 2;
  const { result } = compiled;
  if (args.flags.json) {
    io.out(JSON.stringify(result.ok ? { ok: true, summary: result.summary, hashes: result.hashes, tasks: result.build.tasks } : { ok: false, problems: result.problems }, null, 2) + "\n");
    return result.ok ? 0 : 2;
  }
  if (!result.ok) {
    printProblems(io, result.problems, "");
    return 2;
  }
  for (const t of result.build.tasks) io.out(taskLine(t) + "\n");
  io.out(result.summary + "\n");
  return 0;
}

export function usageError(io: CliIo, sub: string, message: string): number {
  io.err(`worlds tasks ${sub}: ${message}\nRun 'worlds tasks ${sub} --help' for its options.\n`);
  return 2;
}
