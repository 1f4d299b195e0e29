// POSIX shell quoting, so a suggested command pastes into sh/bash/zsh and runs the same argv.

const SAFE = /^[A-Za-z0-9_\-./=:@%+,]+$/;

export function shellQuote(arg: string): string {
  if (arg === "") return "''";
  if (SAFE.test(arg)) return arg;
  // Inside single quotes nothing is special except the quote itself, which closes, escapes and reopens.
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

export function shellLine(argv: readonly string[]): string {
  return argv.map(shellQuote).join(" ");
}

/**
 * A worlds command line after the variables it needs (`WORLDS_TOKEN=… worlds passk ...`): the value is the reader's
 * to fill in, so a secret given as a flag is never written into a results file.
 */
export function commandLine(env: readonly string[], argv: readonly string[]): string {
  return [...env.map((name) => `${name}=…`), shellLine(argv)].join(" ");
}
