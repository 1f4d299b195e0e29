// `worlds init`: five questions (authorities, account, ticket export, policy, CI), each also a flag, then the
// crash test's files: worlds/tasks.yaml, worlds/policy.md, a .gitignore line and optionally the CI workflow.
import { createInterface } from "node:readline/promises";
import { z } from "zod";
import { flag, FlagError, helpText, parseArgs, type FlagDefs } from "../flags";
import { AnswerError, collectAnswers, type Ask } from "../init/questions";
import { runInit } from "../init/run";
import { processIo, type CliIo } from "../tasks/io";
import type { Command } from "./types";

const DEFS: FlagDefs = {
  authorities: { kind: "value", placeholder: "A,B", help: "what the agent may do: refunds, credits, cancellations, plan-changes, invoices; all or none (default all)" },
  account: { kind: "value", placeholder: "library|stripe|SEED", help: "the bundled library account, stripe (import your account now), or a seed file from `worlds seed import` (default library)" },
  tickets: { kind: "value", placeholder: "EXPORT", help: "a help desk export (CSV, JSON) whose rows become tasks; with --account stripe its requesters are copied in first" },
  "api-key": { kind: "value", placeholder: "K", help: "--account stripe: the Stripe key to read the account with (default: $STRIPE_API_KEY)" },
  "api-base": { kind: "value", placeholder: "URL", help: "--account stripe: the API's base URL (default https://api.stripe.com)" },
  sample: { kind: "value", placeholder: "N", help: "--account stripe: the newest N of each resource (default 100), beside every customer the export names" },
  salt: { kind: "value", placeholder: "PHRASE", help: "--account stripe: derive pseudonyms from this phrase when the key cannot read the account's id" },
  policy: { kind: "value", placeholder: "FILE", help: "your support policy (default: the library's)" },
  ci: { kind: "switch", help: "write .github/workflows/worlds.yml (the default)" },
  "no-ci": { kind: "switch", help: "do not write the workflow" },
  pack: { kind: "value", placeholder: "all", help: "all: every task of every starter pack, uncapped" },
  yes: { kind: "switch", short: "y", help: "take the default for every question not given as a flag, without asking" },
  force: { kind: "switch", help: "overwrite files init would write" },
};
const SCHEMA = z.strictObject({
  authorities: z.string().optional(),
  account: flag.text().optional(),
  tickets: flag.text().optional(),
  "api-key": flag.text().optional(),
  "api-base": flag.url().optional(),
  sample: flag.int(1, 10_000).optional(),
  salt: z.string().min(8, { message: "must be at least 8 characters" }).optional(),
  policy: flag.text().optional(),
  ci: flag.switch(),
  "no-ci": flag.switch(),
  pack: flag.oneOf(["all"]).optional(),
  yes: flag.switch(),
  force: flag.switch(),
});
const USAGE =
  "worlds init [--authorities A,B] [--account library|stripe|SEED] [--tickets EXPORT] [--policy FILE] [--ci | --no-ci] [--pack all] [--yes] [--force]\n" +
  "       worlds init --account stripe --tickets EXPORT [--api-key K] [--api-base URL] [--sample N] [--salt PHRASE] [other options]";

export async function runInitCommand(argv: string[], io: CliIo = processIo(), interactive = process.stdin.isTTY === true): Promise<number> {
  let args;
  try {
    args = parseArgs("init", argv, DEFS, SCHEMA);
    if (args.flags.ci && args.flags["no-ci"]) throw new FlagError("init", "--ci and --no-ci contradict each other; pick one.");
  } catch (e) {
    if (e instanceof FlagError) {
      io.err(`worlds init: ${e.message}\nRun 'worlds init --help' for its options.\n`);
      return 2;
    }
    throw e;
  }
  if (args.help) {
    io.out(helpText(USAGE, "Writes a crash test for your agent: the starter tasks for what it may do, your policy, and a CI workflow.", DEFS));
    return 0;
  }
  const f = args.flags;
  const ask = !f.yes && interactive ? terminalAsk() : null;
  try {
    if (ask) io.out("worlds init: five questions; press Enter to take the default in brackets.\n");
    const answers = await collectAnswers(
      io.cwd,
      { authorities: f.authorities, account: f.account, tickets: f.tickets, policy: f.policy, ci: f.ci ? true : f["no-ci"] ? false : undefined },
      ask?.ask ?? null,
      (line) => io.out(line + "\n"),
    );
    ask?.close();
    const stripe = { apiKey: f["api-key"] ?? io.env.STRIPE_API_KEY, apiBase: f["api-base"], sample: f.sample, salt: f.salt };
    return await runInit(io, { answers, all: f.pack === "all", force: !!f.force, stripe });
  } catch (e) {
    ask?.close();
    if (e instanceof AnswerError) {
      io.err(`worlds init: ${e.message}\nnothing written\n`);
      return 2;
    }
    throw e;
  }
}

function terminalAsk(): { ask: Ask; close(): void } {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  return { ask: (q) => rl.question(q), close: () => rl.close() };
}

export const init: Command = {
  summary: "write a crash test for your agent: starter tasks, your policy, a CI workflow (five questions, or flags)",
  run: (argv) => runInitCommand(argv),
};
