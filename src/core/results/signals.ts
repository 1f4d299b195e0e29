// Signal numbers for the 128+signal exit code, without node:os (this module also runs in the Worker).
// Linux/POSIX numbering; these are the signals a CLI run realistically ends on.
const NUMBERS: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGABRT: 6, SIGKILL: 9, SIGPIPE: 13, SIGALRM: 14, SIGTERM: 15 };

export function signalExitCode(signal: string): number {
  const n = NUMBERS[signal.toUpperCase()];
  if (n === undefined) throw new RangeError(`unknown signal ${signal}: expected one of ${Object.keys(NUMBERS).join(", ")}`);
  return 128 + n;
}
