// `worlds seed import ...`: bringing an account in as a seed. Sub-commands live in src/cli/seed-import/.
import { FlagError } from "../flags";
import { seedImportCommand, SEED_IMPORT_USAGE } from "../seed-import/command";
import { processIo, type CliIo } from "../tasks/io";
import type { Command } from "./types";

function usage(): string {
  return ["usage:", `  ${SEED_IMPORT_USAGE}`, "", "import reads a billing account through its API and writes a pseudonymised seed; docs/seed-import.md has the details.", ""].join("\n");
}

export async function runSeed(argv: string[], io: CliIo = processIo()): Promise<number> {
  const [sub, ...rest] = argv;
  if (!sub || sub === "--help" || sub === "-h" || sub === "help") {
    io[sub ? "out" : "err"](usage());
    return sub ? 0 : 2;
  }
  if (sub !== "import") {
    io.err(`worlds seed: unknown sub-command '${sub}'.\n\n${usage()}`);
    return 2;
  }
  try {
    return await seedImportCommand(io, rest);
  } catch (e) {
    if (e instanceof FlagError) {
      io.err(`worlds ${e.command}: ${e.message}\nRun 'worlds ${e.command} --help' for its options.\n`);
      return 2;
    }
    throw e;
  }
}

export const seed: Command = {
  summary: "bring an account in as a seed: seed import --from-stripe (customers pseudonymised)",
  run: (argv) => runSeed(argv),
};
