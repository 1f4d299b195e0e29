// `worlds serve`: the Worker on Miniflare on 127.0.0.1 until Ctrl-C / SIGTERM.
import { z } from "zod";
import { flag, FlagError, type FlagDefs } from "../flags";
import { LocalServerError, startLocalServer } from "../server/local";
import { trapSignals } from "../signals";
import type { Command } from "./types";
import { commandArgs, reportFlagError } from "./errors";

const DEFS: FlagDefs = {
  port: { kind: "value", placeholder: "N", help: "port on 127.0.0.1 (default: a free one)" },
  token: { kind: "value", placeholder: "T", help: "admin token (default: a fresh random one)" },
  persist: { kind: "value", placeholder: "DIR", help: "keep worlds, runs and traces in DIR across restarts (default: in memory)" },
  verbose: { kind: "switch", help: "print the Worker's log lines and how long each step of the start took" },
};

const SCHEMA = z.strictObject({
  port: flag.int(0, 65535).optional(),
  token: flag.text().regex(/^\S+$/, { message: "must not contain spaces" }).min(16, { message: "must be at least 16 characters" }).optional(),
  persist: flag.text().optional(),
  verbose: flag.switch(),
});

const USAGE = "worlds serve [--port N] [--token T] [--persist DIR] [--verbose]";
const SUMMARY = "Run the worlds server locally (the Worker on Miniflare) until Ctrl-C.";

export const serve: Command = {
  summary: "run the server locally (Miniflare) and print its URL and admin token",
  async run(argv) {
    const args = commandArgs("serve", argv, { defs: DEFS, schema: SCHEMA, usage: USAGE, summary: SUMMARY });
    if (typeof args === "number") return args;
    if (args.command) return reportFlagError(new FlagError("serve", "serve takes no command after '--'."));
    const { port, token, persist, verbose } = args.flags;
    const interrupt = trapSignals();
    let server;
    try {
      server = await startLocalServer({ port, token, persist, onRuntimeLine: verbose ? (l) => process.stderr.write(`[worker] ${l}\n`) : undefined, onPhase: verbose ? (p, ms) => process.stderr.write(`[start] ${p} at ${Math.round(ms)} ms\n`) : undefined });
    } catch (e) {
      interrupt.dispose();
      if (e instanceof LocalServerError) {
        process.stderr.write(`worlds serve: ${e.message}\n`);
        return 3;
      }
      throw e;
    }
    interrupt.takeOver();
    try {
      process.stdout.write(
        `worlds server listening on ${server.url}\n` +
          `WORLDS_URL=${server.url}\nWORLDS_TOKEN=${server.token}\n` +
          `storage: ${server.persist ?? "in memory (gone when the server stops; --persist DIR keeps it)"}\n` +
          `try: curl -X POST ${server.url}/admin/worlds -H "Authorization: Bearer ${server.token}" -d '{"seed":"acme-small"}'\n` +
          `Ctrl-C stops it.\n`,
      );
      const r = server.recovered;
      if (r && "error" in r) process.stderr.write(`worlds serve: could not resume the hosted runs the last server left unfinished: ${r.error}\n`);
      else if (r && r.runs > 0)
        process.stderr.write(
          `worlds serve: ${r.runs} hosted run(s) left unfinished by the last server resumed: ${r.requeued} episode(s) queued again` +
            ` (${r.interrupted} interrupted, run again in a fresh world), ${r.worlds_removed} orphaned world(s) removed, ${r.finished} run(s) finished.\n`,
        );
      if (!interrupt.signal.aborted) await new Promise((r) => interrupt.signal.addEventListener("abort", r, { once: true }));
      process.stderr.write(`worlds serve: ${interrupt.received()} received, stopping.\n`);
      return 0;
    } finally {
      await server.stop();
      interrupt.dispose();
    }
  },
};
