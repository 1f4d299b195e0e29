// `worlds evals import|check|run`: portable task files (docs/replay.md) read, checked and run.
import { existsSync } from "node:fs";
import { basename, extname, join } from "node:path";
import { z } from "zod";
import { flag, FlagError, helpText, parseArgs, type FlagDefs } from "../flags";
import { readTaskFile } from "../evals/read";
import { summaryLine, taskLine, writeBenchmark } from "../evals/import";
import { reportFlagError } from "./errors";
import type { Command } from "./types";

const out = (s: string) => void process.stdout.write(s);
const err = (s: string) => void process.stderr.write(s);

const IMPORT_DEFS: FlagDefs = {
  out: { kind: "value", placeholder: "PATH", help: "where to write the checked copy (default: worlds/evals/<file's name>.json)" },
  force: { kind: "switch", help: "overwrite an existing copy" },
};
const IMPORT_SCHEMA = z.strictObject({ out: flag.text().optional(), force: flag.switch() });
const IMPORT_USAGE = "worlds evals import FILE [--out PATH] [--force]";
const IMPORT_SUMMARY =
  "Checks every task of a task file (a benchmark, a list of tasks or one task, JSON or YAML) field by field and copies it\n" +
  "into the project. A file can also be used directly: worlds evals check|run take its path.";

async function importCommand(argv: string[]): Promise<number> {
  let args;
  try {
    args = parseArgs("evals import", argv, IMPORT_DEFS, IMPORT_SCHEMA, { positionals: 1 });
    if (!args.help && args.positionals.length !== 1) throw new FlagError("evals import", "name the task file to import (worlds evals import FILE).");
  } catch (e) {
    if (e instanceof FlagError) return reportFlagError(e);
    throw e;
  }
  if (args.help) return out(helpText(IMPORT_USAGE, IMPORT_SUMMARY, IMPORT_DEFS)), 0;
  const file = args.positionals[0];
  const read = await readTaskFile(file);
  if (!read.ok) {
    for (const line of read.lines) err(line + "\n");
    err(`worlds evals import: ${file} was not imported; fix the problems above (each names the task and the field).\n`);
    return 2;
  }
  const target = args.flags.out ?? join("worlds", "evals", `${basename(file, extname(file))}.json`);
  if (existsSync(target) && !args.flags.force) {
    err(`worlds evals import: ${target} exists; pass --force to replace it, or --out for another path.\n`);
    return 2;
  }
  await writeBenchmark(target, read.tasks);
  for (const t of read.tasks) out(taskLine(t) + "\n");
  out(`${summaryLine(read.tasks)}\nwrote ${target}\n`);
  return 0;
}

const SUBS: Record<string, (argv: string[]) => Promise<number>> = { import: importCommand };
const USAGE = `worlds evals ${Object.keys(SUBS).join("|")} ...`;

export const evals: Command = {
  summary: "portable task files: import them, grade their reference runs, run an agent on them (docs/replay.md)",
  async run(argv) {
    const [sub, ...rest] = argv;
    if (!sub || sub === "--help" || sub === "-h" || sub === "help") {
      (sub ? process.stdout : process.stderr).write(`usage: ${USAGE}\n\n  ${IMPORT_USAGE}\n`);
      return sub ? 0 : 2;
    }
    const handler = Object.hasOwn(SUBS, sub) ? SUBS[sub] : undefined;
    if (!handler) return reportFlagError(new FlagError("evals", `unknown sub-command '${sub}' (${Object.keys(SUBS).join(", ")}).`));
    return handler(rest);
  },
};
