// The `worlds` CLI. Each command lives in commands/<name>.ts and returns its exit code.
import { COMMANDS } from "./commands/index";

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  // `worlds help passk` is `worlds passk --help` (and `worlds help tasks import` is `worlds tasks import --help`).
  if (name === "help" && rest.length > 0) {
    const command = COMMANDS[rest[0]];
    if (!command) {
      process.stderr.write(`worlds: unknown command '${rest[0]}'.\n\n${usage()}`);
      return 2;
    }
    return command.run([...rest.slice(1), "--help"]);
  }
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
  return `usage: worlds <command> [options]\n\ncommands:\n${lines.join("\n")}\n\nRun 'worlds help <command>' (or 'worlds <command> --help') for a command's options.\n`;
}
