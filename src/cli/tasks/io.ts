// Where a tasks command reads and writes: the working directory, the environment and the two streams. Tests
// pass their own to run commands in-process and compare output byte for byte.
export interface CliIo {
  cwd: string;
  env: Record<string, string | undefined>;
  out(text: string): void;
  err(text: string): void;
}

export function processIo(): CliIo {
  return {
    cwd: process.cwd(),
    env: process.env,
    out: (t) => void process.stdout.write(t),
    err: (t) => void process.stderr.write(t),
  };
}
