// `worlds tasks build FILE --out-seed S --out-rubric R`: the compiled seed, the rubric, and tasks.build.json
// beside the file; with --rewrite, the file itself with the seed's identities. All or nothing.
import { dirname, join, relative, resolve } from "node:path";
import { z } from "zod";
import { renderOutputs, rewriteIdentities } from "../../core/kinds/account/tasks/index";
import { flag, helpText, parseArgs, type FlagDefs } from "../flags";
import { compileFromDisk, printProblems } from "./compile-file";
import { writeAll } from "./files";
import type { CliIo } from "./io";
import { usageError } from "./validate";

const DEFS: FlagDefs = {
  "out-seed": { kind: "value", placeholder: "S", help: "where to write the compiled seed (JSON)" },
  "out-rubric": { kind: "value", placeholder: "R", help: "where to write the rubric (JSON)" },
  "keep-seed-tickets": { kind: "switch", help: "keep the base seed's own tickets ahead of the tasks" },
  rewrite: { kind: "switch", help: "write the file back with the seed's emails in place of real ones (comments kept)" },
};
const SCHEMA = z.strictObject({
  "out-seed": flag.text().optional(),
  "out-rubric": flag.text().optional(),
  "keep-seed-tickets": flag.switch(),
  rewrite: flag.switch(),
});
export const BUILD_USAGE = "worlds tasks build FILE --out-seed S --out-rubric R [--keep-seed-tickets] [--rewrite]";

/** The build record always sits beside the tasks file, so a report can find what it graded. */
export function buildRecordPath(cwd: string, file: string): string {
  return join(dirname(resolve(cwd, file)), "tasks.build.json");
}

export async function buildCommand(io: CliIo, argv: string[]): Promise<number> {
  const args = parseArgs("tasks build", argv, DEFS, SCHEMA, { positionals: 1 });
  if (args.help) {
    io.out(helpText(BUILD_USAGE, "Compiles a tasks file into a seed whose desk holds the tasks and a rubric that grades them.", DEFS));
    return 0;
  }
  const file = args.positionals[0];
  const f = args.flags;
  if (!file) return usageError(io, "build", "name the tasks file: worlds tasks build worlds/tasks.yaml --out-seed seed.json --out-rubric rubric.json");
  if (!f["out-seed"] || !f["out-rubric"]) return usageError(io, "build", `${!f["out-seed"] ? "--out-seed" : "--out-rubric"} is required (where to write the compiled ${!f["out-seed"] ? "seed" : "rubric"})`);
  const seedPath = resolve(io.cwd, f["out-seed"]);
  const rubricPath = resolve(io.cwd, f["out-rubric"]);
  const recordPath = buildRecordPath(io.cwd, file);
  const tasksPath = resolve(io.cwd, file);
  const paths = [seedPath, rubricPath, recordPath, tasksPath];
  if (new Set(paths).size !== paths.length) return usageError(io, "build", "--out-seed, --out-rubric, the tasks file and tasks.build.json beside it must be four different files");

  const compiled = await compileFromDisk(io, file, { keepSeedTickets: f["keep-seed-tickets"] === true }, "worlds tasks build");
  if (compiled.refusal !== null) return io.err(`${compiled.refusal}\n`), 2;
  const { result, text } = compiled;
  if (!result.ok) {
    printProblems(io, result.problems, "; nothing written");
    return 2;
  }
  const out = renderOutputs(result);
  const writes = [
    { path: seedPath, text: out.seed },
    { path: rubricPath, text: out.rubric },
    { path: recordPath, text: out.build },
  ];
  let rewritten = 0;
  if (f.rewrite && text !== null) {
    const r = rewriteIdentities(text, result.rewrites);
    rewritten = r.changed;
    if (r.changed) writes.push({ path: tasksPath, text: r.text });
  }
  writeAll(writes);
  const rel = (p: string) => {
    const r = relative(io.cwd, p);
    return r && !r.startsWith("..") ? r : p;
  };
  io.out(`${result.summary}\n`);
  io.out(`seed    ${rel(seedPath)}  ${result.seed.name}  hash ${result.hashes.seed}\n`);
  io.out(`rubric  ${rel(rubricPath)}  hash ${result.hashes.rubric}\n`);
  io.out(`build   ${rel(recordPath)}\n`);
  if (f.rewrite) io.out(rewritten ? `rewrote ${rel(tasksPath)}: ${rewritten} value${rewritten === 1 ? "" : "s"} replaced by the seed's identities\n` : `${rel(tasksPath)} already carries the seed's identities; not rewritten\n`);
  return 0;
}
