// The `worlds` CLI. Each command lives in commands/<name>.ts and returns its exit code.
import { COMMANDS } from "./commands/index";

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(usage());
    return name ? 0 : 2;
  }
  if (name === "--version" || name === "-v") {
    process.stdout.write("worlds 0.1.0\n");
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    process.stderr.write(`worlds: unknown command '${name}'.\n\n${usage()}`);
    return 2;
  }
  return command.run(rest);
}

function usage(): string {
  const lines = Object.entries(COMMANDS).map(([n, c]) => `  ${n.padEnd(16)} ${c.summary}`);
  return `usage: worlds <command> [options]\n\ncommands:\n${lines.join("\n")}\n\nRun 'worlds <command> --help' for a command's options.\n`;
}
