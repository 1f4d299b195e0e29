// A command whose module loads when it runs. The CLI is split at these (scripts/build.mjs): a command that brings a
// heavy dependency (the tools commands' tokenizer, 2.1 MB of ranks) no longer costs every other command its parse
// and memory at start.
import type { Command } from "./types";

export function lazyCommand(summary: string, load: () => Promise<Command>): Command {
  return {
    summary,
    async run(argv) {
      return (await load()).run(argv);
    },
  };
}
