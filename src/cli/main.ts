// The `worlds` CLI. Each command lives in commands/<name>.ts and returns its exit code.
import { quietOnClosedPipe } from "./closed-pipe";
import type { Command } from "./commands/types";

export async function main(argv: string[]): Promise<number> {
  quietOnClosedPipe();
  const [name, ...rest] = argv;
  // `worlds serve` loads its own module only (a chunk of its own, scripts/build.mjs), not the registry's every
  // command: the server's start waits on the CLI's load, and the other commands' code is most of it.
  if (name === "serve") return (await import("./commands/serve")).serve.run(rest);
  if (name === "--version" || name === "-v") {
    process.stdout.write("worlds 0.1.0\n");
    return 0;
  }
  // `passk` on a local server (--server auto, or no server named) starts it before its code loads: the two overlap
  // (workerd is its own process). A run that ends without asking for it (a flag error) stops it here.
  const early = name === "passk" && asksForLocalServer(rest, process.env) ? await import("./server/local") : null;
  await early?.startLocalServerEarly();
  try {
    return await dispatch(name, rest);
  } finally {
    await early?.takeEarlyServer()?.then((s) => s.stop(), () => undefined);
  }
}

/**
 * The command's own flags (before the `--` that starts the agent's command) ask for the local server: `--server auto`,
 * or no server named at all (no --url, no WORLDS_URL, not a hosted --agent-url run, not --help).
 */
export function asksForLocalServer(argv: string[], env: NodeJS.ProcessEnv): boolean {
  const own = argv.includes("--") ? argv.slice(0, argv.indexOf("--")) : argv;
  const has = (name: string) => own.some((a) => a === name || a.startsWith(`${name}=`));
  if (own.some((a, i) => a === "--server=auto" || (a === "--server" && own[i + 1] === "auto"))) return true;
  return !has("--url") && !env.WORLDS_URL && !has("--agent-url") && !has("--help") && !own.includes("-h");
}

async function dispatch(name: string | undefined, rest: string[]): Promise<number> {
  const { COMMANDS } = await import("./commands/index");
  // `worlds help passk` is `worlds passk --help` (and `worlds help tasks import` is `worlds tasks import --help`).
  if (name === "help" && rest.length > 0) {
    const command = COMMANDS[rest[0]];
    if (!command) {
      process.stderr.write(`worlds: unknown command '${rest[0]}'.\n\n${usage(COMMANDS)}`);
      return 2;
    }
    return command.run([...rest.slice(1), "--help"]);
  }
  if (!name || name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(usage(COMMANDS));
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    process.stderr.write(`worlds: unknown command '${name}'.\n\n${usage(COMMANDS)}`);
    return 2;
  }
  return command.run(rest);
}

function usage(COMMANDS: Record<string, Command>): string {
  const lines = Object.entries(COMMANDS).map(([n, c]) => `  ${n.padEnd(16)} ${c.summary}`);
  return `usage: worlds <command> [options]\n\ncommands:\n${lines.join("\n")}\n\nRun 'worlds help <command>' (or 'worlds <command> --help') for a command's options.\n`;
}
