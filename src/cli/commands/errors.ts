import type { FlagError } from "../flags";

/** Bad command lines exit 2 (configuration_incomplete) with the command's --help pointer. */
export function reportFlagError(e: FlagError): number {
  process.stderr.write(`worlds ${e.command}: ${e.message}\nRun 'worlds ${e.command} --help' for its options.\n`);
  return 2;
}
