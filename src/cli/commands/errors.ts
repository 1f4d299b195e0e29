import type { z } from "zod";
import { FlagError, helpText, parseArgs, type FlagDefs, type ParsedArgs } from "../flags";

/** Bad command lines exit 2 (configuration_incomplete) with the command's --help pointer. */
export function reportFlagError(e: FlagError): number {
  process.stderr.write(`worlds ${e.command}: ${e.message}\nRun 'worlds ${e.command} --help' for its options.\n`);
  return 2;
}

/**
 * A command's flags parsed and checked (`check` throws FlagError for a combination that cannot run; it is not
 * called for --help), or the exit code when there is nothing to run: 0 after printing the help, 2 after a bad flag.
 */
export function commandArgs<S extends z.ZodType>(
  name: string,
  argv: readonly string[],
  spec: { defs: FlagDefs; schema: S; usage: string; summary: string; positionals?: number },
  check: (args: ParsedArgs<z.infer<S>>) => void = () => {},
): ParsedArgs<z.infer<S>> | number {
  let args;
  try {
    args = parseArgs(name, argv, spec.defs, spec.schema, { positionals: spec.positionals ?? 0 });
    if (!args.help) check(args);
  } catch (e) {
    if (e instanceof FlagError) return reportFlagError(e);
    throw e;
  }
  if (args.help) {
    process.stdout.write(helpText(spec.usage, spec.summary, spec.defs));
    return 0;
  }
  return args;
}
