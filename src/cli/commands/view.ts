// `worlds view [DIR | --url URL]`: a local web page over the runs under DIR (every results file, every tools run
// folder) or on a server: the index, each run's report with the agent's calls, two runs compared, a tools run's
// card. Runs until Ctrl-C; nothing to build, nothing fetched from outside.
import { existsSync, statSync } from "node:fs";
import { z } from "zod";
import { flag, FlagError, type FlagDefs } from "../flags";
import { trapSignals } from "../signals";
import { connectServer, ServerSetupError } from "../server/connect";
import { viewApp } from "../view/app";
import { listen } from "../view/listen";
import { folderSource, serverSource } from "../view/sources";
import { commandArgs } from "./errors";
import type { Command } from "./types";

const DEFS: FlagDefs = {
  url: { kind: "value", placeholder: "URL", help: "browse a worlds server's runs instead of a folder" },
  token: { kind: "value", placeholder: "T", help: "its admin token (default: $WORLDS_TOKEN)" },
  port: { kind: "value", placeholder: "N", help: "the port on 127.0.0.1 (default: 4680; 0 picks a free one)" },
};

const SCHEMA = z.strictObject({
  url: flag.url().optional(),
  token: flag.text().optional(),
  port: flag.int(0, 65535).optional(),
});

const USAGE = "worlds view [DIR] [--port N]\n       worlds view --url URL [--token T] [--port N]";
const SUMMARY = "Serves a page on 127.0.0.1 over every run under DIR (default: the current folder) or on a server: the runs' index with filters, each report with the agent's calls, two runs compared, a tools run's card. Ctrl-C stops it.";
export const VIEW_PORT = 4680;

export const view: Command = {
  summary: "browse the runs under a folder (or on a server) in a local web page",
  async run(argv) {
    const args = commandArgs("view", argv, { defs: DEFS, schema: SCHEMA, usage: USAGE, summary: SUMMARY, positionals: 1 }, (a) => {
      if (a.command) throw new FlagError("view", "view takes no command after '--'.");
      if (a.flags.url && a.positionals.length) throw new FlagError("view", "a folder and --url name two places to read runs from; pick one.");
      if (a.flags.token && !a.flags.url) throw new FlagError("view", "--token goes with --url (a folder needs none).");
    });
    if (typeof args === "number") return args;
    const dir = args.positionals[0] ?? ".";
    if (!args.flags.url && !(existsSync(dir) && statSync(dir).isDirectory())) {
      process.stderr.write(`worlds view: ${dir}: no such folder (name the folder holding your results files, e.g. worlds view worlds/runs)\n`);
      return 2;
    }
    const interrupt = trapSignals();
    try {
      let source;
      if (args.flags.url) {
        try {
          const server = await connectServer({ auto: false, url: args.flags.url, token: args.flags.token }, interrupt);
          source = serverSource(server.client, server.url);
        } catch (e) {
          if (e instanceof ServerSetupError) {
            process.stderr.write(`worlds view: ${e.message}\nnext: ${e.nextAction}\n`);
            return e.exitCode;
          }
          throw e;
        }
      } else source = folderSource(dir);
      const app = viewApp(source);
      let served;
      try {
        served = await listen((req) => app.fetch(req), args.flags.port ?? VIEW_PORT);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        process.stderr.write(`worlds view: cannot listen on 127.0.0.1:${args.flags.port ?? VIEW_PORT} (${code ?? (e as Error).message})${code === "EADDRINUSE" ? "; another view may be running there, or pass --port 0 for a free port" : ""}\n`);
        return 3;
      }
      process.stdout.write(`worlds view: ${source.label} at ${served.url}\nCtrl-C stops it.\n`);
      if (!interrupt.signal.aborted) await new Promise((r) => interrupt.signal.addEventListener("abort", r, { once: true }));
      await served.close();
      return 0;
    } finally {
      interrupt.dispose();
    }
  },
};
