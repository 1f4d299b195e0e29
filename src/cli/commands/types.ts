export interface Command {
  summary: string;
  /** Returns the process exit code (see docs/results.md for passk's). */
  run(argv: string[]): Promise<number>;
}
