// `worlds tasks validate|build|import`: the tasks file's commands. Each sub-command lives in src/cli/tasks/.
import { FlagError } from "../flags";
import { buildCommand, BUILD_USAGE } from "../tasks/build";
import { importCommand, IMPORT_USAGE } from "../tasks/import/command";
import { processIo, type CliIo } from "../tasks/io";
import { validateCommand, VALIDATE_USAGE } from "../tasks/validate";
import type { Command } from "./types";

const SUBCOMMANDS: Record<string, (io: CliIo, argv: string[]) => Promise<number>> = {
  validate: validateCommand,
  build: buildCommand,
  import: importCommand,
};

function usage(): string {
  return [
    "usage:",
    `  ${VALIDATE_USAGE}`,
    `  ${BUILD_USAGE}`,
    `  ${IMPORT_USAGE}`,
    "",
    "A tasks file (worlds/tasks.yaml) holds your tickets, each with an optional one-line expected: key, on a seed.",
    "validate checks it against the seed, build compiles it into a seed and a rubric, import appends a help desk export.",
    "docs/tasks-file.md has the format and the expected grammar.",
    "",
  ].join("\n");
}

/** Runs `worlds tasks ...` against the given streams and directory (tests pass their own). */
export async function runTasks(argv: string[], io: CliIo = processIo()): Promise<number> {
  const [sub, ...rest] = argv;
  if (!sub || sub === "--help" || sub === "-h" || sub === "help") {
    io[sub ? "out" : "err"](usage());
    return sub ? 0 : 2;
  }
  const run = SUBCOMMANDS[sub];
  if (!run) {
    io.err(`worlds tasks: unknown sub-command '${sub}'.\n\n${usage()}`);
    return 2;
  }
  try {
    return await run(io, rest);
  } catch (e) {
    if (e instanceof FlagError) {
      io.err(`worlds ${e.command}: ${e.message}\nRun 'worlds ${e.command} --help' for its options.\n`);
      return 2;
    }
    throw e;
  }
}

export const tasks: Command = {
  summary: "validate, build or import a tasks file (your tickets and their expected outcomes)",
  run: (argv) => runTasks(argv),
};
