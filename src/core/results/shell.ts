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
